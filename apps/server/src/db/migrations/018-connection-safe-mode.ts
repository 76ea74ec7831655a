/**
 * Whether a session ran in security mode, as it started (1, or 0: the action log's unsafe
 * mode). It was read from the session's code, whose setting can change afterwards (and which
 * says nothing of the cluster's safe mode): a change rewrote the history of every session made
 * with it. Rows from before are filled from their codes, the best there is for them.
 *
 * SQLite: the action log's covering index (015) takes the column too, so that the unsafe-mode
 * filter is still answered from the index alone (it was, through tunnel_id).
 */
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('tunnel_connection').addColumn('safe_mode', 'integer').execute();
  await sql`update tunnel_connection set safe_mode =
    (select tunnel.safe_mode from tunnel where tunnel.id = tunnel_connection.tunnel_id)
    where tunnel_id is not null`.execute(db);
  if (ctx.dialect !== 'sqlite') return;
  await db.schema.dropIndex('tunnel_connection_search').ifExists().execute();
  await db.schema
    .createIndex('tunnel_connection_search')
    .on('tunnel_connection')
    .columns([
      'company_id',
      'created_at',
      'account_id',
      'resource_id',
      'tunnel_id',
      'client_ip',
      'filename',
      'safe_mode',
    ])
    .execute();
}
