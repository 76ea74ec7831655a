import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logRoutes, type LogQuery, type LogType } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { EXPORT_MAX_ROWS, toCsv } from './export';
import { countOf, eventLogQuery, loginLogQuery } from './queries';
import { toRow } from './rows';

type EventType = Exclude<LogType, 'login'>;

async function eventPage(
  ctx: AppContext,
  companyId: number,
  type: EventType,
  q: LogQuery,
  limit: number,
  offset: number,
) {
  const base = eventLogQuery(ctx, companyId, type, q);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: await countOf(base) };
}

async function loginPage(
  ctx: AppContext,
  companyId: number,
  q: LogQuery,
  limit: number,
  offset: number,
) {
  const base = loginLogQuery(ctx, companyId, q);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: await countOf(base) };
}

export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const offset = (q: LogQuery) => (q.page_index - 1) * q.page_size;

  registerRoute(app, logRoutes.loginLogs, async ({ query, request }) => {
    const companyId = requireAuth(request).company.id;
    const { rows, total } = await loginPage(ctx, companyId, query, query.page_size, offset(query));
    return { objects: rows.map(toRow.login), num_results: total };
  });

  /** One handler per event log; they differ only in the log type and its row shape. */
  const eventList =
    <T extends EventType>(type: T) =>
    async ({ query, request }: { query: LogQuery; request: FastifyRequest }) => {
      const companyId = requireAuth(request).company.id;
      const page = await eventPage(ctx, companyId, type, query, query.page_size, offset(query));
      const toWire = toRow[type] as (
        r: (typeof page.rows)[number],
      ) => ReturnType<(typeof toRow)[T]>;
      return { objects: page.rows.map(toWire), num_results: page.total };
    };
  registerRoute(app, logRoutes.teamLogs, eventList('team'));
  registerRoute(app, logRoutes.clusterLogs, eventList('cluster'));
  registerRoute(app, logRoutes.projectLogs, eventList('project'));
  registerRoute(app, logRoutes.alarmLogs, eventList('alarm'));

  registerRoute(app, logRoutes.alarmDetail, async ({ body, request }) => {
    const auth = requireAuth(request);
    const row = await ctx.db
      .selectFrom('event_log')
      .selectAll()
      .where('id', '=', body.id)
      .where('company_id', '=', auth.company.id)
      .where('log_type', '=', 'alarm')
      .executeTakeFirst();
    if (!row) throw new AppError('NoteNotFound');
    return toRow.alarm(row);
  });

  registerRoute(app, logRoutes.exportLogs, async ({ query, request, reply }) => {
    const companyId = requireAuth(request).company.id;
    const type = query.log_type;
    const { rows, total }: { rows: Record<string, unknown>[]; total: number } =
      type === 'login'
        ? await loginPage(ctx, companyId, query, EXPORT_MAX_ROWS, 0).then((p) => ({
            rows: p.rows.map(toRow.login),
            total: p.total,
          }))
        : await eventPage(ctx, companyId, type, query, EXPORT_MAX_ROWS, 0).then((p) => ({
            rows: p.rows.map((r) => toRow[type](r)),
            total: p.total,
          }));
    // Rows written between the read and the count can make the rows outnumber it.
    const matched = Math.max(total, rows.length);
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    return reply
      .header('content-disposition', `attachment; filename="${type}-logs-${date}.csv"`)
      .header('cache-control', 'no-store')
      .header('x-total-count', String(matched))
      .type('text/csv; charset=utf-8')
      .send(toCsv(type, rows, matched));
  });
}
