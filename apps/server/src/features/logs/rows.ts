/** Database rows to the wire shapes of spec 2 §3 (log rows). */
import type { Selectable } from 'kysely';
import { ALARM_ACTIONS, type AlarmAction } from '@portcullis/contract';
import type { EventLogTable, LoginLogTable } from '../../db/schema';
import { noticeAccounts } from './queries';

type EventRow = Selectable<EventLogTable>;

/**
 * An alarm row's event as the wire names it. Only recordAlarm writes alarm rows, with an action
 * the control channel's schema checked; should a row hold anything else, it reads as a notice,
 * since claiming that a command was blocked when it may have run is the unsafe mistake.
 */
function alarmAction(event: string): AlarmAction {
  return (ALARM_ACTIONS as readonly string[]).includes(event) ? (event as AlarmAction) : 'notice';
}

export const toRow = {
  login: (r: Selectable<LoginLogTable>) => ({
    id: r.id,
    time: r.created_at,
    account: r.account,
    admin: r.admin,
    ip: r.ip,
    success: r.success === 1,
    reason: r.reason,
  }),
  team: (r: EventRow) => ({
    id: r.id,
    time: r.created_at,
    account: r.account,
    event: r.event,
    user: r.user,
    group: r.group_name,
  }),
  cluster: (r: EventRow) => ({
    id: r.id,
    time: r.created_at,
    account: r.account,
    event: r.event,
    net_name: r.net_name,
    resource_name: r.resource_name,
    shared_company_name: r.shared_company_name,
  }),
  project: (r: EventRow) => ({
    id: r.id,
    time: r.created_at,
    account: r.account,
    event: r.event,
    project_name: r.project_name,
    resource_name: r.resource_name,
    project_account: r.project_account,
    group: r.group_name,
  }),
  alarm: (r: EventRow) => ({
    id: r.id,
    operation_time: r.created_at,
    account_name: r.account,
    con_ip: r.con_ip,
    resource_name: r.resource_name,
    project_name: r.project_name,
    way: r.way,
    event: alarmAction(r.event),
    command: r.command,
    notice_accounts: noticeAccounts(r.notice_accounts),
  }),
};
