/**
 * Database security settings: block and alarm rules (JSON lists of {op, table?}), the alarm
 * switch, and the approvers and notifiers of each database.
 */
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('resource')
    .addColumn('block_pattern', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('resource')
    .addColumn('notice_pattern', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('resource')
    .addColumn('notice_status', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('resource_account')
    .addColumn('resource_id', 'integer', (c) =>
      c.notNull().references('resource.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('account.id').onDelete('cascade'),
    )
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_account_pk', ['resource_id', 'account_id', 'role'])
    .execute();
}
