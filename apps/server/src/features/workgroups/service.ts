/**
 * Workgroups themselves: the list both pages show, create, rename, delete (never a cluster's
 * default workgroup), and the caller's star. Every act writes its workgroup event.
 */
import { NO_NETWORK, type Workgroup } from '@portcullis/contract';
import type { z } from 'zod';
import type { WorkgroupListQuerySchema } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { countRows, pageOf, paged, type Paged } from '../../lib/paging';
import { containsText } from '../../lib/sql';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { writeEvent } from '../events/writer';
import {
  findVisibleProject,
  memberOfProject,
  reachableResource,
  seesAllWorkgroups,
  visibleProjects,
  type ProjectRow,
} from './access';
import { syncDefaultWorkgroups } from './defaults';
import { rememberFormer } from '../action-logs/former-identities';
import { cutRevokedSessions } from '../sessions/revoke-sessions';

type ListQuery = z.output<typeof WorkgroupListQuerySchema>;

function countBy(rows: { project_id: number; n: number | string | bigint }[]): Map<number, number> {
  return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
}

/** The reply rows for some workgroups, with their counts and the caller's star and role. */
export async function workgroupReplies(
  ctx: AppContext,
  auth: AuthContext,
  projects: ProjectRow[],
): Promise<Workgroup[]> {
  const ids = projects.map((p) => p.id);
  if (ids.length === 0) return [];
  const [resources, members, groups, stars, roles] = await Promise.all([
    ctx.db
      .selectFrom('project_resource')
      .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
      .select(['project_resource.project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_resource.project_id', 'in', ids)
      .where(reachableResource(auth.company.id))
      .groupBy('project_resource.project_id')
      .execute()
      .then(countBy),
    ctx.db
      .selectFrom('project_member')
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', ids)
      .groupBy('project_id')
      .execute()
      .then(countBy),
    ctx.db
      .selectFrom('project_group')
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', ids)
      .groupBy('project_id')
      .execute()
      .then(countBy),
    ctx.db
      .selectFrom('project_favourite')
      .select('project_id')
      .where('project_id', 'in', ids)
      .where('account_id', '=', auth.account.id)
      .execute(),
    ctx.db
      .selectFrom('project_member')
      .select(['project_id', 'role'])
      .where('project_id', 'in', ids)
      .where('account_id', '=', auth.account.id)
      .execute(),
  ]);
  const starred = new Set(stars.map((s) => s.project_id));
  const myRoles = new Map(roles.map((r) => [r.project_id, r.role === 1 ? 1 : 0] as const));
  return projects.map((p) => {
    const myRole = myRoles.get(p.id) ?? null;
    return {
      id: p.id,
      name: p.name,
      project_name: p.name,
      desc: p.description,
      network_id: p.network_id ?? NO_NETWORK,
      is_default: p.network_id !== null,
      resource_count: resources.get(p.id) ?? 0,
      account_count: members.get(p.id) ?? 0,
      group_count: groups.get(p.id) ?? 0,
      favourite: starred.has(p.id) ? 1 : 0,
      my_role: myRole,
      can_manage: seesAllWorkgroups(auth) || myRole === 1,
      create_time: p.created_at,
    };
  });
}

export async function workgroupById(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<Workgroup> {
  const row = await findVisibleProject(ctx, auth, id);
  const [reply] = await workgroupReplies(ctx, auth, [row]);
  if (!reply) throw new AppError('ProjectNotFound');
  return reply;
}

export async function listWorkgroups(
  ctx: AppContext,
  auth: AuthContext,
  query: ListQuery,
): Promise<Paged<Workgroup>> {
  await syncDefaultWorkgroups(ctx, auth.company.id);
  let base = visibleProjects(ctx, auth);
  if (query.q_name) base = base.where(containsText(['project.name'], query.q_name));
  if (query.q_ip) {
    const text = query.q_ip;
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('project_resource')
          .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
          .select('project_resource.id')
          .whereRef('project_resource.project_id', '=', 'project.id')
          .where(reachableResource(auth.company.id))
          .where(containsText(['resource.ip_address'], text)),
      ),
    );
  }
  if (query.q_favourite === 1) {
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('project_favourite')
          .select('project_favourite.project_id')
          .whereRef('project_favourite.project_id', '=', 'project.id')
          .where('project_favourite.account_id', '=', auth.account.id),
      ),
    );
  }
  // Another member's workgroups are an administrator's question only.
  if (query.account_id !== undefined && seesAllWorkgroups(auth))
    base = base.where(memberOfProject(query.account_id));
  const total = await countRows(base);
  const rows = await base
    .selectAll('project')
    .orderBy('project.created_at', 'desc')
    .orderBy('project.id', 'desc')
    .$call((qb) => pageOf(qb, query))
    .execute();
  return paged(await workgroupReplies(ctx, auth, rows), total, query);
}

async function assertNameFree(
  ctx: AppContext,
  companyId: number,
  name: string,
  exceptId?: number,
): Promise<void> {
  let q = ctx.db
    .selectFrom('project')
    .select('id')
    .where('company_id', '=', companyId)
    .where('name_key', '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw new AppError('ProjectNameExist');
}

function nameClash(error: unknown): never {
  if (/unique|duplicate/i.test(String((error as Error).message)))
    throw new AppError('ProjectNameExist');
  throw error;
}

export async function createWorkgroup(
  ctx: AppContext,
  auth: AuthContext,
  body: { name: string; desc: string },
): Promise<Workgroup> {
  await assertNameFree(ctx, auth.company.id, body.name);
  const row = await ctx.db
    .insertInto('project')
    .values({
      company_id: auth.company.id,
      name: body.name,
      name_key: body.name.toLowerCase(),
      description: body.desc,
      network_id: null,
      created_at: nowSeconds(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(nameClash);
  await writeEvent(ctx, auth, 'project', 'createProject', { project_name: row.name });
  return workgroupById(ctx, auth, row.id);
}

export async function updateWorkgroup(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  body: { name?: string | undefined; desc?: string | undefined },
): Promise<Workgroup> {
  const row = await findVisibleProject(ctx, auth, id);
  if (body.name !== undefined) await assertNameFree(ctx, auth.company.id, body.name, row.id);
  await ctx.db
    .updateTable('project')
    .set({
      ...(body.name !== undefined && { name: body.name, name_key: body.name.toLowerCase() }),
      ...(body.desc !== undefined && { description: body.desc }),
    })
    .where('id', '=', row.id)
    .execute()
    .catch(nameClash);
  await writeEvent(ctx, auth, 'project', 'updateProject', {
    project_name: body.name ?? row.name,
  });
  return workgroupById(ctx, auth, row.id);
}

export async function deleteWorkgroup(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const row = await findVisibleProject(ctx, auth, id);
  if (row.network_id !== null) throw new AppError('DefaultProjectCannotDelete');
  // Members, groups, resources, stars and codes go with it (cascade); the sessions open with
  // those codes end. The action log and the alarm log keep naming it and those codes.
  await ctx.db.transaction().execute(async (trx) => {
    await rememberFormer(ctx, trx, { projects: [row.id] });
    await trx.deleteFrom('project').where('id', '=', row.id).execute();
  });
  await cutRevokedSessions(ctx);
  await writeEvent(ctx, auth, 'project', 'deleteProject', { project_name: row.name });
}

export async function setFavourite(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  favourite: 0 | 1,
): Promise<Workgroup> {
  const row = await findVisibleProject(ctx, auth, id);
  if (favourite === 1) {
    await ctx.db
      .insertInto('project_favourite')
      .values({ project_id: row.id, account_id: auth.account.id, created_at: nowSeconds() })
      .onConflict((oc) => oc.columns(['account_id', 'project_id']).doNothing())
      .execute();
  } else {
    await ctx.db
      .deleteFrom('project_favourite')
      .where('project_id', '=', row.id)
      .where('account_id', '=', auth.account.id)
      .execute();
  }
  return workgroupById(ctx, auth, row.id);
}

/** How many workgroups a team has (the dashboard's counter). */
export async function countWorkgroups(ctx: AppContext, companyId: number): Promise<number> {
  await syncDefaultWorkgroups(ctx, companyId);
  return countRows(ctx.db.selectFrom('project').where('company_id', '=', companyId));
}
