import type { FastifyInstance } from 'fastify';
import { accountRoutes, connectionRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { countOnline, cutMany, cutOne, listOnline } from './connections-service';
import { startRevokeSweep } from './revoke-sessions';

/** Online connections: the header's count, the list, and cutting; plus the revocation sweep. */
export function registerConnectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, accountRoutes.onlineCount, async ({ request }) => ({
    count: await countOnline(ctx, requireAuth(request)),
  }));
  registerRoute(app, connectionRoutes.listConnections, ({ query, request }) =>
    listOnline(ctx, requireAuth(request), query),
  );
  registerRoute(app, connectionRoutes.cutConnection, async ({ params, request }) => {
    await cutOne(ctx, requireAuth(request), params.id);
    return { ok: true as const };
  });
  registerRoute(app, connectionRoutes.cutConnections, async ({ body, request }) => ({
    ok: true as const,
    cut: await cutMany(ctx, requireAuth(request), body.connection_ids),
  }));
  startRevokeSweep(app, ctx);
}
