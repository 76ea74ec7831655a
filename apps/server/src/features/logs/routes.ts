import type { FastifyInstance } from 'fastify';
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
    const { rows, total } = await loginPage(
      ctx,
      requireAuth(request).company.id,
      query,
      query.page_size,
      offset(query),
    );
    return { objects: rows.map(toRow.login), num_results: total };
  });

  registerRoute(app, logRoutes.teamLogs, async ({ query, request }) => {
    const { rows, total } = await eventPage(
      ctx,
      requireAuth(request).company.id,
      'team',
      query,
      query.page_size,
      offset(query),
    );
    return { objects: rows.map(toRow.team), num_results: total };
  });

  registerRoute(app, logRoutes.clusterLogs, async ({ query, request }) => {
    const { rows, total } = await eventPage(
      ctx,
      requireAuth(request).company.id,
      'cluster',
      query,
      query.page_size,
      offset(query),
    );
    return { objects: rows.map(toRow.cluster), num_results: total };
  });

  registerRoute(app, logRoutes.projectLogs, async ({ query, request }) => {
    const { rows, total } = await eventPage(
      ctx,
      requireAuth(request).company.id,
      'project',
      query,
      query.page_size,
      offset(query),
    );
    return { objects: rows.map(toRow.project), num_results: total };
  });

  registerRoute(app, logRoutes.alarmLogs, async ({ query, request }) => {
    const { rows, total } = await eventPage(
      ctx,
      requireAuth(request).company.id,
      'alarm',
      query,
      query.page_size,
      offset(query),
    );
    return { objects: rows.map(toRow.alarm), num_results: total };
  });

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
    const rows: Record<string, unknown>[] =
      type === 'login'
        ? (await loginPage(ctx, companyId, query, EXPORT_MAX_ROWS, 0)).rows.map(toRow.login)
        : (await eventPage(ctx, companyId, type, query, EXPORT_MAX_ROWS, 0)).rows.map((r) =>
            toRow[type](r),
          );
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    return reply
      .header('content-disposition', `attachment; filename="${type}-logs-${date}.csv"`)
      .header('cache-control', 'no-store')
      .type('text/csv; charset=utf-8')
      .send(toCsv(type, rows));
  });
}
