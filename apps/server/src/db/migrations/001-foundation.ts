/**
 * Foundation tables: teams, plans, accounts, sessions, sign-in bookkeeping, files, SSH keys.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// Migrations see the database before later migrations shape it, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { id, time } = ctx;

  await db.schema
    .createTable('company')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('domain', 'varchar(64)', (c) => c.notNull())
    .addColumn('domain_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('full_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('contact_name', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('contact_address', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('contact_phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('password_strength', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('company_mfa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reset_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('session_expire_time', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('ip_whitelist', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('admin_whitelist', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sso_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sso_login_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('plan')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('account_limit', 'integer', (c) => c.notNull())
    .addColumn('network_limit', 'integer', (c) => c.notNull())
    .addColumn('resource_limit', 'integer', (c) => c.notNull())
    .addColumn('shared_resource_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shared_network_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('log_back_days', 'integer', (c) => c.notNull())
    .addColumn('start_time', time, (c) => c.notNull())
    .addColumn('expire_time', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plan_company').on('plan').column('company_id').execute();

  await db.schema
    .createTable('account')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account', 'varchar(254)', (c) => c.notNull())
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('password_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_changed_at', time)
    .addColumn('password_set_by_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_owner', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('avatar', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('mobile', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('otp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('otp_secret', 'text')
    .addColumn('otp_pending_secret', 'text')
    .addColumn('otp_last_step', time, (c) => c.notNull().defaultTo(0))
    .addColumn('last_login_time', time)
    .addColumn('last_login_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('account_company_account', ['company_id', 'account'])
    .execute();
  await db.schema
    .createIndex('account_company_role')
    .on('account')
    .columns(['company_id', 'is_admin'])
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('stage', 'varchar(16)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_seen_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('session_account').on('session').column('account_id').execute();

  await db.schema
    .createTable('login_failure')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('domain_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('username', 'varchar(254)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failure_key')
    .on('login_failure')
    .columns(['domain_key', 'username', 'created_at'])
    .execute();

  await db.schema
    .createTable('login_log')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer')
    .addColumn('account_id', 'integer')
    .addColumn('account', 'varchar(254)', (c) => c.notNull())
    .addColumn('admin', 'integer')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_log_company_time')
    .on('login_log')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('captcha')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('answer', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('reset_token')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sms_code')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('mobile', 'varchar(32)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_code_account').on('sms_code').column('account_id').execute();

  await db.schema
    .createTable('file')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('extension', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_pubkey')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('title', 'varchar(50)', (c) => c.notNull())
    .addColumn('key_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull())
    .addColumn('pubkey', 'text', (c) => c.notNull())
    .addColumn('create_time', time, (c) => c.notNull())
    .addColumn('last_time', time)
    // One key opens one account at the gateway, so a key belongs to one member of a team.
    .addUniqueConstraint('account_pubkey_fingerprint', ['company_id', 'fingerprint'])
    .execute();
  await db.schema
    .createIndex('account_pubkey_account')
    .on('account_pubkey')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('tunnel_connection')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('ended_at', time)
    .execute();
  await db.schema
    .createIndex('tunnel_connection_live')
    .on('tunnel_connection')
    .columns(['company_id', 'ended_at'])
    .execute();
}
