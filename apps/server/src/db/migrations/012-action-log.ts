/**
 * Indexes for the action log (spec 1 §7 GET /search_tunnel): a team's sessions newest first,
 * narrowed by member, resource or way. Each index leads with company_id and ends with
 * created_at, so a filter plus the time order (and a time range) is one index range scan.
 * Text filters (names, addresses, keywords) are contains-matches that no B-tree serves; they
 * run over the rows the team and time bounds leave.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

const INDEXES: Record<string, string[]> = {
  tunnel_connection_company_time: ['company_id', 'created_at'],
  tunnel_connection_account_time: ['company_id', 'account_id', 'created_at'],
  tunnel_connection_resource_time: ['company_id', 'resource_id', 'created_at'],
  tunnel_connection_way_time: ['company_id', 'way', 'created_at'],
};

export async function up(db: AnyDb, _ctx: MigrationContext): Promise<void> {
  for (const [name, columns] of Object.entries(INDEXES)) {
    await db.schema
      .createIndex(name)
      .ifNotExists()
      .on('tunnel_connection')
      .columns(columns)
      .execute();
  }
}
