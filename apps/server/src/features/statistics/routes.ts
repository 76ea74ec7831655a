import type { FastifyInstance } from 'fastify';
import { statisticsRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import {
  connectionNumbers,
  instancesSummary,
  overview,
  topAccounts,
  topResources,
} from './service';

/** The dashboard's statistics; the team is always the caller's. */
export function registerStatisticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const team = (request: Parameters<typeof requireAuth>[0]): number =>
    requireAuth(request).company.id;
  registerRoute(app, statisticsRoutes.connectionNumbers, async ({ query, request }) => ({
    items: await connectionNumbers(ctx, team(request), query),
  }));
  registerRoute(app, statisticsRoutes.overview, ({ query, request }) =>
    overview(ctx, team(request), query),
  );
  registerRoute(app, statisticsRoutes.instancesSummary, ({ request }) =>
    instancesSummary(ctx, team(request)),
  );
  registerRoute(app, statisticsRoutes.topAccounts, async ({ query, request }) => ({
    items: await topAccounts(ctx, team(request), query),
  }));
  registerRoute(app, statisticsRoutes.topResources, async ({ query, request }) => ({
    items: await topResources(ctx, team(request), query),
  }));
}
