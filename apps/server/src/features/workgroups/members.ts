/**
 * A workgroup's direct members, administrator or ordinary (spec 2 §2 members tab, §7). Team
 * administrators (1, 3) manage the members of any workgroup of their team; anyone else only
 * of a workgroup they administer. Used also by the member's page (Distribute and Exit).
 */
import { MEMBER_CANDIDATES_MAX } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { countRows, pageOf, paged, type PageWindow } from '../../lib/paging';
import { containsText } from '../../lib/sql';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { writeEvent } from '../events/writer';
import { manageableProject, type ProjectRow } from './access';
import { disableLostCodes } from './revoke';

export type MemberRole = 0 | 1;

export function uniqueFailure(code: 'ProjectAccountExist' | 'ProjectGroupExist') {
  return (error: unknown): never => {
    if (/unique|duplicate/i.test(String((error as Error).message))) throw new AppError(code);
    throw error;
  };
}

/** Accounts of the caller's team; AccountNotFound when any id is not one. */
export async function teamAccounts(
  ctx: AppContext,
  auth: AuthContext,
  ids: number[],
): Promise<AccountRow[]> {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .selectFrom('account')
    .selectAll()
    .where('company_id', '=', auth.company.id)
    .where('id', 'in', unique)
    .execute();
  if (rows.length !== unique.length) throw new AppError('AccountNotFound');
  return rows;
}

async function memberEvents(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectRow,
  account: string,
  events: string[],
): Promise<void> {
  for (const event of events)
    await writeEvent(ctx, auth, 'project', event, {
      project_name: project.name,
      project_account: account,
    });
}

export async function listMembers(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  query: PageWindow & { key?: string | undefined },
) {
  // Who else is in a workgroup is for those who manage it.
  const project = await manageableProject(ctx, auth, projectId);
  let base = ctx.db
    .selectFrom('project_member')
    .innerJoin('account', 'account.id', 'project_member.account_id')
    .where('project_member.project_id', '=', project.id);
  if (query.key) base = base.where(containsText(['account.name', 'account.account'], query.key));
  const total = await countRows(base);
  const rows = await base
    .select([
      'account.id',
      'account.name',
      'account.account',
      'account.avatar',
      'project_member.role',
      'project_member.created_at',
    ])
    .orderBy('project_member.created_at', 'desc')
    .orderBy('account.id', 'desc')
    .$call((qb) => pageOf(qb, query))
    .execute();
  return paged(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      account: r.account,
      avatar: r.avatar,
      role: (r.role === 1 ? 1 : 0) as MemberRole,
      create_time: r.created_at,
    })),
    total,
    query,
  );
}

/**
 * Team members who are not direct members of the workgroup yet: the Distribute picker of whoever
 * manages it. A workgroup administrator who is an ordinary team member sees the team's names
 * only here, only for a workgroup they administer.
 */
export async function listMemberCandidates(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  key: string | undefined,
) {
  const project = await manageableProject(ctx, auth, projectId);
  let query = ctx.db
    .selectFrom('account')
    .select(['account.id', 'account.name', 'account.account'])
    .where('account.company_id', '=', auth.company.id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('project_member')
            .select('project_member.account_id')
            .whereRef('project_member.account_id', '=', 'account.id')
            .where('project_member.project_id', '=', project.id),
        ),
      ),
    );
  if (key) query = query.where(containsText(['account.name', 'account.account'], key));
  return query.orderBy('account.name').orderBy('account.id').limit(MEMBER_CANDIDATES_MAX).execute();
}

/** Adds accounts to workgroups; ProjectAccountExist (nothing added) when one already is. */
export async function insertMemberships(
  ctx: AppContext,
  auth: AuthContext,
  projects: ProjectRow[],
  accounts: AccountRow[],
  role: MemberRole,
): Promise<void> {
  const existing = await ctx.db
    .selectFrom('project_member')
    .select('project_id')
    .where(
      'project_id',
      'in',
      projects.map((p) => p.id),
    )
    .where(
      'account_id',
      'in',
      accounts.map((a) => a.id),
    )
    .executeTakeFirst();
  if (existing) throw new AppError('ProjectAccountExist');
  const now = nowSeconds();
  await ctx.db
    .insertInto('project_member')
    .values(
      projects.flatMap((p) =>
        accounts.map((a) => ({ project_id: p.id, account_id: a.id, role, created_at: now })),
      ),
    )
    .execute()
    .catch(uniqueFailure('ProjectAccountExist'));
  const events = role === 1 ? ['addProjectAccount', 'addProjectAdmin'] : ['addProjectAccount'];
  for (const p of projects)
    for (const a of accounts) await memberEvents(ctx, auth, p, a.account, events);
}

export async function addMembers(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  accountIds: number[],
  role: MemberRole,
): Promise<void> {
  const project = await manageableProject(ctx, auth, projectId);
  const accounts = await teamAccounts(ctx, auth, accountIds);
  await insertMemberships(ctx, auth, [project], accounts, role);
}

async function directMembers(ctx: AppContext, projectId: number, accountIds: number[]) {
  const unique = [...new Set(accountIds)];
  const rows = await ctx.db
    .selectFrom('project_member')
    .innerJoin('account', 'account.id', 'project_member.account_id')
    .select([
      'account.id',
      'account.name',
      'account.account',
      'account.avatar',
      'project_member.role',
      'project_member.created_at',
    ])
    .where('project_member.project_id', '=', projectId)
    .where('project_member.account_id', 'in', unique)
    .execute();
  // Not a member of this workgroup is, for this call, no such account.
  if (rows.length !== unique.length) throw new AppError('AccountNotFound');
  return rows;
}

export async function changeMemberRole(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  accountId: number,
  role: MemberRole,
) {
  const project = await manageableProject(ctx, auth, projectId);
  const [member] = await directMembers(ctx, project.id, [accountId]);
  if (!member) throw new AppError('AccountNotFound');
  if (member.role !== role) {
    await ctx.db
      .updateTable('project_member')
      .set({ role })
      .where('project_id', '=', project.id)
      .where('account_id', '=', member.id)
      .execute();
    await memberEvents(ctx, auth, project, member.account, [
      role === 1 ? 'addProjectAdmin' : 'deleteProjectAdmin',
    ]);
  }
  return {
    id: member.id,
    name: member.name,
    account: member.account,
    avatar: member.avatar,
    role,
    create_time: member.created_at,
  };
}

/** Takes accounts out of workgroups (all must be direct members) and revokes lost codes. */
export async function deleteMemberships(
  ctx: AppContext,
  auth: AuthContext,
  projects: ProjectRow[],
  accountIds: number[],
): Promise<void> {
  const rows = [];
  for (const p of projects)
    rows.push({ project: p, members: await directMembers(ctx, p.id, accountIds) });
  for (const { project, members } of rows) {
    await ctx.db
      .deleteFrom('project_member')
      .where('project_id', '=', project.id)
      .where(
        'account_id',
        'in',
        members.map((m) => m.id),
      )
      .execute();
  }
  await disableLostCodes(
    ctx,
    projects.map((p) => p.id),
  );
  for (const { project, members } of rows)
    for (const m of members) {
      const events =
        m.role === 1 ? ['deleteProjectAdmin', 'deleteProjectAccount'] : ['deleteProjectAccount'];
      await memberEvents(ctx, auth, project, m.account, events);
    }
}

export async function removeMembers(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  accountIds: number[],
): Promise<void> {
  const project = await manageableProject(ctx, auth, projectId);
  await deleteMemberships(ctx, auth, [project], accountIds);
}
