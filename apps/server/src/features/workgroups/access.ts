/**
 * Who sees which workgroup, resource and login user (issue 5, "Who sees what"). Every query of
 * this feature and of codes starts from these, so the rule is written once:
 *
 * - administrators (roles 1 and 3) see every workgroup of their team;
 * - anyone else sees a workgroup only as a member of it, directly or through a group;
 * - a workgroup's resources count only while its team can reach them: a resource of its own
 *   cluster, or of a cluster another team still shares with it;
 * - what the caller may not see answers exactly like what does not exist (the same code).
 */
import { expressionBuilder, type Expression, type Selectable, type SqlBool } from 'kysely';
import { Role } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type {
  Database,
  NetworkTable,
  ProjectResourceTable,
  ProjectTable,
  ResourceTable,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { AuthContext } from '../../plugins/app/auth';
import { syncDefaultWorkgroups } from './defaults';

export type ProjectRow = Selectable<ProjectTable>;
export type ProjectResourceRow = Selectable<ProjectResourceTable>;
export type ResourceRow = Selectable<ResourceTable>;
export type NetworkRow = Selectable<NetworkTable>;

/** Administrators (1) and operations administrators (3) see all of their team's workgroups. */
export function seesAllWorkgroups(auth: AuthContext): boolean {
  return auth.account.is_admin === Role.Admin || auth.account.is_admin === Role.OptAdmin;
}

/** `project` is reached by the account as a direct member or through one of its groups. */
export function memberOfProject(accountId: number): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'project'>();
  return eb.or([
    eb.exists(
      eb
        .selectFrom('project_member')
        .select('project_member.project_id')
        .whereRef('project_member.project_id', '=', 'project.id')
        .where('project_member.account_id', '=', accountId),
    ),
    eb.exists(
      eb
        .selectFrom('project_group')
        .innerJoin('group_member', 'group_member.group_id', 'project_group.group_id')
        .select('project_group.project_id')
        .whereRef('project_group.project_id', '=', 'project.id')
        .where('group_member.account_id', '=', accountId),
    ),
  ]);
}

/** `resource` belongs to the team or to a cluster shared with it. */
export function reachableResource(companyId: number): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'resource'>();
  return eb.or([
    eb('resource.company_id', '=', companyId),
    eb(
      'resource.network_id',
      'in',
      eb
        .selectFrom('network_share')
        .select('network_share.network_id')
        .where('network_share.company_id', '=', companyId),
    ),
  ]);
}

/** The workgroups the caller sees, as a query on `project` to filter further. */
export function visibleProjects(ctx: AppContext, auth: AuthContext) {
  const base = ctx.db.selectFrom('project').where('project.company_id', '=', auth.company.id);
  return seesAllWorkgroups(auth) ? base : base.where(memberOfProject(auth.account.id));
}

/** A workgroup the caller sees; ProjectNotFound otherwise. */
export async function findVisibleProject(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<ProjectRow> {
  await syncDefaultWorkgroups(ctx, auth.company.id);
  const row = await visibleProjects(ctx, auth)
    .selectAll('project')
    .where('project.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('ProjectNotFound');
  return row;
}

/** The account's direct role in the workgroup (1 administrator, 0 ordinary), or null. */
export async function directRole(
  ctx: AppContext,
  projectId: number,
  accountId: number,
): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('project_member')
    .select('role')
    .where('project_id', '=', projectId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? row.role : null;
}

/** The caller may manage the workgroup's members and every code on its resources. */
export async function canManageProject(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
): Promise<boolean> {
  return seesAllWorkgroups(auth) || (await directRole(ctx, projectId, auth.account.id)) === 1;
}

/**
 * A workgroup whose members the caller manages: administrators any of their team's, anyone
 * else only as its workgroup administrator. A member who sees it without that right is refused
 * (they know it exists); anyone else finds nothing.
 */
export async function manageableProject(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<ProjectRow> {
  const row = await findVisibleProject(ctx, auth, id);
  if (!(await canManageProject(ctx, auth, row.id))) throw new AppError('NeedPrivilege');
  return row;
}

export interface VisibleProjectResource {
  projectResource: ProjectResourceRow;
  project: ProjectRow;
  resource: ResourceRow;
  network: NetworkRow;
}

/** A resource of a workgroup the caller sees; ProjectResourceNotFound otherwise. */
export async function findVisibleProjectResource(
  ctx: AppContext,
  auth: AuthContext,
  projectResourceId: number,
): Promise<VisibleProjectResource> {
  const link = await ctx.db
    .selectFrom('project_resource')
    .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
    .selectAll('project_resource')
    .where('project_resource.id', '=', projectResourceId)
    .where(reachableResource(auth.company.id))
    .executeTakeFirst();
  const project = link
    ? await visibleProjects(ctx, auth)
        .selectAll('project')
        .where('project.id', '=', link.project_id)
        .executeTakeFirst()
    : undefined;
  if (!link || !project) throw new AppError('ProjectResourceNotFound');
  const resource = await ctx.db
    .selectFrom('resource')
    .selectAll()
    .where('id', '=', link.resource_id)
    .executeTakeFirstOrThrow();
  const network = await ctx.db
    .selectFrom('network')
    .selectAll()
    .where('id', '=', resource.network_id)
    .executeTakeFirstOrThrow();
  return { projectResource: link, project, resource, network };
}
