/**
 * Online connections say how they were made: the protocol way (ssh, sftp, scp, webssh) and the
 * client's address, as the gateway reports them at session_start, so the online list can show
 * them. Guarded by a look at the table: a sibling migration that added the same columns first
 * (the action log needs them too) is not an error.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _ctx: MigrationContext): Promise<void> {
  const tables = await db.introspection.getTables();
  const table = tables.find((t) => t.name === 'tunnel_connection');
  const has = new Set(table?.columns.map((c) => c.name) ?? []);
  if (!has.has('way')) {
    await db.schema
      .alterTable('tunnel_connection')
      .addColumn('way', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  if (!has.has('client_ip')) {
    await db.schema
      .alterTable('tunnel_connection')
      .addColumn('client_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  // The online list's filters run over live rows of one team; the live index of 001 serves them.
}
