/**
 * The dashboard's statistics (contract statistics.ts), read from the sessions table: a
 * session row is a tunnel_connection row with no file op (file transfers are rows of their
 * own, under their session, and would count a session twice). A session's duration is its
 * end minus its start, or the time of the question minus its start while it is still open.
 */
import type {
  ConnectionDay,
  InstancesSummary,
  StatisticsOverview,
  StatisticsRangeQuery,
  TopAccount,
  TopQuery,
  TopResource,
} from '@portcullis/contract';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';
import { formerIdentities } from '../action-logs/former-identities';

const DAY = 86_400;

interface Window {
  time_from: number;
  time_end: number;
}

/** The team's sessions that started inside the window (the search index's leading columns). */
function sessionsIn(ctx: AppContext, companyId: number, w: Window) {
  return ctx.db
    .selectFrom('tunnel_connection')
    .where('tunnel_connection.company_id', '=', companyId)
    .where('tunnel_connection.created_at', '>=', w.time_from)
    .where('tunnel_connection.created_at', '<', w.time_end)
    .where('tunnel_connection.op', '=', '');
}

/** A session's seconds, an open one's until `now`. */
function duration(now: number): RawBuilder<number> {
  return sql<number>`coalesce(tunnel_connection.ended_at, ${now}) - tunnel_connection.created_at`;
}

/** YYYY-MM-DD of a day number (days since the epoch, in the caller's offset). */
function dayText(day: number): string {
  return new Date(day * DAY * 1000).toISOString().slice(0, 10);
}

/** Connections and seconds per day of the window, every day present, oldest first. */
export async function connectionNumbers(
  ctx: AppContext,
  companyId: number,
  q: StatisticsRangeQuery,
): Promise<ConnectionDay[]> {
  const now = nowSeconds();
  const shift = q.utc_offset * 60;
  // Integer division on both backends (times are after 1970, so it is the floor); literals,
  // because SQLite is handed a bound JavaScript number as a real and would divide exactly.
  const dayOf = sql<number>`(tunnel_connection.created_at + ${sql.lit(shift)}) / ${sql.lit(DAY)}`;
  const rows = await sessionsIn(ctx, companyId, q)
    .select([
      dayOf.as('day'),
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>(duration(now)).as('seconds'),
    ])
    .groupBy(dayOf)
    .execute();
  const byDay = new Map(
    rows.map((r) => [Number(r.day), { n: Number(r.n), seconds: Number(r.seconds ?? 0) }]),
  );
  const last = Math.floor((q.time_end - 1 + shift) / DAY);
  let first = Math.floor((q.time_from + shift) / DAY);
  // A window that starts in the last hour of one of our days began at the caller's midnight
  // under the other offset of a daylight-saving change (one offset serves the whole window):
  // that hour is the first of the next day, where its sessions count, not a day of its own.
  if (first < last && (first + 1) * DAY - (q.time_from + shift) <= 3600) {
    const hour = byDay.get(first);
    const next = byDay.get(first + 1) ?? { n: 0, seconds: 0 };
    if (hour) byDay.set(first + 1, { n: next.n + hour.n, seconds: next.seconds + hour.seconds });
    first += 1;
  }
  const days: ConnectionDay[] = [];
  for (let day = first; day <= last; day += 1) {
    const r = byDay.get(day);
    days.push({ date: dayText(day), conn_count: r?.n ?? 0, conn_time: r?.seconds ?? 0 });
  }
  return days;
}

export async function overview(
  ctx: AppContext,
  companyId: number,
  q: Window,
): Promise<StatisticsOverview> {
  const r = await sessionsIn(ctx, companyId, q)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>(duration(nowSeconds())).as('seconds'),
      eb.fn.count<number>('tunnel_connection.account_id').distinct().as('accounts'),
      eb.fn.count<number>('tunnel_connection.resource_id').distinct().as('resources'),
    ])
    .executeTakeFirst();
  return {
    conn_count: Number(r?.n ?? 0),
    conn_time: Number(r?.seconds ?? 0),
    accounts: Number(r?.accounts ?? 0),
    resources: Number(r?.resources ?? 0),
  };
}

/** Resource os (linux, win32, mysql, postgresql, mssql) to the reply's names. */
const KIND_OF_OS: Record<string, keyof InstancesSummary> = {
  linux: 'linux',
  win32: 'windows',
  mysql: 'mysql',
  postgresql: 'postgresql',
  mssql: 'sqlserver',
};

export async function instancesSummary(
  ctx: AppContext,
  companyId: number,
): Promise<InstancesSummary> {
  const rows = await ctx.db
    .selectFrom('resource')
    .where('company_id', '=', companyId)
    .select(['os', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('os')
    .execute();
  const summary: InstancesSummary = { linux: 0, windows: 0, mysql: 0, postgresql: 0, sqlserver: 0 };
  for (const r of rows) {
    const kind = KIND_OF_OS[r.os];
    if (kind) summary[kind] += Number(r.n);
  }
  return summary;
}

/** Members by connection time, longest first; a deleted member keeps the name it had. */
export async function topAccounts(
  ctx: AppContext,
  companyId: number,
  q: TopQuery,
): Promise<TopAccount[]> {
  const seconds = sql<number>`sum(${duration(nowSeconds())})`;
  const rows = await sessionsIn(ctx, companyId, q)
    .select([
      'tunnel_connection.account_id',
      (eb) => eb.fn.countAll<number>().as('n'),
      seconds.as('seconds'),
    ])
    .groupBy('tunnel_connection.account_id')
    .orderBy(seconds, 'desc')
    .orderBy('tunnel_connection.account_id')
    .limit(q.limit)
    .execute();
  const ids = rows.map((r) => r.account_id);
  const live = ids.length
    ? await ctx.db
        .selectFrom('account')
        .where('id', 'in', ids)
        .select(['id', 'account', 'name', 'avatar'])
        .execute()
    : [];
  const byId = new Map(live.map((a) => [a.id, a]));
  const former = await formerIdentities(ctx, {
    account: ids.filter((id) => !byId.has(id)),
    resource: [],
    tunnel: [],
  });
  return rows.map((r) => {
    const a = byId.get(r.account_id);
    const gone = former.account.get(r.account_id);
    return {
      account_id: r.account_id,
      account: a?.account ?? gone?.account ?? '',
      name: a?.name ?? gone?.name ?? '',
      avatar: a?.avatar ?? '',
      conn_count: Number(r.n),
      conn_time: Number(r.seconds),
    };
  });
}

/** Resources by connection count, most first; a deleted resource keeps the name it had. */
export async function topResources(
  ctx: AppContext,
  companyId: number,
  q: TopQuery,
): Promise<TopResource[]> {
  const count = sql<number>`count(*)`;
  const rows = await sessionsIn(ctx, companyId, q)
    .where('tunnel_connection.resource_id', 'is not', null)
    .select([
      'tunnel_connection.resource_id',
      count.as('n'),
      (eb) => eb.fn.sum<number>(duration(nowSeconds())).as('seconds'),
    ])
    .groupBy('tunnel_connection.resource_id')
    .orderBy(count, 'desc')
    .orderBy('tunnel_connection.resource_id')
    .limit(q.limit)
    .execute();
  const ids = rows.flatMap((r) => (r.resource_id === null ? [] : [r.resource_id]));
  const live = ids.length
    ? await ctx.db.selectFrom('resource').where('id', 'in', ids).select(['id', 'name']).execute()
    : [];
  const byId = new Map(live.map((r) => [r.id, r.name]));
  const former = await formerIdentities(ctx, {
    account: [],
    resource: ids.filter((id) => !byId.has(id)),
    tunnel: [],
  });
  return rows.flatMap((r) =>
    r.resource_id === null
      ? []
      : [
          {
            id: r.resource_id,
            name: byId.get(r.resource_id) ?? former.resource.get(r.resource_id)?.name ?? '',
            conn_count: Number(r.n),
            conn_time: Number(r.seconds),
          },
        ],
  );
}
