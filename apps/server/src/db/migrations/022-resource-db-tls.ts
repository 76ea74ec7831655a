/**
 * How the gateway's own connection to a database uses TLS (contract DB_TLS_MODES): 'prefer'
 * (TLS when offered, certificate unchecked: what every database did before), 'require' or
 * 'verify', and the CA certificates in PEM that 'verify' checks against ('' for the public CAs Node.js ships with).
 * Servers keep the defaults, unread.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('resource')
    .addColumn('tls_mode', 'varchar(16)', (c) => c.notNull().defaultTo('prefer'))
    .execute();
  await db.schema
    .alterTable('resource')
    .addColumn('tls_ca', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
