/**
 * Workgroups (projects), their members, groups and resources, the members' stars and default
 * login users, and connection codes (tunnels). A cluster's default workgroup carries its
 * network_id (null for every other workgroup) and goes with the cluster. Codes keep their value
 * sealed (the owner is shown it) and its SHA-256 for look-up by the gateway; a temporary
 * authorization's password is kept only as an argon2 hash.
 */
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { id, time } = ctx;

  await db.schema
    .createTable('project')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'varchar(140)', (c) => c.notNull().defaultTo(''))
    .addColumn('network_id', 'integer', (c) =>
      c.references('network.id').onDelete('cascade').unique(),
    )
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('project_name', ['company_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('project_member')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('project.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('role', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_member_pk', ['project_id', 'account_id'])
    .execute();
  await db.schema
    .createIndex('project_member_account')
    .on('project_member')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('project_group')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('project.id').onDelete('cascade'),
    )
    .addColumn('group_id', 'integer', (c) =>
      c.notNull().references('team_group.id').onDelete('cascade'),
    )
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_group_pk', ['project_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('project_group_group')
    .on('project_group')
    .column('group_id')
    .execute();

  await db.schema
    .createTable('project_resource')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('project.id').onDelete('cascade'),
    )
    .addColumn('resource_id', 'integer', (c) =>
      c.notNull().references('resource.id').onDelete('cascade'),
    )
    // JSON list of the login users the workgroup grants; null grants all of the resource's.
    .addColumn('login_usernames', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('project_resource_pair', ['project_id', 'resource_id'])
    .execute();
  await db.schema
    .createIndex('project_resource_resource')
    .on('project_resource')
    .column('resource_id')
    .execute();

  await db.schema
    .createTable('project_favourite')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('project.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_favourite_pk', ['account_id', 'project_id'])
    .execute();

  await db.schema
    .createTable('project_resource_default')
    .addColumn('project_resource_id', 'integer', (c) =>
      c.notNull().references('project_resource.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('default_username', 'varchar(128)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_resource_default_pk', ['project_resource_id', 'account_id'])
    .execute();

  await db.schema
    .createTable('tunnel')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('project_resource_id', 'integer', (c) =>
      c.notNull().references('project_resource.id').onDelete('cascade'),
    )
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('code_sealed', 'text', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('allow_ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('safe_mode', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tmp_username', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmp_passwd_hash', 'text')
    .addColumn('used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expire_time', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tunnel_owner')
    .on('tunnel')
    .columns(['project_resource_id', 'account_id', 'status'])
    .execute();
  // One live ordinary code per member and workgroup resource (spec 1 §5), even under races.
  await sql`create unique index tunnel_one_normal on tunnel (project_resource_id, account_id) where type = 'normal' and status = 'enable'`.execute(
    db,
  );
  await db.schema
    .createIndex('tunnel_company')
    .on('tunnel')
    .columns(['company_id', 'status', 'expire_time'])
    .execute();

  // Sessions name the code and resource they ran on (the sessions feature fills them), so a
  // resource's online and logged sessions can be counted.
  await db.schema.alterTable('tunnel_connection').addColumn('tunnel_id', 'integer').execute();
  await db.schema.alterTable('tunnel_connection').addColumn('resource_id', 'integer').execute();
  await db.schema
    .createIndex('tunnel_connection_resource')
    .on('tunnel_connection')
    .columns(['resource_id', 'ended_at'])
    .execute();
}
