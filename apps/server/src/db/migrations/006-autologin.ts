/**
 * Key login set-up: each Linux server resource's own SSH key pair, made on the server. The
 * private key is sealed under the master key; the public key is what a key upload adds to a
 * login user's ~/.ssh/authorized_keys. The pair goes with its resource.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('resource_keypair')
    .addColumn('resource_id', 'integer', (c) =>
      c.primaryKey().references('resource.id').onDelete('cascade'),
    )
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', ctx.time, (c) => c.notNull())
    .execute();
}
