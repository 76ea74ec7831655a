/**
 * Clusters, the gateways connected to them (the agent pool), and the cluster-side tasks they
 * run for the console (connectivity tests, scans).
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { id, time } = ctx;

  await db.schema
    .createTable('network')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(50)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('max_tunnel_expire_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_open_map', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('port_map_info', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('safe_mode', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('network_name', ['company_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('agent')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('network_id', 'integer', (c) =>
      c.notNull().references('network.id').onDelete('cascade'),
    )
    .addColumn('instance', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('version', 'varchar(32)', (c) => c.notNull())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('ports', 'text', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('remote_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('connected_at', time, (c) => c.notNull())
    .addColumn('last_seen_at', time, (c) => c.notNull())
    .addColumn('disconnected_at', time)
    .execute();
  await db.schema
    .createIndex('agent_network_live')
    .on('agent')
    .columns(['network_id', 'disconnected_at'])
    .execute();

  await db.schema
    .createTable('task')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('finished_at', time)
    .execute();
  await db.schema
    .createIndex('task_company')
    .on('task')
    .columns(['company_id', 'created_at'])
    .execute();
}
