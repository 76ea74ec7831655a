/**
 * Reading the system logs: one filter builder for every log type, used by the list calls and
 * by the export, so what is exported is exactly what the page shows.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { LogQuery, LogType } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import { containsText } from '../../lib/sql';

/** Query fields that filter an event_log column by "contains", per log type. */
const TEXT_FILTERS: Record<Exclude<LogType, 'login'>, Partial<Record<keyof LogQuery, string>>> = {
  team: { account: 'account', user: 'user' },
  cluster: {
    account: 'account',
    resource_name: 'resource_name',
    net_name: 'net_name',
    shared_company_name: 'shared_company_name',
  },
  project: {
    account: 'account',
    project_name: 'project_name',
    resource_name: 'resource_name',
    project_account: 'project_account',
  },
  alarm: {
    account_name: 'account',
    source_ip: 'con_ip',
    resource_name: 'resource_name',
    command: 'command',
  },
};

type EventQuery = SelectQueryBuilder<Database, 'event_log', object>;
type LoginQuery = SelectQueryBuilder<Database, 'login_log', object>;

export function eventLogQuery(
  ctx: AppContext,
  companyId: number,
  type: Exclude<LogType, 'login'>,
  q: LogQuery,
): EventQuery {
  let query: EventQuery = ctx.db
    .selectFrom('event_log')
    .where('company_id', '=', companyId)
    .where('log_type', '=', type);
  if (q.start_time !== undefined) query = query.where('created_at', '>=', q.start_time);
  if (q.end_time !== undefined) query = query.where('created_at', '<', q.end_time);
  if (q.event) query = query.where('event', '=', q.event);
  for (const [field, column] of Object.entries(TEXT_FILTERS[type])) {
    const value = q[field as keyof LogQuery];
    if (typeof value === 'string' && value !== '' && column)
      query = query.where(containsText([column], value));
  }
  return query;
}

export function loginLogQuery(ctx: AppContext, companyId: number, q: LogQuery): LoginQuery {
  let query: LoginQuery = ctx.db.selectFrom('login_log').where('company_id', '=', companyId);
  if (q.start_time !== undefined) query = query.where('created_at', '>=', q.start_time);
  if (q.end_time !== undefined) query = query.where('created_at', '<', q.end_time);
  if (q.admin !== undefined) query = query.where('admin', '=', q.admin);
  if (q.account) query = query.where(containsText(['account'], q.account));
  return query;
}

export async function countOf(query: EventQuery | LoginQuery): Promise<number> {
  const row = await (query as EventQuery)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function noticeAccounts(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}
