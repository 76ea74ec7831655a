/**
 * GET /search_tunnel (spec 1 §7 Logs): the action log page by page, or with export=true the
 * whole match as an xlsx file: up to ACTION_LOG_EXPORT_MAX of the newest entries, a note at the
 * end of the sheet when more matched, and the whole match's count in `X-Total-Count`.
 */
import type { FastifyInstance } from 'fastify';
import { ACTION_LOG_EXPORT_MAX, actionLogRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { actionLogWorkbook } from './export';
import { searchActionLog } from './service';

export function registerActionLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, actionLogRoutes.searchTunnel, async ({ query, request, reply }) => {
    const auth = requireAuth(request);
    if (!query.export) {
      const window = { limit: query.page_size, offset: (query.page_index - 1) * query.page_size };
      return searchActionLog(ctx, auth, query, window);
    }
    const { total, data } = await searchActionLog(ctx, auth, query, {
      limit: ACTION_LOG_EXPORT_MAX,
      offset: 0,
    });
    // Sessions that start between the count and the read can make the rows outnumber it.
    const matched = Math.max(total, data.length);
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    return reply
      .header('content-disposition', `attachment; filename="action-log-${date}.xlsx"`)
      .header('cache-control', 'no-store')
      .header('x-total-count', String(matched))
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(await actionLogWorkbook(data, matched));
  });
}
