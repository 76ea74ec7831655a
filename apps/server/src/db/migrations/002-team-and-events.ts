/**
 * Team administration: groups and their members, the team's workspace binding, and one event
 * log that every feature writes (system logs).
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { id, time } = ctx;

  await db.schema
    .alterTable('company')
    .addColumn('domain_token', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('company')
    .addColumn('ee_work_space_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('company')
    .addColumn('ee_work_space_name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('company').addColumn('binding_admin_id', 'integer').execute();
  await db.schema
    .alterTable('account')
    .addColumn('unique_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('team_group')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(50)', (c) => c.notNull())
    .addColumn('note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('team_group_name', ['company_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('group_member')
    .addColumn('group_id', 'integer', (c) =>
      c.notNull().references('team_group.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('group_member_pk', ['group_id', 'account_id'])
    .execute();
  await db.schema
    .createIndex('group_member_account')
    .on('group_member')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('event_log')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('log_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('event', 'varchar(64)', (c) => c.notNull())
    .addColumn('account_id', 'integer')
    .addColumn('account', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('admin', 'integer')
    .addColumn('user', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('group_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('net_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('resource_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('shared_company_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('project_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('project_account', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('con_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('way', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('command', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notice_accounts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('event_log_list')
    .on('event_log')
    .columns(['company_id', 'log_type', 'created_at'])
    .execute();
}
