/**
 * Look-ups of teams and accounts shared by several features.
 */
import type { AppContext } from '../context';
import type { AccountRow, CompanyRow, NewAccount, PlanRow } from '../db/schema';
import { nowSeconds } from '../lib/time';

export async function findCompanyByDomain(
  ctx: AppContext,
  domain: string,
): Promise<CompanyRow | undefined> {
  return ctx.db
    .selectFrom('company')
    .selectAll()
    .where('domain_key', '=', domain.trim().toLowerCase())
    .executeTakeFirst();
}

export async function findAccount(
  ctx: AppContext,
  companyId: number,
  account: string,
): Promise<AccountRow | undefined> {
  return ctx.db
    .selectFrom('account')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('account', '=', account.trim().toLowerCase())
    .executeTakeFirst();
}

/** The plan in force now: the latest one started and not yet expired. */
export async function currentPlan(
  ctx: AppContext,
  companyId: number,
): Promise<PlanRow | undefined> {
  const now = nowSeconds();
  return ctx.db
    .selectFrom('plan')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('start_time', '<=', now)
    .where((eb) => eb.or([eb('expire_time', 'is', null), eb('expire_time', '>', now)]))
    .orderBy('start_time', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function planReply(plan: PlanRow | undefined) {
  if (!plan) return null;
  return {
    name: plan.name as 'Trial',
    account_limit: plan.account_limit,
    network_limit: plan.network_limit,
    resource_limit: plan.resource_limit,
    log_back_days: plan.log_back_days,
    expire: plan.expire_time,
  };
}

/** A new account row: the given fields over safe defaults (ordinary, enabled, no MFA, no password). */
export function newAccountRow(
  fields: Pick<NewAccount, 'company_id' | 'account' | 'name'> & Partial<NewAccount>,
): NewAccount {
  return {
    password_hash: null,
    password_level: 0,
    password_changed_at: null,
    password_set_by_admin: 0,
    is_admin: 0,
    is_owner: 0,
    status: 0,
    avatar: '',
    mobile: '',
    otp_enabled: 0,
    otp_secret: null,
    otp_pending_secret: null,
    otp_last_step: 0,
    last_login_time: null,
    last_login_ip: '',
    unique_id: '',
    created_at: nowSeconds(),
    ...fields,
    account: fields.account.trim().toLowerCase(),
  };
}
