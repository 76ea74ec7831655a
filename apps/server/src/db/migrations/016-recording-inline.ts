/**
 * Small recordings in the database (features/recordings/tiered-store.ts): a recording whose
 * first chunk is all there is so far (a short database session's statement log, usually all
 * of it) is a row here rather than a file; the row moves to a file when a second chunk comes.
 * A file per short session cost more than the session's other work together where making a
 * file is dear (bench/RESULTS.md: ext4 without a journal walks past recently freed inodes).
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('recording_inline')
    .addColumn('connection_id', 'integer', (c) =>
      c.primaryKey().references('tunnel_connection.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('data', ctx.dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
    .execute();
}
