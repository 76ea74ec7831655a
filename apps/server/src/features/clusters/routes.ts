import { countRows, pageOf, paged } from '../../lib/paging';
import type { FastifyInstance } from 'fastify';
import { clusterRoutes, clusterSettingRoutes, needsUpdate } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { containsText } from '../../lib/sql';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { PUBLISHED_GATEWAY_VERSION } from './gateway-version';
import { exportClusterResources } from './export';
import {
  addIntercepts,
  cancelShare,
  createLogFilter,
  deleteIntercepts,
  deleteLogFilters,
  listIntercepts,
  listLogFilters,
  listShares,
  returnSharedCluster,
  safeMode,
  shareCluster,
  updateSafeMode,
} from './settings';
import {
  agentScripts,
  clusterById,
  clusterReply,
  createCluster,
  deleteCluster,
  liveAgents,
  ownerOf,
  resourceCounts,
  teamCluster,
  updateCluster,
  visibleCluster,
} from './service';

export function registerClusterRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, clusterRoutes.listClusters, async ({ query, request }) => {
    const auth = requireAuth(request);
    // Own clusters and the ones other teams shared with this team.
    let base = ctx.db
      .selectFrom('network')
      .where((eb) =>
        eb.or([
          eb('company_id', '=', auth.company.id),
          eb(
            'id',
            'in',
            eb
              .selectFrom('network_share')
              .select('network_id')
              .where('company_id', '=', auth.company.id),
          ),
        ]),
      );
    if (query.q_name) base = base.where(containsText(['name'], query.q_name));
    const total = await countRows(base);
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .$call((qb) => pageOf(qb, query))
      .execute();
    const ids = rows.map((r) => r.id);
    const agents = await liveAgents(ctx, ids);
    const counts = await resourceCounts(ctx, ids);
    const owners = await Promise.all(rows.map((r) => ownerOf(ctx, auth, r)));
    return paged(
      rows.map((r, i) =>
        clusterReply(r, agents.get(r.id) ?? [], counts.get(r.id) ?? 0, owners[i] ?? null),
      ),
      total,
      query,
    );
  });

  registerRoute(app, clusterRoutes.createCluster, ({ body, request }) =>
    createCluster(ctx, requireAuth(request), body.name),
  );
  registerRoute(app, clusterRoutes.getCluster, ({ params, request }) =>
    clusterById(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, clusterRoutes.updateCluster, ({ params, body, request }) =>
    updateCluster(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, clusterRoutes.deleteCluster, async ({ params, request }) => {
    const auth = requireAuth(request);
    // For a team the cluster was shared with, deleting it means returning it.
    const { shared } = await visibleCluster(ctx, auth, params.id);
    if (shared) await returnSharedCluster(ctx, auth, params.id);
    else await deleteCluster(ctx, auth, params.id);
    return { ok: true as const };
  });
  registerRoute(app, clusterRoutes.agentScripts, async ({ params, request, reply }) => {
    reply.header('cache-control', 'no-store');
    return agentScripts(ctx, await teamCluster(ctx, requireAuth(request), params.id));
  });
  registerRoute(app, clusterRoutes.allClusters, async ({ request }) => {
    const auth = requireAuth(request);
    const rows = await ctx.db
      .selectFrom('network')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('company_id', '=', auth.company.id),
          eb(
            'id',
            'in',
            eb
              .selectFrom('network_share')
              .select('network_id')
              .where('company_id', '=', auth.company.id),
          ),
        ]),
      )
      .orderBy('name')
      .execute();
    const agents = await liveAgents(
      ctx,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      agent_status: (agents.get(r.id)?.length ?? 0) > 0 ? 1 : 0,
      shared: r.company_id !== auth.company.id,
    }));
  });
  registerRoute(app, clusterRoutes.exportCluster, async ({ params, request, reply }) => {
    const network = await teamCluster(ctx, requireAuth(request), params.id);
    const file = await exportClusterResources(ctx, network.id);
    return reply
      .header('content-disposition', `attachment; filename="cluster-${network.id}-resources.xlsx"`)
      .header('cache-control', 'no-store')
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(file);
  });
  registerRoute(app, clusterRoutes.checkUpdate, async ({ request }) => {
    const auth = requireAuth(request);
    const rows = await ctx.db
      .selectFrom('network')
      .select(['id', 'name'])
      .where('company_id', '=', auth.company.id)
      .execute();
    const agents = await liveAgents(
      ctx,
      rows.map((r) => r.id),
    );
    return {
      latest_version: PUBLISHED_GATEWAY_VERSION,
      clusters: rows.map((r) => {
        const version = agents.get(r.id)?.[0]?.version ?? '';
        return {
          id: r.id,
          name: r.name,
          agent_version: version,
          need_update: needsUpdate(version, PUBLISHED_GATEWAY_VERSION),
        };
      }),
    };
  });

  const idList = (text: string) => text.split(',').map(Number);
  registerRoute(app, clusterSettingRoutes.listShares, ({ params, request }) =>
    listShares(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, clusterSettingRoutes.changeShares, ({ params, body, request }) => {
    const auth = requireAuth(request);
    return body.action === 'add'
      ? shareCluster(ctx, auth, params.id, body.domain)
      : cancelShare(ctx, auth, params.id, body.share_id);
  });
  registerRoute(app, clusterSettingRoutes.listLogFilters, ({ params, request }) =>
    listLogFilters(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, clusterSettingRoutes.createLogFilter, ({ body, request }) =>
    createLogFilter(ctx, requireAuth(request), body.network_id, body.condition),
  );
  registerRoute(app, clusterSettingRoutes.deleteLogFilter, async ({ params, request }) => {
    await deleteLogFilters(ctx, requireAuth(request), [params.id]);
    return { ok: true as const };
  });
  registerRoute(app, clusterSettingRoutes.batchDeleteLogFilters, async ({ params, request }) => {
    await deleteLogFilters(ctx, requireAuth(request), idList(params.ids));
    return { ok: true as const };
  });
  registerRoute(app, clusterSettingRoutes.safeMode, ({ params, request }) =>
    safeMode(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, clusterSettingRoutes.updateSafeMode, ({ params, body, request }) =>
    updateSafeMode(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, clusterSettingRoutes.listIntercepts, ({ query, request }) =>
    listIntercepts(ctx, requireAuth(request), query.network_id),
  );
  registerRoute(app, clusterSettingRoutes.addIntercepts, ({ body, request }) =>
    addIntercepts(ctx, requireAuth(request), body),
  );
  registerRoute(app, clusterSettingRoutes.deleteIntercepts, async ({ params, request }) => {
    await deleteIntercepts(ctx, requireAuth(request), idList(params.ids), 'intercept');
    return { ok: true as const };
  });
  registerRoute(app, clusterSettingRoutes.deleteNotices, async ({ params, request }) => {
    await deleteIntercepts(ctx, requireAuth(request), idList(params.ids), 'notice');
    return { ok: true as const };
  });
}
