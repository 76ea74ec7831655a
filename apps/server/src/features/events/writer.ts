/**
 * The one event writer every feature calls: each administrative act (team, cluster, workgroup)
 * and each alarm becomes a row of the system logs. Values are names, never secrets.
 */
import type { Insertable } from 'kysely';
import type { LogType } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { EventLogTable } from '../../db/schema';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';

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

export async function writeEvent(
  ctx: AppContext,
  auth: AuthContext,
  logType: Exclude<LogType, 'login'>,
  event: string,
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
