/**
 * The signed-in account: its reply, name and avatar, password, mobile number.
 */
import {
  MOBILE_PATTERN,
  SMS_CODE_LENGTH,
  SMS_CODE_TTL_SECONDS,
  type CurrentAccount,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { randomDigits, safeEqual, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';
import { endAccountSessions, setSessionStage, type AuthContext } from '../../plugins/app/auth';
import { currentPlan, planReply } from '../accounts';
import {
  assertStrongEnough,
  owesPasswordChange,
  passwordColumns,
  teamLevel,
} from '../auth/passwords';

/** A code may be asked for again after this long. */
const SMS_RESEND_SECONDS = 60;
const SMS_MAX_ATTEMPTS = 5;

export function avatarUrl(account: Pick<AccountRow, 'avatar'>): string {
  return account.avatar ? `/api/file/${account.avatar}` : '';
}

export async function currentAccountReply(
  ctx: AppContext,
  auth: AuthContext,
): Promise<CurrentAccount> {
  const { account, company } = auth;
  const level = teamLevel(company);
  // "Last login" on the security page means the one before this session's (spec 1 §2.11).
  const previous = await ctx.db
    .selectFrom('login_log')
    .select(['created_at', 'ip'])
    .where('account_id', '=', account.id)
    .where('success', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(1)
    .limit(1)
    .executeTakeFirst();
  return {
    id: account.id,
    name: account.name,
    account: account.account,
    is_admin: account.is_admin,
    avatar: avatarUrl(account),
    mobile: account.mobile,
    otp_enabled: account.otp_enabled === 1,
    company_mfa: company.company_mfa === 1,
    op: owesPasswordChange(account, company) ? 'change_pwd' : '',
    current_plan: planReply(await currentPlan(ctx, company.id)),
    // A member who signs in through SSO has no password for the strength gate to judge.
    password_strength: {
      level,
      password_ok: account.password_hash === null || account.password_level >= level,
    },
    company: { id: company.id, domain: company.domain, full_name: company.full_name },
    last_login_time: previous?.created_at ?? null,
    last_login_ip: previous?.ip ?? '',
  };
}

export async function changeOwnPassword(
  ctx: AppContext,
  auth: AuthContext,
  password: string,
): Promise<void> {
  assertStrongEnough(auth.company, password);
  const columns = await passwordColumns(password, false);
  await ctx.db.updateTable('account').set(columns).where('id', '=', auth.account.id).execute();
  Object.assign(auth.account, columns);
  // Other browsers signed in with the old password are signed out.
  await endAccountSessions(ctx, auth.account.id, auth.session.id);
  if (auth.session.stage === 'change_pwd') {
    const next =
      auth.company.company_mfa === 1 && auth.account.otp_enabled === 0 ? 'bind_mfa' : 'full';
    await setSessionStage(ctx, auth, next);
  }
}

export async function sendMobileCode(
  ctx: AppContext,
  auth: AuthContext,
  mobile: string,
): Promise<void> {
  if (!MOBILE_PATTERN.test(mobile))
    throw new AppError('InvalidParameter', { field: 'mobile' }, { field: 'mobile' });
  if (mobile === auth.account.mobile)
    throw new AppError('InvalidParameter', { field: 'mobile' }, { field: 'mobile' });
  const now = nowSeconds();
  const recentCodes = () =>
    ctx.db
      .selectFrom('sms_code')
      .select('id')
      .where('account_id', '=', auth.account.id)
      .where('created_at', '>', now - SMS_RESEND_SECONDS)
      .orderBy('id', 'asc')
      .execute();
  if ((await recentCodes()).length > 0) throw new AppError('AlreadySendSMS');
  const code = randomDigits(SMS_CODE_LENGTH);
  const mine = await ctx.db
    .insertInto('sms_code')
    .values({
      account_id: auth.account.id,
      mobile,
      code_hash: sha256Hex(code),
      attempts: 0,
      expires_at: now + SMS_CODE_TTL_SECONDS,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Requests sent at the same moment all pass the check above; the first row written wins and
  // the others withdraw, so a burst still sends one SMS a minute.
  if ((await recentCodes())[0]?.id !== mine.id) {
    await ctx.db.deleteFrom('sms_code').where('id', '=', mine.id).execute();
    throw new AppError('AlreadySendSMS');
  }
  await ctx.db
    .deleteFrom('sms_code')
    .where('account_id', '=', auth.account.id)
    .where('id', '!=', mine.id)
    .execute();
  try {
    await ctx.sms.send(
      mobile,
      `Your Portcullis verification code is ${code}. It is valid for 5 minutes.`,
    );
  } catch (error) {
    // A code that never left must not hold the one-a-minute slot: the user may retry at once.
    await ctx.db.deleteFrom('sms_code').where('id', '=', mine.id).execute();
    throw new AppError('SMSSendFail', {}, { cause: error });
  }
}

export async function verifyMobile(
  ctx: AppContext,
  auth: AuthContext,
  mobile: string,
  code: string,
): Promise<void> {
  const row = await ctx.db
    .selectFrom('sms_code')
    .selectAll()
    .where('account_id', '=', auth.account.id)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) throw new AppError('VerificationCodeIncorrect');
  // Each try spends an attempt before the code is compared, in one conditional update, so
  // guesses sent in parallel cannot all slip in under the limit.
  const spent = await ctx.db
    .updateTable('sms_code')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .where('attempts', '<', SMS_MAX_ATTEMPTS)
    .executeTakeFirst();
  const valid =
    Number(spent.numUpdatedRows) === 1 && row.mobile === mobile && row.expires_at > nowSeconds();
  if (!valid || !safeEqual(row.code_hash, sha256Hex(code)))
    throw new AppError('VerificationCodeIncorrect');
  // Single use: of two right answers at once, only the one that removes the code binds.
  const used = await ctx.db.deleteFrom('sms_code').where('id', '=', row.id).executeTakeFirst();
  if (Number(used.numDeletedRows) !== 1) throw new AppError('VerificationCodeIncorrect');
  await ctx.db.updateTable('account').set({ mobile }).where('id', '=', auth.account.id).execute();
}
