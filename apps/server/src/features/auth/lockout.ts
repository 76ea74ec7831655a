/**
 * Failed sign-ins, keyed on the team and account (never only on the client address, which a
 * proxy can spoof). Any failure in the last hour asks for a captcha; ten lock the account for
 * an hour (spec 1 §5, §9).
 */
import { LOCKOUT_ATTEMPTS, LOCKOUT_SECONDS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';

export interface LoginKey {
  domainKey: string;
  username: string;
}

export function loginKey(domain: string, username: string): LoginKey {
  return { domainKey: domain.trim().toLowerCase(), username: username.trim().toLowerCase() };
}

export async function recentFailures(ctx: AppContext, key: LoginKey): Promise<number> {
  const row = await ctx.db
    .selectFrom('login_failure')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain_key', '=', key.domainKey)
    .where('username', '=', key.username)
    .where('created_at', '>', nowSeconds() - LOCKOUT_SECONDS)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function isLocked(ctx: AppContext, key: LoginKey): Promise<boolean> {
  return (await recentFailures(ctx, key)) >= LOCKOUT_ATTEMPTS;
}

export async function recordFailure(ctx: AppContext, key: LoginKey, ip: string): Promise<void> {
  await ctx.db
    .insertInto('login_failure')
    .values({ domain_key: key.domainKey, username: key.username, ip, created_at: nowSeconds() })
    .execute();
}

export async function clearFailures(ctx: AppContext, key: LoginKey): Promise<void> {
  await ctx.db
    .deleteFrom('login_failure')
    .where('domain_key', '=', key.domainKey)
    .where('username', '=', key.username)
    .execute();
}
