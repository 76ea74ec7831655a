/**
 * GET /resource/all_name (spec 1 §7 Logs): the names behind the action log's resource-name
 * filter. The team's log readers get all the team's resources; an ordinary member the
 * resources of their own sessions (see the contract's resource-names.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Role, resourceNameRoutes, type ResourceName } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth, type AuthContext } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';

export async function listResourceNames(
  ctx: AppContext,
  auth: AuthContext,
): Promise<ResourceName[]> {
  let query = ctx.db
    .selectFrom('resource')
    .select(['resource.id', 'resource.name'])
    .where('resource.company_id', '=', auth.company.id);
  if (auth.account.is_admin === Role.Ordinary) {
    const own = ctx.db
      .selectFrom('tunnel_connection')
      .select('tunnel_connection.resource_id')
      .where('tunnel_connection.company_id', '=', auth.company.id)
      .where('tunnel_connection.account_id', '=', auth.account.id);
    query = query.where('resource.id', 'in', own);
  }
  return query.orderBy('resource.name').orderBy('resource.id').execute();
}

export function registerResourceNameRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, resourceNameRoutes.resourceNames, ({ request }) =>
    listResourceNames(ctx, requireAuth(request)),
  );
}
