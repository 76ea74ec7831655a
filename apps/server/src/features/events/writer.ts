/**
 * The one event writer every feature calls: each administrative act (team, cluster, workgroup)
 * and each alarm becomes a row of the system logs. Values are names, never secrets.
 */
import type { Insertable } from 'kysely';
import type { LogType, TeamEvent } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { EventLogTable } from '../../db/schema';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';

/**
 * The event names each log accepts. Team events are checked against the vocabulary, so a typo
 * cannot write a row that the page's event filter never finds; the other logs get theirs as
 * their features arrive.
 */
export interface EventNames {
  team: TeamEvent;
  cluster: string;
  project: string;
  alarm: string;
}

export interface EventFields {
  user?: string;
  group?: string;
  net_name?: string;
  resource_name?: string;
  shared_company_name?: string;
  project_name?: string;
  project_account?: string;
  con_ip?: string;
  way?: string;
  command?: string;
  notice_accounts?: string[];
}

export async function writeEvent<L extends Exclude<LogType, 'login'>>(
  ctx: AppContext,
  auth: AuthContext,
  logType: L,
  event: EventNames[L],
  fields: EventFields = {},
): Promise<void> {
  const row: Insertable<EventLogTable> = {
    company_id: auth.company.id,
    log_type: logType,
    event,
    account_id: auth.account.id,
    account: auth.account.account,
    admin: auth.account.is_admin,
    user: fields.user ?? '',
    group_name: fields.group ?? '',
    net_name: fields.net_name ?? '',
    resource_name: fields.resource_name ?? '',
    shared_company_name: fields.shared_company_name ?? '',
    project_name: fields.project_name ?? '',
    project_account: fields.project_account ?? '',
    con_ip: fields.con_ip ?? '',
    way: fields.way ?? '',
    command: fields.command ?? '',
    notice_accounts: JSON.stringify(fields.notice_accounts ?? []),
    created_at: nowSeconds(),
  };
  await ctx.db.insertInto('event_log').values(row).execute();
}
