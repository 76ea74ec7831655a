/**
 * Revocation is live (ARCHITECTURE.md): when a member stops reaching a workgroup (removed from
 * it, its group taken away from it, taken out of that group or the group deleted, or no longer
 * a team administrator), their codes on its resources are disabled at once and their open
 * sessions there cut. The gateway's code check asks the same question again for each session.
 */
import { Role } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';
import type { AccountRow } from '../../db/schema';
import { cutRevokedSessions } from '../sessions/revoke-sessions';

/** The account reaches the workgroup: a team administrator, or a member directly or by group. */
// Built once (db/prepared.ts): asked for every session's code check.
const directMember = prepared(['project', 'account'], (db, v) =>
  db
    .selectFrom('project_member')
    .select('project_id')
    .where('project_id', '=', v.project)
    .where('account_id', '=', v.account),
);

const memberViaGroup = prepared(['project', 'account'], (db, v) =>
  db
    .selectFrom('project_group')
    .innerJoin('group_member', 'group_member.group_id', 'project_group.group_id')
    .select('project_group.project_id')
    .where('project_group.project_id', '=', v.project)
    .where('group_member.account_id', '=', v.account),
);

export async function accountReachesProject(
  ctx: AppContext,
  account: AccountRow,
  projectId: number,
): Promise<boolean> {
  if (account.is_admin === Role.Admin) return true;
  const who = { project: projectId, account: account.id };
  if (await directMember.first(ctx.db, who)) return true;
  return (await memberViaGroup.first(ctx.db, who)) !== undefined;
}

/** Disables the live codes, on these workgroups, of accounts that no longer reach them. */
export async function disableLostCodes(ctx: AppContext, projectIds: number[]): Promise<void> {
  if (projectIds.length === 0) return;
  await ctx.db
    .updateTable('tunnel')
    .set({ status: 'disable' })
    .where('status', '=', 'enable')
    .where('project_resource_id', 'in', (eb) =>
      eb.selectFrom('project_resource').select('id').where('project_id', 'in', projectIds),
    )
    .where((eb) =>
      eb.not(
        eb.or([
          eb.exists(
            eb
              .selectFrom('account')
              .select('account.id')
              .whereRef('account.id', '=', 'tunnel.account_id')
              .where('account.is_admin', '=', Role.Admin),
          ),
          eb.exists(
            eb
              .selectFrom('project_member')
              .innerJoin(
                'project_resource',
                'project_resource.project_id',
                'project_member.project_id',
              )
              .select('project_member.project_id')
              .whereRef('project_resource.id', '=', 'tunnel.project_resource_id')
              .whereRef('project_member.account_id', '=', 'tunnel.account_id'),
          ),
          eb.exists(
            eb
              .selectFrom('project_group')
              .innerJoin('group_member', 'group_member.group_id', 'project_group.group_id')
              .innerJoin(
                'project_resource',
                'project_resource.project_id',
                'project_group.project_id',
              )
              .select('project_group.project_id')
              .whereRef('project_resource.id', '=', 'tunnel.project_resource_id')
              .whereRef('group_member.account_id', '=', 'tunnel.account_id'),
          ),
        ]),
      ),
    )
    .execute();
  // Their open sessions on those resources end with the codes.
  await cutRevokedSessions(ctx);
}

/** The workgroups a team group gives access to (whose members lose it with the group). */
export async function workgroupsOfGroup(ctx: AppContext, groupId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('project_group')
    .select('project_id')
    .where('group_id', '=', groupId)
    .execute();
  return rows.map((r) => r.project_id);
}

/** The workgroups on whose resources the account holds live codes. */
export async function workgroupsWithCodesOf(ctx: AppContext, accountId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('tunnel')
    .innerJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
    .select('project_resource.project_id')
    .distinct()
    .where('tunnel.account_id', '=', accountId)
    .where('tunnel.status', '=', 'enable')
    .execute();
  return rows.map((r) => r.project_id);
}
