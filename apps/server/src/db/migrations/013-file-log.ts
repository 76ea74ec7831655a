/**
 * The file log (spec 1 §3 action log entry: "File-log sessions carry op and filename"): each
 * file a session opened through sftp or scp is a tunnel_connection row of its own, way sftp or
 * scp, with the direction (download or upload), the file name as the client named it, and the
 * session that moved it (parent_id). Such a row is closed when written (ended_at = created_at),
 * so it is never an online connection. Guarded like 011: a column already there is kept.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _ctx: MigrationContext): Promise<void> {
  const tables = await db.introspection.getTables();
  const table = tables.find((t) => t.name === 'tunnel_connection');
  const has = new Set(table?.columns.map((c) => c.name) ?? []);
  if (!has.has('op')) {
    await db.schema
      .alterTable('tunnel_connection')
      .addColumn('op', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  if (!has.has('filename')) {
    await db.schema
      .alterTable('tunnel_connection')
      .addColumn('filename', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  if (!has.has('parent_id')) {
    await db.schema.alterTable('tunnel_connection').addColumn('parent_id', 'integer').execute();
  }
}
