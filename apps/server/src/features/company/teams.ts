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
import { newAccountRow } from '../accounts';
import { randomToken } from '../../lib/crypto';

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
          domain_token: randomToken(24),
          ee_work_space_id: '',
          ee_work_space_name: '',
          binding_admin_id: null,
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
        .values(
          newAccountRow({
            company_id: company.id,
            account: team.admin.account,
            name: team.admin.name,
            ...(password && {
              password_hash: password.password_hash,
              password_level: password.password_level,
              password_changed_at: password.password_changed_at,
            }),
            is_admin: 1,
            is_owner: 1,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      // The registering administrator is the team's bound primary administrator.
      await trx
        .updateTable('company')
        .set({ binding_admin_id: account.id })
        .where('id', '=', company.id)
        .execute();
      return { company: { ...company, binding_admin_id: account.id }, account };
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
