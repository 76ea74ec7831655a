/**
 * Creating a team: the company, its Trial plan (30 days) and its administrator, in one
 * transaction. Used by registration and by the first run of an empty database.
 */
import { TRIAL_PLAN_DAYS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow, CompanyRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import { passwordColumns } from '../auth/passwords';

/** Trial quotas; 0 would mean unlimited. */
export const TRIAL_PLAN = {
  name: 'Trial',
  account_limit: 10,
  network_limit: 2,
  resource_limit: 20,
  shared_resource_limit: 5,
  shared_network_limit: 1,
  log_back_days: 30,
} as const;

export interface NewTeam {
  domain: string;
  fullName: string;
  contactName: string;
  contactAddress: string;
  contactPhone: string;
  email: string;
  admin: { account: string; name: string; password: string | null };
}

export async function createTeam(
  ctx: AppContext,
  team: NewTeam,
): Promise<{ company: CompanyRow; account: AccountRow }> {
  const now = nowSeconds();
  const password = team.admin.password ? await passwordColumns(team.admin.password, false) : null;
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('company')
        .select('id')
        .where('domain_key', '=', team.domain.toLowerCase())
        .executeTakeFirst();
      if (taken) throw new AppError('DomainInUse');
      const company = await trx
        .insertInto('company')
        .values({
          domain: team.domain,
          domain_key: team.domain.toLowerCase(),
          full_name: team.fullName,
          contact_name: team.contactName,
          contact_address: team.contactAddress,
          contact_phone: team.contactPhone,
          email: team.email.toLowerCase(),
          password_strength: 1,
          company_mfa: 0,
          reset_password: 0,
          session_expire_time: 30,
          ip_whitelist: '',
          admin_whitelist: '',
          sso_open: 0,
          sso_login_url: '',
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('plan')
        .values({
          ...TRIAL_PLAN,
          company_id: company.id,
          start_time: now,
          expire_time: now + TRIAL_PLAN_DAYS * 86_400,
          created_at: now,
        })
        .execute();
      const account = await trx
        .insertInto('account')
        .values({
          company_id: company.id,
          account: team.admin.account.toLowerCase(),
          name: team.admin.name,
          password_hash: password?.password_hash ?? null,
          password_level: password?.password_level ?? 0,
          password_changed_at: password?.password_changed_at ?? null,
          password_set_by_admin: 0,
          is_admin: 1,
          is_owner: 1,
          status: 0,
          avatar: '',
          mobile: '',
          otp_enabled: 0,
          otp_secret: null,
          otp_pending_secret: null,
          otp_last_step: 0,
          last_login_time: null,
          last_login_ip: '',
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { company, account };
    });
  } catch (error) {
    // Two registrations racing for one team ID: the unique index decides, the loser is told so.
    if (
      !(error instanceof AppError) &&
      /unique|duplicate/i.test(String((error as Error).message))
    ) {
      throw new AppError('DomainInUse');
    }
    throw error;
  }
}
