/**
 * Single sign-on: the team's SAML configuration, the outstanding AuthnRequests (InResponseTo),
 * the assertion IDs already consumed (replay cache) and the single-use sign-in credentials.
 * Tokens and browser bindings are stored as SHA-256 hashes only.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { time } = ctx;

  await db.schema
    .createTable('sso_config')
    .addColumn('company_id', 'integer', (c) => c.primaryKey().references('company.id'))
    .addColumn('is_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_account_password', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sso_type', 'varchar(16)', (c) => c.notNull().defaultTo('SAML2.0'))
    .addColumn('id_vendor', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    /** JSON array of lower-cased e-mail domains. */
    .addColumn('access_white_list', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('metadata_xml', 'text')
    .addColumn('metadata_file_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('idp_entity_id', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('idp_sso_url', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    /** JSON array of the provider's signing certificates, PEM. */
    .addColumn('idp_certs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sso_request')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sso_request_expiry')
    .on('sso_request')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('sso_assertion_seen')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('assertion_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_assertion_seen_pk', ['company_id', 'assertion_id'])
    .execute();
  await db.schema
    .createIndex('sso_assertion_seen_expiry')
    .on('sso_assertion_seen')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('sso_credential')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .execute();
  await db.schema
    .createIndex('sso_credential_expiry')
    .on('sso_credential')
    .column('expires_at')
    .execute();
}
