/**
 * Groups that hold a workgroup (spec 2 §2 groups tab, View group members, §7): every member of
 * such a group sees the workgroup. Taking a group away disables the codes its members thereby
 * lose. Team administrators (1, 3) only.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { countRows, pageOf, paged, type PageWindow } from '../../lib/paging';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { writeEvent } from '../events/writer';
import { findVisibleProject } from './access';
import { uniqueFailure } from './members';
import { disableLostCodes } from './revoke';

export async function listGroups(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  window: PageWindow,
) {
  const project = await findVisibleProject(ctx, auth, projectId);
  const base = ctx.db
    .selectFrom('project_group')
    .innerJoin('team_group', 'team_group.id', 'project_group.group_id')
    .where('project_group.project_id', '=', project.id);
  const total = await countRows(base);
  const rows = await base
    .select([
      'team_group.id',
      'team_group.name',
      'team_group.note',
      'project_group.created_at',
      (eb) =>
        eb
          .selectFrom('group_member')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('group_member.group_id', '=', 'team_group.id')
          .as('member_count'),
    ])
    .orderBy('project_group.created_at', 'desc')
    .orderBy('team_group.id', 'desc')
    .$call((qb) => pageOf(qb, window))
    .execute();
  return paged(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      note: r.note,
      member_count: Number(r.member_count ?? 0),
      create_time: r.created_at,
    })),
    total,
    window,
  );
}

export async function addGroups(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  groupIds: number[],
): Promise<void> {
  const project = await findVisibleProject(ctx, auth, projectId);
  const ids = [...new Set(groupIds)];
  const groups = await ctx.db
    .selectFrom('team_group')
    .select(['id', 'name'])
    .where('company_id', '=', auth.company.id)
    .where('id', 'in', ids)
    .execute();
  if (groups.length !== ids.length) throw new AppError('GroupNotFound');
  const existing = await ctx.db
    .selectFrom('project_group')
    .select('group_id')
    .where('project_id', '=', project.id)
    .where('group_id', 'in', ids)
    .executeTakeFirst();
  if (existing) throw new AppError('ProjectGroupExist');
  const now = nowSeconds();
  await ctx.db
    .insertInto('project_group')
    .values(ids.map((id) => ({ project_id: project.id, group_id: id, created_at: now })))
    .execute()
    .catch(uniqueFailure('ProjectGroupExist'));
  for (const g of groups)
    await writeEvent(ctx, auth, 'project', 'addProjectGroup', {
      project_name: project.name,
      group: g.name,
    });
}

/** A group that holds the workgroup; ProjectGroupNotFound otherwise. */
async function projectGroups(ctx: AppContext, projectId: number, groupIds: number[]) {
  const ids = [...new Set(groupIds)];
  const rows = await ctx.db
    .selectFrom('project_group')
    .innerJoin('team_group', 'team_group.id', 'project_group.group_id')
    .select(['team_group.id', 'team_group.name'])
    .where('project_group.project_id', '=', projectId)
    .where('project_group.group_id', 'in', ids)
    .execute();
  if (rows.length !== ids.length) throw new AppError('ProjectGroupNotFound');
  return rows;
}

export async function removeGroups(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  groupIds: number[],
): Promise<void> {
  const project = await findVisibleProject(ctx, auth, projectId);
  const groups = await projectGroups(ctx, project.id, groupIds);
  await ctx.db
    .deleteFrom('project_group')
    .where('project_id', '=', project.id)
    .where(
      'group_id',
      'in',
      groups.map((g) => g.id),
    )
    .execute();
  await disableLostCodes(ctx, [project.id]);
  for (const g of groups)
    await writeEvent(ctx, auth, 'project', 'deleteProjectGroup', {
      project_name: project.name,
      group: g.name,
    });
}

export async function groupMembers(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  groupId: number,
  window: PageWindow,
) {
  const project = await findVisibleProject(ctx, auth, projectId);
  const [group] = await projectGroups(ctx, project.id, [groupId]);
  if (!group) throw new AppError('ProjectGroupNotFound');
  const base = ctx.db
    .selectFrom('group_member')
    .innerJoin('account', 'account.id', 'group_member.account_id')
    .where('group_member.group_id', '=', group.id);
  const total = await countRows(base);
  const rows = await base
    .select(['account.id', 'account.name', 'account.account', 'account.avatar'])
    .orderBy('account.name')
    .orderBy('account.id')
    .$call((qb) => pageOf(qb, window))
    .execute();
  return paged(rows, total, window);
}
