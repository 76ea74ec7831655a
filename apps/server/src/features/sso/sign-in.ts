/**
 * The SSO sign-in, from the browser's first click to its session:
 *
 * 1. `startSsoLogin`: binds the browser with a random httpOnly cookie (only its hash is kept
 *    with the request) and redirects to the identity provider.
 * 2. `consumeAssertion` (the ACS): checks the provider's signed response, consumes the request
 *    and the assertion ID once each, checks the e-mail domain against the team's access list,
 *    finds or creates the member (an ordinary member without a password, spec 2 §6), and issues
 *    a single-use credential: CSPRNG, stored hashed, valid 60 s.
 * 3. `exchangeCredential` (`/auth/pw_sso/:token`): spends the credential once, only in the
 *    browser that started the sign-in (the cookie), and starts a session at the right stage.
 *
 * The browser binding is what stops a sign-in made elsewhere (an attacker's own response, or a
 * credential that leaked from a URL) from being completed in someone else's browser.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  MEMBER_NAME_MAX,
  SSO_TOKEN_TTL_SECONDS,
  type LoginReply,
  type SessionStage,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow, CompanyRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { randomToken, safeEqual, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';
import { addressAllowed, startSession } from '../../plugins/app/auth';
import { currentPlan, findAccount, findCompanyByDomain, newAccountRow } from '../accounts';
import { writeLoginLog } from '../auth/login-log';
import { loginReply, stageAfterSecondFactor } from '../auth/login-service';
import { owesPasswordChange } from '../auth/passwords';
import { countMembers } from '../team/members';
import { accessDomains, loadSsoConfig, ssoUsable, type SsoConfigRow } from './config';
import { authorizeUrl, SamlRefused, SSO_REQUEST_TTL_SECONDS, verifyResponse } from './saml';

export const SSO_BROWSER_COOKIE = 'pc_sso';
const COOKIE_PATH = '/api/auth/';
const BROWSER_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Unanswered AuthnRequests kept per team (each lives SSO_REQUEST_TTL_SECONDS). */
const SSO_MAX_OUTSTANDING_REQUESTS = 10_000;

/**
 * The refusal for a team whose SSO is closed or unconfigured, and for an unknown team (the two
 * answer alike). Not 401/403: nobody's credentials were at fault.
 */
function ssoNotOpen(): AppError {
  return new AppError('SsoNotOpen');
}

async function openTeam(
  ctx: AppContext,
  domain: string,
): Promise<{ company: CompanyRow; config: SsoConfigRow }> {
  const company = await findCompanyByDomain(ctx, domain);
  const config = company ? await loadSsoConfig(ctx, company.id) : undefined;
  if (!company || !ssoUsable(config)) throw ssoNotOpen();
  return { company, config };
}

/** Expired requests, credentials and replay entries go on every sign-in. */
async function purgeExpired(ctx: AppContext, now: number): Promise<void> {
  await ctx.db.deleteFrom('sso_request').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('sso_credential').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('sso_assertion_seen').where('expires_at', '<=', now).execute();
}

/** Step 1: the provider's URL with our AuthnRequest; the browser is bound by cookie. */
export async function startSsoLogin(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  domain: string,
): Promise<string> {
  const { company, config } = await openTeam(ctx, domain);
  const now = nowSeconds();
  await purgeExpired(ctx, now);
  // Anyone may start a sign-in, and each start is a row: a flood stops at a ceiling per team.
  const outstanding = await ctx.db
    .selectFrom('sso_request')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', company.id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(outstanding?.n ?? 0) >= SSO_MAX_OUTSTANDING_REQUESTS)
    throw new AppError('TooManyRequests');
  // A second tab reuses the browser's binding rather than breaking the first tab's sign-in.
  const existing = request.cookies[SSO_BROWSER_COOKIE];
  const browserToken = existing && BROWSER_TOKEN.test(existing) ? existing : randomToken();
  reply.setCookie(SSO_BROWSER_COOKIE, browserToken, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
    maxAge: SSO_REQUEST_TTL_SECONDS,
  });
  return authorizeUrl(ctx, company, config, sha256Hex(browserToken));
}

function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/** The member's display name: the provider's, else the e-mail's local part; within limits. */
function memberName(displayName: string, email: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const name = clean(displayName) || clean(email.slice(0, email.lastIndexOf('@')));
  return [...name].slice(0, MEMBER_NAME_MAX).join('') || 'member';
}

/** Finds the member, or creates an ordinary member without a password (spec 2 §6). */
async function ssoMember(
  ctx: AppContext,
  company: CompanyRow,
  email: string,
  displayName: string,
): Promise<AccountRow> {
  const found = await findAccount(ctx, company.id, email);
  if (found) return found;
  const plan = await currentPlan(ctx, company.id);
  if (plan && plan.account_limit > 0 && (await countMembers(ctx, company.id)) >= plan.account_limit)
    throw new AppError('AccountExceeded');
  // Two responses for the same new member at once: the second insert yields to the first.
  await ctx.db
    .insertInto('account')
    .values(
      newAccountRow({
        company_id: company.id,
        account: email,
        name: memberName(displayName, email),
        is_admin: 0,
      }),
    )
    .onConflict((oc) => oc.columns(['company_id', 'account']).doNothing())
    .execute();
  const created = await findAccount(ctx, company.id, email);
  if (!created) throw new AppError('UnknowError');
  return created;
}

interface Refusal {
  code: 'LoginFailed' | 'NeedPrivilege' | 'AccountDisabled' | 'AccountExceeded';
  account: AccountRow | null;
  email: string;
  reason: string;
}

/**
 * Step 2, the ACS. Returns where to send the browser: the console's login page with the
 * single-use credential. Every refusal is logged (login log and server log, with its reason)
 * and answered with a catalogue code.
 */
export async function consumeAssertion(
  ctx: AppContext,
  request: FastifyRequest,
  domain: string,
  samlResponse: string,
): Promise<string> {
  const { company, config } = await openTeam(ctx, domain);
  const now = nowSeconds();
  await purgeExpired(ctx, now);

  const refuse = async (refusal: Refusal): Promise<never> => {
    request.log.warn({ companyId: company.id, reason: refusal.reason }, 'SSO response refused');
    ctx.metrics.loginAttempts.inc({ outcome: refusal.code });
    await writeLoginLog(ctx, {
      companyId: company.id,
      accountId: refusal.account?.id ?? null,
      account: refusal.email,
      admin: refusal.account?.is_admin ?? null,
      ip: request.ip,
      success: false,
      reason: refusal.code,
    });
    throw new AppError(refusal.code);
  };

  let verified;
  try {
    verified = await verifyResponse(ctx, company, config, samlResponse);
  } catch (error) {
    if (!(error instanceof SamlRefused)) throw error;
    return refuse({ code: 'LoginFailed', account: null, email: '', reason: error.reason });
  }
  const { email } = verified;

  // Replay cache first: a second post of the same assertion is refused whatever else it says.
  const seen = await ctx.db
    .insertInto('sso_assertion_seen')
    .values({
      company_id: company.id,
      assertion_id: verified.assertionId,
      expires_at: verified.expiresAt,
    })
    .onConflict((oc) => oc.columns(['company_id', 'assertion_id']).doNothing())
    .executeTakeFirst();
  if (Number(seen.numInsertedOrUpdatedRows ?? 0) !== 1)
    return refuse({ code: 'LoginFailed', account: null, email, reason: 'assertion replayed' });

  // The request is consumed once, atomically; it carries the browser binding along.
  const consumed = await ctx.db
    .deleteFrom('sso_request')
    .where('id', '=', verified.inResponseTo)
    .where('company_id', '=', company.id)
    .where('expires_at', '>', now)
    .returning('browser_hash')
    .executeTakeFirst();
  if (!consumed)
    return refuse({ code: 'LoginFailed', account: null, email, reason: 'request already used' });

  if (!accessDomains(config).includes(emailDomain(email)))
    return refuse({
      code: 'NeedPrivilege',
      account: null,
      email,
      reason: 'e-mail domain not in the access list',
    });

  let account: AccountRow;
  try {
    account = await ssoMember(ctx, company, email, verified.displayName);
  } catch (error) {
    if (error instanceof AppError && error.code === 'AccountExceeded')
      return refuse({ code: 'AccountExceeded', account: null, email, reason: 'plan limit' });
    throw error;
  }
  if (account.status !== 0)
    return refuse({ code: 'AccountDisabled', account, email, reason: 'account disabled' });

  const token = randomToken();
  await ctx.db
    .insertInto('sso_credential')
    .values({
      token_hash: sha256Hex(token),
      company_id: company.id,
      account_id: account.id,
      browser_hash: consumed.browser_hash,
      created_at: now,
      expires_at: now + SSO_TOKEN_TTL_SECONDS,
      used_at: null,
    })
    .execute();
  return `/login?sso_token=${token}`;
}

/**
 * The stage of an SSO session. The provider has authenticated the member, so the password
 * rules (strength, age) do not apply to an account that has no password; a bound TOTP is
 * still asked for, and a team requiring MFA still sends an unbound member to bind it.
 */
function ssoStage(account: AccountRow, company: CompanyRow): SessionStage {
  if (account.otp_enabled === 1) return 'mfa';
  const stage = stageAfterSecondFactor(account, company);
  if (stage !== 'change_pwd' || account.password_hash !== null) return stage;
  return company.company_mfa === 1 ? 'bind_mfa' : 'full';
}

/**
 * Step 3: spends the credential (once, within 60 s, in the browser that started the sign-in)
 * and starts the session. Any failure of the credential itself answers InvalidToken.
 */
export async function exchangeCredential(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): Promise<LoginReply> {
  const now = nowSeconds();
  const hash = sha256Hex(token);
  // Marking it used first makes the credential single-use even when the checks below fail.
  const spent = await ctx.db
    .updateTable('sso_credential')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new AppError('InvalidToken');
  const credential = await ctx.db
    .selectFrom('sso_credential')
    .selectAll()
    .where('token_hash', '=', hash)
    .executeTakeFirstOrThrow();
  const browserToken = request.cookies[SSO_BROWSER_COOKIE] ?? '';
  if (!safeEqual(sha256Hex(browserToken), credential.browser_hash)) {
    request.log.warn({ companyId: credential.company_id }, 'SSO credential from another browser');
    throw new AppError('InvalidToken');
  }

  const account = await ctx.db
    .selectFrom('account')
    .selectAll()
    .where('id', '=', credential.account_id)
    .where('company_id', '=', credential.company_id)
    .executeTakeFirst();
  const company = await ctx.db
    .selectFrom('company')
    .selectAll()
    .where('id', '=', credential.company_id)
    .executeTakeFirst();
  if (!account || !company) throw new AppError('InvalidToken');
  const log = (success: boolean, reason: string) =>
    writeLoginLog(ctx, {
      companyId: company.id,
      accountId: account.id,
      account: account.account,
      admin: account.is_admin,
      ip: request.ip,
      success,
      reason,
    });
  // The team may have closed SSO, or disabled the member, in the last minute.
  if (!ssoUsable(await loadSsoConfig(ctx, company.id))) {
    await log(false, 'SsoClosed');
    throw ssoNotOpen();
  }
  if (account.status !== 0) {
    await log(false, 'AccountDisabled');
    throw new AppError('AccountDisabled');
  }
  if (!addressAllowed(account, company, request.ip)) {
    await log(false, 'IPNotInWhiteList');
    throw new AppError('IPNotInWhiteList');
  }

  await ctx.db
    .updateTable('account')
    .set({ last_login_time: now, last_login_ip: request.ip })
    .where('id', '=', account.id)
    .execute();
  await log(true, '');
  ctx.metrics.loginAttempts.inc({ outcome: 'ok' });
  const stage = ssoStage(account, company);
  await startSession(ctx, request, reply, account, company, stage);
  reply.clearCookie(SSO_BROWSER_COOKIE, { path: COOKIE_PATH });
  const answer = loginReply(account, company, stage === 'mfa');
  const owesChange = account.password_hash !== null && owesPasswordChange(account, company);
  return { ...answer, op: owesChange ? 'change_pwd' : '' };
}
