/**
 * Sessions and access control. The session is an opaque random token in an httpOnly cookie;
 * the database keeps only its hash. Every route's `access` (from the contract) is enforced
 * here, before its body is even validated, so nobody learns a route's rules by probing it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ipAllowed, type Access, type SessionStage } from '@portcullis/contract';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';
import type { AccountRow, CompanyRow, SessionRow } from '../../db/schema';
import type { AppContext } from '../../context';

export const SESSION_COOKIE = 'pc_session';

export interface AuthContext {
  session: SessionRow;
  account: AccountRow;
  company: CompanyRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Sliding expiry is written at most this often, to keep reads cheap. */
const TOUCH_INTERVAL_SECONDS = 30;

function holdSeconds(company: CompanyRow): number {
  return company.session_expire_time * 60;
}

export async function startSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  account: AccountRow,
  company: CompanyRow,
  stage: SessionStage,
): Promise<void> {
  // A new login replaces whatever session this browser had.
  await endSession(ctx, request, reply);
  const token = randomToken();
  const now = nowSeconds();
  await ctx.db
    .insertInto('session')
    .values({
      id: sha256Hex(token),
      account_id: account.id,
      company_id: company.id,
      stage,
      ip: request.ip,
      user_agent: String(request.headers['user-agent'] ?? '').slice(0, 512),
      created_at: now,
      last_seen_at: now,
      expires_at: now + holdSeconds(company),
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
  });
}

export async function setSessionStage(
  ctx: AppContext,
  auth: AuthContext,
  stage: SessionStage,
): Promise<void> {
  await ctx.db.updateTable('session').set({ stage }).where('id', '=', auth.session.id).execute();
  auth.session.stage = stage;
}

export async function endSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await ctx.db.deleteFrom('session').where('id', '=', sha256Hex(token)).execute();
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  request.auth = null;
}

/** Ends every session of an account (password reset, disabling, MFA change elsewhere). */
export async function endAccountSessions(
  ctx: AppContext,
  accountId: number,
  exceptSessionId?: string,
): Promise<void> {
  let q = ctx.db.deleteFrom('session').where('account_id', '=', accountId);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}

async function loadAuth(ctx: AppContext, token: string): Promise<AuthContext | null> {
  const now = nowSeconds();
  const session = await ctx.db
    .selectFrom('session')
    .selectAll()
    .where('id', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!session || session.expires_at <= now) return null;
  const account = await ctx.db
    .selectFrom('account')
    .selectAll()
    .where('id', '=', session.account_id)
    .executeTakeFirst();
  if (!account || account.status !== 0) {
    await ctx.db.deleteFrom('session').where('id', '=', session.id).execute();
    return null;
  }
  const company = await ctx.db
    .selectFrom('company')
    .selectAll()
    .where('id', '=', account.company_id)
    .executeTakeFirstOrThrow();
  // The hold time in force now applies, even to a session touched under a longer one.
  if (now - session.last_seen_at >= holdSeconds(company)) {
    await ctx.db.deleteFrom('session').where('id', '=', session.id).execute();
    return null;
  }
  if (now - session.last_seen_at >= TOUCH_INTERVAL_SECONDS) {
    session.last_seen_at = now;
    session.expires_at = now + holdSeconds(company);
    await ctx.db
      .updateTable('session')
      .set({ last_seen_at: session.last_seen_at, expires_at: session.expires_at })
      .where('id', '=', session.id)
      .execute();
  }
  return { session, account, company };
}

/** Members answer to the team's IP whitelist, administrators (roles 1-4) to the admin whitelist. */
export function addressAllowed(account: AccountRow, company: CompanyRow, ip: string): boolean {
  return ipAllowed(account.is_admin === 0 ? company.ip_whitelist : company.admin_whitelist, ip);
}

const STAGE_ERRORS: Record<
  SessionStage,
  'NeedMfaLogin' | 'NeedChangePassword' | 'NeedBindMfa' | 'NeedPrivilege'
> = {
  mfa: 'NeedMfaLogin',
  change_pwd: 'NeedChangePassword',
  bind_mfa: 'NeedBindMfa',
  full: 'NeedPrivilege',
};

/** The onRequest hook that enforces one route's access rule. */
export function accessHook(access: Access): onRequestHookHandler {
  return async (request) => {
    if (access.kind === 'public') return;
    const auth = request.auth;
    if (!auth) throw new AppError('NeedLogin');
    if (!addressAllowed(auth.account, auth.company, request.ip))
      throw new AppError('IPNotInWhiteList');
    const stage = auth.session.stage as SessionStage;
    const stages = access.stages ?? ['full'];
    if (!stages.includes(stage)) throw new AppError(STAGE_ERRORS[stage] ?? 'NeedPrivilege');
    if (!(access.roles as readonly number[]).includes(auth.account.is_admin))
      throw new AppError('NeedPrivilege');
  };
}

/** Narrows `request.auth` for handlers of non-public routes (the access hook already ran). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('NeedLogin');
  return request.auth;
}

export function authPlugin(ctx: AppContext) {
  return fp(async (app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      request.auth = null;
      const token = request.cookies[SESSION_COOKIE];
      if (token && request.url.startsWith('/api/')) request.auth = await loadAuth(ctx, token);
    });
  });
}
