/**
 * Resources of clusters, and the login users of servers (or the connect account of a database)
 * with their credentials sealed under the master key.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { id, time } = ctx;

  await db.schema
    .createTable('resource')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('os', 'varchar(16)', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(253)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('instance_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('flavor', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('databases', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('resource_name', ['network_id', 'name_key'])
    .execute();
  await db.schema
    .createIndex('resource_network_os')
    .on('resource')
    .columns(['network_id', 'os'])
    .execute();
  await db.schema
    .createIndex('resource_company')
    .on('resource')
    .columns(['company_id', 'ip_address'])
    .execute();

  await db.schema
    .createTable('resource_login')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('resource_id', 'integer', (c) =>
      c.notNull().references('resource.id').onDelete('cascade'),
    )
    .addColumn('username', 'varchar(128)', (c) => c.notNull())
    .addColumn('auth_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('secret_sealed', 'text')
    .addColumn('test_result', 'varchar(16)')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('resource_login_user', ['resource_id', 'username'])
    .execute();
}
