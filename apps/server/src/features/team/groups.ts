/**
 * Groups of members (spec 2 §2 group detail, §5 group rules). Names are unique in a team
 * without regard to case; deleting a group leaves its members in the team.
 */
import { countRows, pageOf, paged, type Paged } from '../../lib/paging';
import type { Group, Member } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { containsText } from '../../lib/sql';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { writeEvent } from '../events/writer';
import { disableLostCodes, workgroupsOfGroup } from '../workgroups/revoke';
import { memberReply } from './members';

/** Two requests racing past the checks below meet the unique index; the loser is told why. */
function rethrowUnique(code: 'GroupNameExist' | 'GroupAccountExist') {
  return (error: unknown): never => {
    if (/unique|duplicate/i.test(String((error as Error).message))) throw new AppError(code);
    throw error;
  };
}

async function groupRow(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await ctx.db
    .selectFrom('team_group')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', auth.company.id)
    .executeTakeFirst();
  if (!row) throw new AppError('GroupNotFound');
  return row;
}

async function memberCounts(ctx: AppContext, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('group_member')
    .select(['group_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('group_id', 'in', ids)
    .groupBy('group_id')
    .execute();
  return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
}

export async function getGroup(ctx: AppContext, auth: AuthContext, id: number): Promise<Group> {
  const row = await groupRow(ctx, auth, id);
  const counts = await memberCounts(ctx, [row.id]);
  return {
    id: row.id,
    name: row.name,
    note: row.note,
    member_count: counts.get(row.id) ?? 0,
    create_time: row.created_at,
  };
}

export async function listGroups(
  ctx: AppContext,
  auth: AuthContext,
  q: { page: number; page_size: number; q_name?: string | undefined },
): Promise<Paged<Group>> {
  let base = ctx.db.selectFrom('team_group').where('company_id', '=', auth.company.id);
  if (q.q_name) base = base.where(containsText(['name'], q.q_name));
  const total = await countRows(base);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .$call((qb) => pageOf(qb, q))
    .execute();
  const counts = await memberCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return paged(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      note: r.note,
      member_count: counts.get(r.id) ?? 0,
      create_time: r.created_at,
    })),
    total,
    q,
  );
}

async function assertNameFree(
  ctx: AppContext,
  auth: AuthContext,
  name: string,
  exceptId?: number,
): Promise<void> {
  let q = ctx.db
    .selectFrom('team_group')
    .select('id')
    .where('company_id', '=', auth.company.id)
    .where('name_key', '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw new AppError('GroupNameExist');
}

export async function createGroup(
  ctx: AppContext,
  auth: AuthContext,
  input: { name: string; note: string },
): Promise<Group> {
  await assertNameFree(ctx, auth, input.name);
  const row = await ctx.db
    .insertInto('team_group')
    .values({
      company_id: auth.company.id,
      name: input.name,
      name_key: input.name.toLowerCase(),
      note: input.note,
      created_at: nowSeconds(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(rethrowUnique('GroupNameExist'));
  await writeEvent(ctx, auth, 'team', 'createGroup', { group: row.name });
  return {
    id: row.id,
    name: row.name,
    note: row.note,
    member_count: 0,
    create_time: row.created_at,
  };
}

export async function updateGroup(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: { name: string; note: string },
): Promise<Group> {
  const row = await groupRow(ctx, auth, id);
  await assertNameFree(ctx, auth, input.name, row.id);
  await ctx.db
    .updateTable('team_group')
    .set({ name: input.name, name_key: input.name.toLowerCase(), note: input.note })
    .where('id', '=', row.id)
    .execute()
    .catch(rethrowUnique('GroupNameExist'));
  await writeEvent(ctx, auth, 'team', 'updateGroup', { group: input.name });
  return getGroup(ctx, auth, row.id);
}

export async function deleteGroup(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const row = await groupRow(ctx, auth, id);
  const workgroups = await workgroupsOfGroup(ctx, row.id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('group_member').where('group_id', '=', row.id).execute();
    await trx.deleteFrom('team_group').where('id', '=', row.id).execute();
  });
  // Its members reached those workgroups through it (unless they still do another way).
  await disableLostCodes(ctx, workgroups);
  await writeEvent(ctx, auth, 'team', 'deleteGroup', { group: row.name });
}

export async function groupMembers(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  q: { page: number; page_size: number; key?: string | undefined },
): Promise<Paged<Member>> {
  const group = await groupRow(ctx, auth, id);
  let base = ctx.db
    .selectFrom('group_member')
    .innerJoin('account', 'account.id', 'group_member.account_id')
    .where('group_member.group_id', '=', group.id);
  if (q.key) base = base.where(containsText(['account.name', 'account.account'], q.key));
  const total = await countRows(base);
  const rows = await base
    .selectAll('account')
    .orderBy('group_member.created_at', 'desc')
    .orderBy('account.id')
    .$call((qb) => pageOf(qb, q))
    .execute();
  return paged(rows.map(memberReply), total, q);
}

export async function addGroupMembers(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  memberIds: number[],
): Promise<void> {
  const group = await groupRow(ctx, auth, id);
  const ids = [...new Set(memberIds)];
  const accounts = await ctx.db
    .selectFrom('account')
    .select(['id', 'account'])
    .where('company_id', '=', auth.company.id)
    .where('id', 'in', ids)
    .execute();
  if (accounts.length !== ids.length) throw new AppError('AccountNotFound');
  const existing = await ctx.db
    .selectFrom('group_member')
    .select('account_id')
    .where('group_id', '=', group.id)
    .where('account_id', 'in', ids)
    .execute();
  if (existing.length > 0) throw new AppError('GroupAccountExist');
  const now = nowSeconds();
  await ctx.db
    .insertInto('group_member')
    .values(
      ids.map((accountId) => ({ group_id: group.id, account_id: accountId, created_at: now })),
    )
    .execute()
    .catch(rethrowUnique('GroupAccountExist'));
  for (const a of accounts)
    await writeEvent(ctx, auth, 'team', 'addGroupMember', { group: group.name, user: a.account });
}

export async function removeGroupMembers(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  memberIds: number[],
): Promise<void> {
  const group = await groupRow(ctx, auth, id);
  const ids = [...new Set(memberIds)];
  const rows = await ctx.db
    .selectFrom('group_member')
    .innerJoin('account', 'account.id', 'group_member.account_id')
    .select(['account.id', 'account.account'])
    .where('group_member.group_id', '=', group.id)
    .where('group_member.account_id', 'in', ids)
    .execute();
  if (rows.length !== ids.length) throw new AppError('GroupAccountNotFound');
  await ctx.db
    .deleteFrom('group_member')
    .where('group_id', '=', group.id)
    .where('account_id', 'in', ids)
    .execute();
  await disableLostCodes(ctx, await workgroupsOfGroup(ctx, group.id));
  for (const r of rows)
    await writeEvent(ctx, auth, 'team', 'deleteGroupMember', {
      group: group.name,
      user: r.account,
    });
}
