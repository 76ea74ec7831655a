/**
 * Resources of a workgroup: the list both pages show, the picker of resources to add, adding
 * and removing them (at most 1000 per workgroup; a default workgroup's follow its cluster), the
 * login users a workgroup grants on a server, and a member's default login user.
 */
import {
  DATABASE_OS,
  INSTANCE_OS,
  RESOURCE_TYPES,
  WORKGROUP_MAX_RESOURCES,
  type ProjectResource,
  type ResourceOs,
} from '@portcullis/contract';
import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { z } from 'zod';
import type { ProjectResourceQuerySchema } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import { AppError, invalidParameter } from '../../lib/app-error';
import { countRows, pageOf, paged, type Paged } from '../../lib/paging';
import { containsText } from '../../lib/sql';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { writeEvent } from '../events/writer';
import { loginsOf } from '../resources/service';
import {
  findVisibleProject,
  findVisibleProjectResource,
  reachableResource,
  type ProjectResourceRow,
  type ProjectRow,
} from './access';
import {
  grantedUsernames,
  isDatabaseOs,
  projectResourceReplies,
  resourceUsernames,
  type ProjectResourceJoin,
} from './view';
import { rememberFormer } from '../action-logs/former-identities';
import { cutRevokedSessions } from '../sessions/revoke-sessions';

type ResourceQuery = z.output<typeof ProjectResourceQuerySchema>;

/** The list filters (type, name, address, os) on `resource`; all of them when none is set. */
function resourceFilter(query: ResourceQuery): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'resource'>();
  const parts: Expression<SqlBool>[] = [];
  if (query.type)
    parts.push(eb('resource.os', 'in', query.type === 'rds' ? [...DATABASE_OS] : [...INSTANCE_OS]));
  if (query.q_os) parts.push(eb('resource.os', '=', query.q_os));
  if (query.q_name) parts.push(containsText(['resource.name'], query.q_name));
  if (query.q_ip) parts.push(containsText(['resource.ip_address'], query.q_ip));
  return eb.and(parts);
}

/** Each project resource with its resource and cluster rows. */
export async function joinRows(
  ctx: AppContext,
  links: ProjectResourceRow[],
): Promise<ProjectResourceJoin[]> {
  if (links.length === 0) return [];
  const resources = await ctx.db
    .selectFrom('resource')
    .selectAll()
    .where(
      'id',
      'in',
      links.map((l) => l.resource_id),
    )
    .execute();
  const networks = await ctx.db
    .selectFrom('network')
    .selectAll()
    .where(
      'id',
      'in',
      resources.map((r) => r.network_id),
    )
    .execute();
  return links.flatMap((link) => {
    const resource = resources.find((r) => r.id === link.resource_id);
    const network = resource && networks.find((n) => n.id === resource.network_id);
    return resource && network ? [{ projectResource: link, resource, network }] : [];
  });
}

/** The project resources of a workgroup its team can still reach. */
function workgroupResources(ctx: AppContext, companyId: number, projectId: number) {
  return ctx.db
    .selectFrom('project_resource')
    .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
    .where('project_resource.project_id', '=', projectId)
    .where(reachableResource(companyId));
}

export async function listProjectResources(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  query: ResourceQuery,
): Promise<Paged<ProjectResource>> {
  const project = await findVisibleProject(ctx, auth, projectId);
  const base = workgroupResources(ctx, auth.company.id, project.id).where(resourceFilter(query));
  const total = await countRows(base);
  const links = await base
    .selectAll('project_resource')
    .orderBy('project_resource.created_at', 'desc')
    .orderBy('project_resource.id', 'desc')
    .$call((qb) => pageOf(qb, query))
    .execute();
  return paged(await projectResourceReplies(ctx, auth, await joinRows(ctx, links)), total, query);
}

export async function projectResourceById(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<ProjectResource> {
  const found = await findVisibleProjectResource(ctx, auth, id);
  const [reply] = await projectResourceReplies(ctx, auth, [found]);
  if (!reply) throw new AppError('ProjectResourceNotFound');
  return reply;
}

/** Resources of the team's clusters (own and shared) that the workgroup does not hold. */
export async function listCandidates(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  query: ResourceQuery,
) {
  const project = await findVisibleProject(ctx, auth, projectId);
  const base = ctx.db
    .selectFrom('resource')
    .innerJoin('network', 'network.id', 'resource.network_id')
    .where(reachableResource(auth.company.id))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('project_resource')
            .select('project_resource.id')
            .whereRef('project_resource.resource_id', '=', 'resource.id')
            .where('project_resource.project_id', '=', project.id),
        ),
      ),
    )
    .where(resourceFilter(query));
  const total = await countRows(base);
  const rows = await base
    .select([
      'resource.id',
      'resource.name',
      'resource.ip_address',
      'resource.os',
      'resource.company_id',
      'network.id as network_id',
      'network.name as network_name',
    ])
    .orderBy('resource.created_at', 'desc')
    .orderBy('resource.id', 'desc')
    .$call((qb) => pageOf(qb, query))
    .execute();
  return paged(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      ip: r.ip_address,
      os: r.os,
      resource_type: RESOURCE_TYPES[r.os as ResourceOs],
      network_id: r.network_id,
      network_name: r.network_name,
      shared: r.company_id !== auth.company.id,
    })),
    total,
    query,
  );
}

function assertNotDefault(project: ProjectRow): void {
  if (project.network_id !== null) throw new AppError('DefaultProjectResourcesFixed');
}

export async function addResources(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  resourceIds: number[],
): Promise<void> {
  const project = await findVisibleProject(ctx, auth, projectId);
  assertNotDefault(project);
  const ids = [...new Set(resourceIds)];
  const resources = await ctx.db
    .selectFrom('resource')
    .select(['resource.id', 'resource.name', 'resource.os'])
    .where('resource.id', 'in', ids)
    .where(reachableResource(auth.company.id))
    .execute();
  if (resources.length !== ids.length) throw new AppError('ResourceNotFound');
  const held = await workgroupResources(ctx, auth.company.id, project.id)
    .select('project_resource.resource_id')
    .execute();
  const heldIds = new Set(held.map((h) => h.resource_id));
  const adding = resources.filter((r) => !heldIds.has(r.id));
  if (heldIds.size + adding.length > WORKGROUP_MAX_RESOURCES)
    throw new AppError('ResourceExceeded');
  if (adding.length === 0) return;
  const now = nowSeconds();
  await ctx.db
    .insertInto('project_resource')
    .values(
      adding.map((r) => ({
        project_id: project.id,
        resource_id: r.id,
        login_usernames: null,
        created_at: now,
      })),
    )
    // A resource of a cluster whose share ended may still be linked; it is simply kept.
    .onConflict((oc) => oc.columns(['project_id', 'resource_id']).doNothing())
    .execute();
  for (const r of adding) {
    await writeEvent(ctx, auth, 'project', `add${RESOURCE_TYPES[r.os as ResourceOs]}`, {
      project_name: project.name,
      resource_name: r.name,
    });
  }
}

export async function removeResources(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  resourceIds: number[],
): Promise<void> {
  const project = await findVisibleProject(ctx, auth, projectId);
  assertNotDefault(project);
  const ids = [...new Set(resourceIds)];
  const held = await workgroupResources(ctx, auth.company.id, project.id)
    .select(['project_resource.id', 'resource.name', 'resource.os'])
    .where('project_resource.resource_id', 'in', ids)
    .execute();
  if (held.length !== ids.length) throw new AppError('ProjectResourceNotFound');
  // The workgroup's codes on them go too (cascade): they stop working at once, and the
  // sessions open with them end. The action log keeps showing those codes (masked).
  const links = held.map((h) => h.id);
  await ctx.db.transaction().execute(async (trx) => {
    await rememberFormer(ctx, trx, { projectResources: links });
    await trx.deleteFrom('project_resource').where('id', 'in', links).execute();
  });
  await cutRevokedSessions(ctx);
  for (const r of held) {
    await writeEvent(ctx, auth, 'project', `remove${RESOURCE_TYPES[r.os as ResourceOs]}`, {
      project_name: project.name,
      resource_name: r.name,
    });
  }
}

/** The resource's own login users, and the workgroup's grant of them. */
async function usernamesOf(ctx: AppContext, found: ProjectResourceJoin) {
  const logins = (await loginsOf(ctx, [found.resource.id])).get(found.resource.id) ?? [];
  const all = resourceUsernames(found.resource, logins);
  return { all, granted: grantedUsernames(found.projectResource, all) };
}

export async function setLoginUsernames(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  names: string[],
): Promise<ProjectResource> {
  const found = await findVisibleProjectResource(ctx, auth, id);
  if (isDatabaseOs(found.resource.os)) throw new AppError('InvalidResource');
  const { all } = await usernamesOf(ctx, found);
  if (names.some((n) => !all.includes(n))) throw invalidParameter('login_username');
  const chosen = all.filter((u) => names.includes(u));
  await ctx.db
    .updateTable('project_resource')
    .set({ login_usernames: JSON.stringify(chosen) })
    .where('id', '=', found.projectResource.id)
    .execute();
  await writeEvent(ctx, auth, 'project', 'updateProjectLoginUser', {
    project_name: found.project.name,
    resource_name: found.resource.name,
  });
  return projectResourceById(ctx, auth, found.projectResource.id);
}

export async function setDefaultUsername(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  username: string,
): Promise<ProjectResource> {
  const found = await findVisibleProjectResource(ctx, auth, id);
  // The Config panel is for Linux and Windows servers (spec 1 §2.7).
  if (isDatabaseOs(found.resource.os)) throw new AppError('InvalidResource');
  const { granted } = await usernamesOf(ctx, found);
  if (!granted.includes(username)) throw invalidParameter('default_username');
  await ctx.db
    .insertInto('project_resource_default')
    .values({
      project_resource_id: found.projectResource.id,
      account_id: auth.account.id,
      default_username: username,
    })
    .onConflict((oc) =>
      oc.columns(['project_resource_id', 'account_id']).doUpdateSet({ default_username: username }),
    )
    .execute();
  return projectResourceById(ctx, auth, found.projectResource.id);
}
