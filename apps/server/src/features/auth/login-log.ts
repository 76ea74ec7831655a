/**
 * Every sign-in attempt lands in the login log (system logs, spec 2 §2). The reason is a
 * catalogue code, never the password or anything typed in it.
 */
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';

export interface LoginLogEntry {
  companyId: number | null;
  accountId: number | null;
  account: string;
  admin: number | null;
  ip: string;
  success: boolean;
  reason: string;
}

export async function writeLoginLog(ctx: AppContext, entry: LoginLogEntry): Promise<void> {
  await ctx.db
    .insertInto('login_log')
    .values({
      company_id: entry.companyId,
      account_id: entry.accountId,
      account: entry.account.slice(0, 254),
      admin: entry.admin,
      ip: entry.ip,
      success: entry.success ? 1 : 0,
      reason: entry.reason,
      created_at: nowSeconds(),
    })
    .execute();
}
