/**
 * A covering index for the action log (spec 1 §7 GET /search_tunnel) over a large table. The
 * search joins every session to its member, resource and code, and counts the whole match
 * before it reads a page. On SQLite that count walks the team's rows in the table itself to
 * find the join keys (tunnel_id is in no index of 012), one random page read per session: with
 * a million entries, seconds (bench/RESULTS.md). With the join keys in one index ordered like
 * the team's time index, the count and the text-filter scans read only this index, in order.
 * PostgreSQL drops the unused joins from the count, so there it mostly serves the text filters
 * with an index-only scan.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('tunnel_connection_search_cover')
    .ifNotExists()
    .on('tunnel_connection')
    .columns(['company_id', 'created_at', 'account_id', 'resource_id', 'tunnel_id'])
    .execute();
}
