/** Log rows written straight into the database, for the tests of the system logs. */
import type { Insertable } from 'kysely';
import type { EventLogTable } from '../../db/schema';
import { TEAM, type TestApp } from '../../test/harness';

/** Writes a log row directly, for times and alarms that no act of these tests produces. */
export async function insertEvent(
  t: TestApp,
  row: Partial<Insertable<EventLogTable>> &
    Pick<Insertable<EventLogTable>, 'company_id' | 'log_type' | 'event' | 'created_at'>,
): Promise<number> {
  const full: Insertable<EventLogTable> = {
    account_id: null,
    account: '',
    admin: null,
    user: '',
    group_name: '',
    net_name: '',
    resource_name: '',
    shared_company_name: '',
    project_name: '',
    project_account: '',
    con_ip: '',
    way: '',
    command: '',
    notice_accounts: '[]',
    ...row,
  };
  const inserted = await t.ctx.db
    .insertInto('event_log')
    .values(full)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function demoCompanyId(t: TestApp): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('company')
    .select('id')
    .where('domain', '=', TEAM)
    .executeTakeFirstOrThrow();
  return row.id;
}
