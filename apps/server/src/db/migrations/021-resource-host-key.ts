/**
 * A server's SSH host key, pinned at its first session (trust on first use): the fingerprint
 * (`SHA256:…`, as `ssh-keygen -lf` prints it) the gateway saw there. A later session that sees
 * another key is refused before any credential is sent. Cleared when the resource's address or
 * port changes, or when an administrator forgets it; null for databases and until then.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('resource').addColumn('host_key', 'varchar(64)').execute();
}
