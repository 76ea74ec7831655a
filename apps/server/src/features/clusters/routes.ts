import type { FastifyInstance } from 'fastify';
import { clusterRoutes, needsUpdate } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { containsText } from '../../lib/sql';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { PUBLISHED_GATEWAY_VERSION } from './gateway-version';
import {
  agentScripts,
  clusterById,
  clusterReply,
  createCluster,
  deleteCluster,
  liveAgents,
  resourceCounts,
  teamCluster,
  updateCluster,
} from './service';

export function registerClusterRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, clusterRoutes.listClusters, async ({ query, request }) => {
    const auth = requireAuth(request);
    let base = ctx.db.selectFrom('network').where('company_id', '=', auth.company.id);
    if (query.q_name) base = base.where(containsText(['name'], query.q_name));
    const total = Number(
      (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0,
    );
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size)
      .execute();
    const agents = await liveAgents(
      ctx,
      rows.map((r) => r.id),
    );
    return {
      objects: rows.map((r) => clusterReply(r, agents.get(r.id) ?? [], 0)),
      num_results: total,
      total_pages: Math.ceil(total / query.page_size),
      page: query.page,
    };
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
    await deleteCluster(ctx, requireAuth(request), params.id);
    return { ok: true as const };
  });
  registerRoute(app, clusterRoutes.agentScripts, async ({ params, request, reply }) => {
    reply.header('cache-control', 'no-store');
    return agentScripts(ctx, await teamCluster(ctx, requireAuth(request), params.id));
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
}
