/**
 * Terminal recordings: a session's recording is a file in the recordings storage
 * (features/recordings); the connection row only says whether one exists (the action log's
 * `play` is non-zero then).
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('tunnel_connection')
    .addColumn('recording', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
