/**
 * Reset links: a random token mailed to the member, stored only as a hash, valid once and for
 * a day. Registration uses the same link to let the new administrator set a first password.
 */
import { RESET_LINK_TTL_SECONDS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow, CompanyRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';
import { endAccountSessions } from '../../plugins/app/auth';
import { findAccount, findCompanyByDomain } from '../accounts';
import { assertStrongEnough, passwordColumns, teamLevel } from './passwords';
import { clearFailures, loginKey } from './lockout';

/** A member asking again within this time gets no second mail. */
const RESEND_INTERVAL_SECONDS = 60;

export function resetLink(
  ctx: AppContext,
  token: string,
  account: AccountRow,
  company: CompanyRow,
): string {
  const params = new URLSearchParams({
    code: token,
    account: account.account,
    domain: company.domain,
    password_strength: String(teamLevel(company)),
  });
  return `${ctx.config.publicUrl}/resetpassword?${params.toString()}`;
}

export async function sendPasswordLink(
  ctx: AppContext,
  account: AccountRow,
  company: CompanyRow,
  purpose: 'reset' | 'welcome' | 'invite',
): Promise<void> {
  const now = nowSeconds();
  const recent = await ctx.db
    .selectFrom('reset_token')
    .select('created_at')
    .where('account_id', '=', account.id)
    .where('created_at', '>', now - RESEND_INTERVAL_SECONDS)
    .executeTakeFirst();
  if (recent && purpose === 'reset') return;
  const token = randomToken();
  await ctx.db
    .insertInto('reset_token')
    .values({
      token_hash: sha256Hex(token),
      account_id: account.id,
      expires_at: now + RESET_LINK_TTL_SECONDS,
      used_at: null,
      created_at: now,
    })
    .execute();
  const link = resetLink(ctx, token, account, company);
  const subject =
    purpose === 'reset'
      ? 'Portcullis: reset your password'
      : 'Welcome to Portcullis: set your password';
  const intro = {
    welcome: `Your team ${company.domain} is registered. Set the password of ${account.account} here:`,
    invite: `You have been added to team ${company.domain} (${company.full_name}) on Portcullis. Set the password of ${account.account} here:`,
    reset: `Someone asked to reset the password of ${account.account} in team ${company.domain}. If it was you, set a new password here:`,
  }[purpose];
  await ctx.mailer.send({
    to: account.account,
    subject,
    text: `${intro}\n\n${link}\n\nThe link works once, for 24 hours.\n`,
  });
}

/** Forgot password: answers the same whether or not the account exists. */
export async function requestReset(ctx: AppContext, domain: string, email: string): Promise<void> {
  const company = await findCompanyByDomain(ctx, domain);
  const account = company ? await findAccount(ctx, company.id, email) : undefined;
  if (!company || !account || account.status !== 0) return;
  await sendPasswordLink(ctx, account, company, 'reset');
}

export async function resetPassword(
  ctx: AppContext,
  code: string,
  email: string,
  password: string,
): Promise<void> {
  const now = nowSeconds();
  const token = await ctx.db
    .selectFrom('reset_token')
    .selectAll()
    .where('token_hash', '=', sha256Hex(code))
    .executeTakeFirst();
  if (!token || token.used_at !== null || token.expires_at <= now)
    throw new AppError('ResetLinkExpire');
  const account = await ctx.db
    .selectFrom('account')
    .selectAll()
    .where('id', '=', token.account_id)
    .executeTakeFirst();
  if (!account || account.account !== email.trim().toLowerCase())
    throw new AppError('ResetLinkExpire');
  const company = await ctx.db
    .selectFrom('company')
    .selectAll()
    .where('id', '=', account.company_id)
    .executeTakeFirstOrThrow();
  assertStrongEnough(company, password);
  // Claim the token first, so two concurrent uses cannot both succeed.
  const claimed = await ctx.db
    .updateTable('reset_token')
    .set({ used_at: now })
    .where('token_hash', '=', token.token_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('ResetLinkExpire');
  await ctx.db
    .updateTable('account')
    .set(await passwordColumns(password, false))
    .where('id', '=', account.id)
    .execute();
  await clearFailures(ctx, loginKey(company.domain, account.account));
  await endAccountSessions(ctx, account.id);
}
