import { countRows, pageOf, paged } from '../../lib/paging';
import type { FastifyInstance } from 'fastify';
import { DATABASE_OS, INSTANCE_OS, resourceRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { containsText } from '../../lib/sql';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { teamCluster } from '../clusters/service';
import {
  createResource,
  deleteResources,
  loginsOf,
  resourceById,
  resourceReply,
  updateResource,
} from './service';
import { importResources, importTemplate } from './spreadsheet';
import { databaseSecurity, updateDatabaseSecurity } from './security';
import { connectionTestStatus, scanStatus, startConnectionTest, startScan } from './tasks';

export function registerResourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, resourceRoutes.listResources, async ({ params, query, request }) => {
    const auth = requireAuth(request);
    const network = await teamCluster(ctx, auth, params.id);
    let base = ctx.db.selectFrom('resource').where('network_id', '=', network.id);
    if (query.type)
      base = base.where('os', 'in', query.type === 'rds' ? [...DATABASE_OS] : [...INSTANCE_OS]);
    if (query.q_os) base = base.where('os', '=', query.q_os);
    if (query.q_name) base = base.where(containsText(['name', 'ip_address'], query.q_name));
    const total = await countRows(base);
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .$call((qb) => pageOf(qb, query))
      .execute();
    const logins = await loginsOf(
      ctx,
      rows.map((r) => r.id),
    );
    return paged(
      rows.map((r) => resourceReply(r, logins.get(r.id) ?? [])),
      total,
      query,
    );
  });
  registerRoute(app, resourceRoutes.createResource, ({ body, request }) =>
    createResource(ctx, requireAuth(request), body),
  );
  registerRoute(app, resourceRoutes.getResource, ({ params, request }) =>
    resourceById(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, resourceRoutes.updateResource, ({ params, body, request }) =>
    updateResource(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, resourceRoutes.deleteResource, async ({ params, request }) => {
    await deleteResources(ctx, requireAuth(request), [params.id]);
    return { ok: true as const };
  });
  registerRoute(app, resourceRoutes.batchDeleteResources, async ({ params, request }) => {
    await deleteResources(ctx, requireAuth(request), params.ids.split(',').map(Number));
    return { ok: true as const };
  });
  registerRoute(app, resourceRoutes.databaseSecurity, ({ params, request }) =>
    databaseSecurity(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, resourceRoutes.updateDatabaseSecurity, ({ params, body, request }) =>
    updateDatabaseSecurity(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, resourceRoutes.batchImport, ({ body, request }) =>
    importResources(ctx, requireAuth(request), body),
  );
  registerRoute(app, resourceRoutes.importTemplate, async ({ query, reply }) => {
    const file = await importTemplate(query.type, query.language);
    const name = `portcullis-${query.type}-template-${query.language}.xlsx`;
    return reply
      .header('content-disposition', `attachment; filename="${name}"`)
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(file);
  });
  registerRoute(app, resourceRoutes.connectionTest, async ({ body, request }) => ({
    task_id: await startConnectionTest(ctx, requireAuth(request), body.resource_id, body.username),
  }));
  registerRoute(app, resourceRoutes.connectionTestStatus, ({ query, request }) =>
    connectionTestStatus(ctx, requireAuth(request), query.task_id),
  );
  registerRoute(app, resourceRoutes.scanStart, async ({ body, request }) => ({
    task_id: await startScan(ctx, requireAuth(request), body),
  }));
  registerRoute(app, resourceRoutes.scanStatus, ({ query, request }) =>
    scanStatus(ctx, requireAuth(request), query.task_id, query.hide_duplicate === 1),
  );
}
