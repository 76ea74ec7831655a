/**
 * GET /resource/all_name (spec 1 §7 Logs): the names behind the action log's resource-name
 * filter. The team's log readers get all the team's resources; an ordinary member the
 * resources of their own sessions (see the contract's resource-names.ts). Deleted resources
 * are listed by the names they had.
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
  const own = ctx.db
    .selectFrom('tunnel_connection')
    .select('tunnel_connection.resource_id')
    .where('tunnel_connection.company_id', '=', auth.company.id)
    .where('tunnel_connection.account_id', '=', auth.account.id);
  const ordinary = auth.account.is_admin === Role.Ordinary;
  let live = ctx.db
    .selectFrom('resource')
    .select(['resource.id', 'resource.name'])
    .where('resource.company_id', '=', auth.company.id);
  if (ordinary) live = live.where('resource.id', 'in', own);
  // Deleted resources too (migration 019): their sessions are still in the log, and the
  // resource filter (by id) still finds them.
  let former = ctx.db
    .selectFrom('former_identity')
    .select(['former_identity.id', 'former_identity.name'])
    .where('former_identity.kind', '=', 'resource')
    .where('former_identity.company_id', '=', auth.company.id);
  if (ordinary) former = former.where('former_identity.id', 'in', own);
  return live.unionAll(former).orderBy('name').orderBy('id').execute();
}

export function registerResourceNameRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, resourceNameRoutes.resourceNames, ({ request }) =>
    listResourceNames(ctx, requireAuth(request)),
  );
}
