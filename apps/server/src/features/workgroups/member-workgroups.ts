/**
 * One member's workgroups (the /settings/account/{id} page): the workgroups they reach directly
 * or through groups, and the bulk Distribute (bulk_add_project) and Exit (bulk_delete_project).
 * Team administrators (1, 3) only.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { countRows, pageOf, paged, type PageWindow, type Paged } from '../../lib/paging';
import type { AuthContext } from '../../plugins/app/auth';
import { syncDefaultWorkgroups } from './defaults';
import { deleteMemberships, insertMemberships, teamAccounts, type MemberRole } from './members';

export async function accountWorkgroups(
  ctx: AppContext,
  auth: AuthContext,
  accountId: number,
  window: PageWindow,
): Promise<
  Paged<{
    id: number;
    name: string;
    desc: string;
    network_id: number;
    is_default: boolean;
    role: MemberRole | null;
    groups: string[];
  }>
> {
  const [account] = await teamAccounts(ctx, auth, [accountId]);
  if (!account) throw new AppError('AccountNotFound');
  await syncDefaultWorkgroups(ctx, auth.company.id);
  const viaGroups = ctx.db
    .selectFrom('project_group')
    .innerJoin('group_member', 'group_member.group_id', 'project_group.group_id')
    .select('project_group.project_id')
    .where('group_member.account_id', '=', account.id);
  const base = ctx.db
    .selectFrom('project')
    .where('project.company_id', '=', auth.company.id)
    .where((eb) =>
      eb.or([
        eb(
          'project.id',
          'in',
          eb.selectFrom('project_member').select('project_id').where('account_id', '=', account.id),
        ),
        eb('project.id', 'in', viaGroups),
      ]),
    );
  const total = await countRows(base);
  const projects = await base
    .selectAll('project')
    .orderBy('project.created_at', 'desc')
    .orderBy('project.id', 'desc')
    .$call((qb) => pageOf(qb, window))
    .execute();
  const ids = projects.map((p) => p.id);
  const direct = ids.length
    ? await ctx.db
        .selectFrom('project_member')
        .select(['project_id', 'role'])
        .where('account_id', '=', account.id)
        .where('project_id', 'in', ids)
        .execute()
    : [];
  const groups = ids.length
    ? await ctx.db
        .selectFrom('project_group')
        .innerJoin('group_member', 'group_member.group_id', 'project_group.group_id')
        .innerJoin('team_group', 'team_group.id', 'project_group.group_id')
        .select(['project_group.project_id', 'team_group.name'])
        .where('group_member.account_id', '=', account.id)
        .where('project_group.project_id', 'in', ids)
        .orderBy('team_group.name')
        .execute()
    : [];
  return paged(
    projects.map((p) => {
      const membership = direct.find((d) => d.project_id === p.id);
      return {
        id: p.id,
        name: p.name,
        desc: p.description,
        network_id: p.network_id ?? -1,
        is_default: p.network_id !== null,
        role: membership ? ((membership.role === 1 ? 1 : 0) as MemberRole) : null,
        groups: groups.filter((g) => g.project_id === p.id).map((g) => g.name),
      };
    }),
    total,
    window,
  );
}

/** The caller's team's workgroups with these ids; ProjectNotFound when one is not. */
async function teamProjects(ctx: AppContext, auth: AuthContext, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .selectFrom('project')
    .selectAll()
    .where('company_id', '=', auth.company.id)
    .where('id', 'in', unique)
    .execute();
  if (rows.length !== unique.length) throw new AppError('ProjectNotFound');
  return rows;
}

export async function bulkAdd(
  ctx: AppContext,
  auth: AuthContext,
  accountId: number,
  projectIds: number[],
  role: MemberRole,
): Promise<void> {
  const accounts = await teamAccounts(ctx, auth, [accountId]);
  await insertMemberships(ctx, auth, await teamProjects(ctx, auth, projectIds), accounts, role);
}

export async function bulkDelete(
  ctx: AppContext,
  auth: AuthContext,
  accountId: number,
  projectIds: number[],
): Promise<void> {
  await teamAccounts(ctx, auth, [accountId]);
  await deleteMemberships(ctx, auth, await teamProjects(ctx, auth, projectIds), [accountId]);
}
