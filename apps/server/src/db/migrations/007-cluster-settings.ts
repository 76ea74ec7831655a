/**
 * Cluster settings: shares with other teams, log filters, safe-mode switches, approvers and
 * notifiers, and the commands safe mode blocks or alarms on.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, ctx: MigrationContext): Promise<void> {
  const { id, time } = ctx;
  await db.schema
    .alterTable('network')
    .addColumn('safe_mode_approver', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('network')
    .addColumn('safe_mode_notice', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('network_share')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('network_id', 'integer', (c) =>
      c.notNull().references('network.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('network_share_pair', ['network_id', 'company_id'])
    .execute();
  await db.schema
    .createIndex('network_share_company')
    .on('network_share')
    .column('company_id')
    .execute();

  await db.schema
    .createTable('log_filter')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('network_id', 'integer', (c) =>
      c.notNull().references('network.id').onDelete('cascade'),
    )
    .addColumn('condition', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('log_filter_network').on('log_filter').column('network_id').execute();

  await db.schema
    .createTable('intercept_command')
    .addColumn('id', id, (c) => ctx.primaryId(c))
    .addColumn('network_id', 'integer', (c) =>
      c.notNull().references('network.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('command', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('intercept_command_unique', ['network_id', 'kind', 'command'])
    .execute();

  await db.schema
    .createTable('network_account')
    .addColumn('network_id', 'integer', (c) =>
      c.notNull().references('network.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_account_pk', ['network_id', 'account_id', 'role'])
    .execute();
}
