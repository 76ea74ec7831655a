/**
 * The login decision (spec 1 §2.2): captcha when asked, lockout, password, disabled account,
 * then the session's stage, which decides the console's next screen.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginBody, LoginReply, SessionStage } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow, CompanyRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import { findAccount, findCompanyByDomain } from '../accounts';
import {
  addressAllowed,
  startSession,
  setSessionStage,
  type AuthContext,
} from '../../plugins/app/auth';
import { checkCaptcha } from './captcha';
import { clearFailures, isLocked, loginKey, recentFailures, recordFailure } from './lockout';
import { writeLoginLog } from './login-log';
import { passwordSignInAllowed } from '../sso/config';
import { owesPasswordChange, verifyPassword } from './passwords';
import { ipAllowed, passwordLevelOf } from '@portcullis/contract';

function mfaRequiredUnbound(account: AccountRow, company: CompanyRow): boolean {
  return company.company_mfa === 1 && account.otp_enabled === 0;
}

/** The stage after the password (and, when bound, the TOTP code) has been accepted. */
export function stageAfterSecondFactor(account: AccountRow, company: CompanyRow): SessionStage {
  if (owesPasswordChange(account, company)) return 'change_pwd';
  if (mfaRequiredUnbound(account, company)) return 'bind_mfa';
  return 'full';
}

export function loginReply(
  account: AccountRow,
  company: CompanyRow,
  otpPending: boolean,
): LoginReply {
  return {
    otp_enabled: otpPending,
    op: owesPasswordChange(account, company) ? 'change_pwd' : '',
    company_mfa: mfaRequiredUnbound(account, company),
    is_admin: account.is_admin as LoginReply['is_admin'],
  };
}

async function attemptLogin(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  body: LoginBody,
): Promise<LoginReply> {
  const key = loginKey(body.domain, body.username);
  const ip = request.ip;
  const company = await findCompanyByDomain(ctx, body.domain);
  const logBase = { companyId: company?.id ?? null, account: key.username, ip };

  if ((await recentFailures(ctx, key)) > 0 && !(await checkCaptcha(ctx, request, body.captcha))) {
    throw new AppError('CaptchaIncorrect');
  }
  // An address in neither of the team's whitelists is turned away before any password is
  // tried, so it cannot learn whether a password is right.
  if (company && !ipAllowed(company.ip_whitelist, ip) && !ipAllowed(company.admin_whitelist, ip)) {
    await writeLoginLog(ctx, {
      ...logBase,
      accountId: null,
      admin: null,
      success: false,
      reason: 'IPNotInWhiteList',
    });
    throw new AppError('IPNotInWhiteList');
  }
  if (await isLocked(ctx, key)) {
    await writeLoginLog(ctx, {
      ...logBase,
      accountId: null,
      admin: null,
      success: false,
      reason: 'AccountLocked',
    });
    throw new AppError('AccountLocked');
  }

  const found = company ? await findAccount(ctx, company.id, body.username) : undefined;
  const passwordOk = await verifyPassword(found?.password_hash ?? null, body.password);
  if (!company || !found || !passwordOk) {
    await recordFailure(ctx, key, ip);
    await writeLoginLog(ctx, {
      ...logBase,
      accountId: found?.id ?? null,
      admin: found?.is_admin ?? null,
      success: false,
      reason: 'PasswordError',
    });
    throw new AppError((await isLocked(ctx, key)) ? 'AccountLocked' : 'PasswordError');
  }
  if (found.status !== 0) {
    await writeLoginLog(ctx, {
      ...logBase,
      accountId: found.id,
      admin: found.is_admin,
      success: false,
      reason: 'AccountDisabled',
    });
    throw new AppError('AccountDisabled');
  }
  if (!(await passwordSignInAllowed(ctx, found))) {
    await writeLoginLog(ctx, {
      ...logBase,
      accountId: found.id,
      admin: found.is_admin,
      success: false,
      reason: 'PasswordLoginDisabled',
    });
    throw new AppError('PasswordLoginDisabled');
  }

  if (!addressAllowed(found, company, ip)) {
    await writeLoginLog(ctx, {
      ...logBase,
      accountId: found.id,
      admin: found.is_admin,
      success: false,
      reason: 'IPNotInWhiteList',
    });
    throw new AppError('IPNotInWhiteList');
  }

  await clearFailures(ctx, key);
  const now = nowSeconds();
  // The level is re-measured at every login, so a team that raises its level catches old passwords.
  const account: AccountRow = {
    ...found,
    password_level: passwordLevelOf(body.password),
    last_login_time: now,
    last_login_ip: ip,
  };
  await ctx.db
    .updateTable('account')
    .set({ password_level: account.password_level, last_login_time: now, last_login_ip: ip })
    .where('id', '=', account.id)
    .execute();
  await writeLoginLog(ctx, {
    ...logBase,
    accountId: account.id,
    admin: account.is_admin,
    success: true,
    reason: '',
  });

  const otpPending = account.otp_enabled === 1;
  const stage = otpPending ? 'mfa' : stageAfterSecondFactor(account, company);
  await startSession(ctx, request, reply, account, company, stage);
  return loginReply(account, company, otpPending);
}

/** After a correct TOTP code, the session moves to its next stage. */
export async function finishMfaLogin(ctx: AppContext, auth: AuthContext): Promise<LoginReply> {
  await setSessionStage(ctx, auth, stageAfterSecondFactor(auth.account, auth.company));
  return loginReply(auth.account, auth.company, false);
}

/** Signs in and counts the outcome for /metrics (the code only, never what was typed). */
export async function login(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  body: LoginBody,
): Promise<LoginReply> {
  try {
    const result = await attemptLogin(ctx, request, reply, body);
    ctx.metrics.loginAttempts.inc({ outcome: 'ok' });
    return result;
  } catch (error) {
    ctx.metrics.loginAttempts.inc({ outcome: error instanceof AppError ? error.code : 'error' });
    throw error;
  }
}
