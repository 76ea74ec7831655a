/**
 * Members of a team as administrators manage them (spec 2 §2 team page, §6): add (with a
 * welcome mail to set a password), change name or role, set a password, enable or disable,
 * delete, reset MFA. Disabling or deleting ends the member's sessions at once.
 */
import { Role, type Member } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { endAccountSessions, type AuthContext } from '../../plugins/app/auth';
import { currentPlan, findAccount, newAccountRow } from '../accounts';
import { avatarUrl } from '../account/service';
import { assertStrongEnough, passwordColumns } from '../auth/passwords';
import { sendPasswordLink } from '../auth/recovery';
import { writeEvent } from '../events/writer';
import { rememberFormer } from '../action-logs/former-identities';
import { cutRevokedSessions } from '../sessions/revoke-sessions';
import { disableLostCodes, workgroupsWithCodesOf } from '../workgroups/revoke';

export function memberReply(row: AccountRow): Member {
  return {
    id: row.id,
    name: row.name,
    account: row.account,
    avatar: avatarUrl(row),
    mobile: row.mobile,
    is_admin: row.is_admin,
    status: row.status !== 0,
    unique_id: row.unique_id,
    otp_enabled: row.otp_enabled === 1,
    is_owner: row.is_owner === 1,
    create_time: row.created_at,
    last_login_time: row.last_login_time,
  };
}

/** A member of the caller's team, or AccountNotFound (another team's ids do not exist). */
export async function teamMember(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<AccountRow> {
  const row = await ctx.db
    .selectFrom('account')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', auth.company.id)
    .executeTakeFirst();
  if (!row) throw new AppError('AccountNotFound');
  return row;
}

export async function countMembers(ctx: AppContext, companyId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function addMember(
  ctx: AppContext,
  auth: AuthContext,
  input: { account: string; name: string; is_admin: number },
): Promise<Member> {
  if (await findAccount(ctx, auth.company.id, input.account)) throw new AppError('AccountExist');
  const plan = await currentPlan(ctx, auth.company.id);
  if (
    plan &&
    plan.account_limit > 0 &&
    (await countMembers(ctx, auth.company.id)) >= plan.account_limit
  ) {
    throw new AppError('AccountExceeded');
  }
  let row: AccountRow;
  try {
    row = await ctx.db
      .insertInto('account')
      .values(
        newAccountRow({
          company_id: auth.company.id,
          account: input.account,
          name: input.name,
          is_admin: input.is_admin,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (/unique|duplicate/i.test(String((error as Error).message)))
      throw new AppError('AccountExist');
    throw error;
  }
  try {
    await sendPasswordLink(ctx, row, auth.company, 'invite');
  } catch (error) {
    // Without the mail the member could never set a password, and adding them again would
    // answer AccountExist: undo, so the administrator can simply retry.
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('reset_token').where('account_id', '=', row.id).execute();
      await trx.deleteFrom('account').where('id', '=', row.id).execute();
    });
    throw new AppError('EmailSendFail', {}, { cause: error });
  }
  await writeEvent(ctx, auth, 'team', 'addUser', { user: row.account });
  return memberReply(row);
}

export async function updateMember(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  change: { name?: string; is_admin?: number; pwd?: string; status?: boolean },
): Promise<Member> {
  const target = await teamMember(ctx, auth, id);
  const self = target.id === auth.account.id;
  if (
    change.is_admin !== undefined &&
    change.is_admin !== target.is_admin &&
    (self || target.is_owner === 1)
  ) {
    throw new AppError('RoleCannotChange');
  }
  if (change.status === true) {
    if (self) throw new AppError('DisableSelf');
    if (target.is_admin !== 0) throw new AppError('AdminProtected');
  }
  if (change.pwd !== undefined) {
    // Setting another administrator's password would be taking their account over (the
    // owner's too), which is worse than the disabling refused above; they use the reset mail.
    if (!self && target.is_admin !== 0) throw new AppError('AdminProtected');
    assertStrongEnough(auth.company, change.pwd);
  }

  const set: Partial<AccountRow> = {};
  if (change.name !== undefined) set.name = change.name;
  if (change.is_admin !== undefined) set.is_admin = change.is_admin;
  if (change.status !== undefined) set.status = change.status ? 1 : 0;
  if (change.pwd !== undefined) Object.assign(set, await passwordColumns(change.pwd, !self));
  await ctx.db.updateTable('account').set(set).where('id', '=', target.id).execute();

  // Revocation is live: a disabled member, or one whose password was reset, is signed out now.
  if (change.status === true || (change.pwd !== undefined && !self))
    await endAccountSessions(ctx, target.id);
  // ...and a disabled member's open server sessions end at their gateways.
  if (change.status === true) await cutRevokedSessions(ctx);
  // An administrator reaches every workgroup; one no longer keeps only what membership gives.
  if (target.is_admin === Role.Admin && set.is_admin !== undefined && set.is_admin !== Role.Admin)
    await disableLostCodes(ctx, await workgroupsWithCodesOf(ctx, target.id));

  if (change.status !== undefined && change.status !== (target.status !== 0)) {
    await writeEvent(ctx, auth, 'team', change.status ? 'disableUser' : 'enableUser', {
      user: target.account,
    });
  }
  if (change.pwd !== undefined)
    await writeEvent(ctx, auth, 'team', 'changePassword', { user: target.account });
  if (
    (change.name !== undefined && change.name !== target.name) ||
    (change.is_admin !== undefined && change.is_admin !== target.is_admin)
  ) {
    await writeEvent(ctx, auth, 'team', 'updateUser', { user: target.account });
  }
  return memberReply({ ...target, ...set });
}

export async function deleteMember(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const target = await teamMember(ctx, auth, id);
  if (target.id === auth.account.id) throw new AppError('DeleteSelf');
  if (target.id === auth.company.binding_admin_id || target.is_owner === 1)
    throw new AppError('AccountNotAllowDelete');
  if (target.is_admin !== 0) throw new AppError('AdminProtected');
  await ctx.db.transaction().execute(async (trx) => {
    // The action log and the alarm log keep naming them, and the codes that go with them.
    await rememberFormer(ctx, trx, { accounts: [target.id] });
    await trx.deleteFrom('session').where('account_id', '=', target.id).execute();
    await trx.deleteFrom('group_member').where('account_id', '=', target.id).execute();
    await trx.deleteFrom('account_pubkey').where('account_id', '=', target.id).execute();
    await trx.deleteFrom('sms_code').where('account_id', '=', target.id).execute();
    await trx.deleteFrom('reset_token').where('account_id', '=', target.id).execute();
    await trx.deleteFrom('account').where('id', '=', target.id).execute();
  });
  await cutRevokedSessions(ctx);
  await writeEvent(ctx, auth, 'team', 'deleteUser', { user: target.account });
}

export async function resetMemberMfa(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const target = await teamMember(ctx, auth, id);
  await ctx.db
    .updateTable('account')
    .set({ otp_enabled: 0, otp_secret: null, otp_pending_secret: null })
    .where('id', '=', target.id)
    .execute();
  await endAccountSessions(ctx, target.id);
  await writeEvent(ctx, auth, 'team', 'resetMfa', { user: target.account });
}
