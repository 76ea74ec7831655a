/**
 * The team's settings tab and plan panel (spec 2 §2 Team page tabs, §5 team settings). Every
 * setting here is enforced elsewhere: whitelists by the access hook and login, the hold time by
 * sessions, company MFA and strength by the login flow and the console's gate.
 */
import { ipAllowed, type TeamSettings } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { CompanyRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { randomToken } from '../../lib/crypto';
import type { AuthContext } from '../../plugins/app/auth';
import { currentPlan, findAccount } from '../accounts';
import { teamLevel } from '../auth/passwords';
import { writeEvent } from '../events/writer';
import { countMembers } from './members';
import { countClusters } from '../clusters/service';
import { countResources } from '../resources/service';

export async function teamSettings(ctx: AppContext, company: CompanyRow): Promise<TeamSettings> {
  const binding = company.binding_admin_id
    ? await ctx.db
        .selectFrom('account')
        .select(['id', 'account'])
        .where('id', '=', company.binding_admin_id)
        .executeTakeFirst()
    : undefined;
  return {
    full_name: company.full_name,
    contact_name: company.contact_name,
    contact_phone: company.contact_phone,
    contact_address: company.contact_address,
    ip_whitelist: company.ip_whitelist,
    admin_whitelist: company.admin_whitelist,
    session_expire_time: company.session_expire_time,
    company_mfa: company.company_mfa === 1,
    reset_password: company.reset_password === 1,
    password_strength: teamLevel(company),
    binding_admin: binding ?? null,
    domain_token: company.domain_token,
    ee_work_space_id: company.ee_work_space_id,
    ee_work_space_name: company.ee_work_space_name,
  };
}

/** Whitelists are stored normalised: entries trimmed, joined by a comma. */
function normaliseList(list: string): string {
  return list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .join(',');
}

async function reload(ctx: AppContext, id: number): Promise<CompanyRow> {
  return ctx.db.selectFrom('company').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function updateTeam(
  ctx: AppContext,
  auth: AuthContext,
  body: {
    full_name: string;
    contact_name: string;
    contact_phone: string;
    contact_address: string;
    ip_whitelist: string;
    admin_whitelist: string;
    session_expire_time: number;
    company_mfa: 0 | 1;
    reset_password: 0 | 1;
    password_strength: 0 | 1 | 2;
    email?: string | undefined;
  },
  clientIp: string,
): Promise<TeamSettings> {
  const adminWhitelist = normaliseList(body.admin_whitelist);
  if (!ipAllowed(adminWhitelist, clientIp))
    throw new AppError('WhitelistExcludesSelf', { ip: clientIp });
  let bindingAdminId = auth.company.binding_admin_id;
  if (body.email) {
    const admin = await findAccount(ctx, auth.company.id, body.email);
    // Only an administrator that came from the bound workspace (it has a unique_id) qualifies.
    if (!admin || admin.is_admin !== 1 || !admin.unique_id) throw new AppError('AccountNotFound');
    bindingAdminId = admin.id;
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('company')
      .set({
        full_name: body.full_name,
        contact_name: body.contact_name,
        contact_phone: body.contact_phone,
        contact_address: body.contact_address,
        ip_whitelist: normaliseList(body.ip_whitelist),
        admin_whitelist: adminWhitelist,
        session_expire_time: body.session_expire_time,
        company_mfa: body.company_mfa,
        reset_password: body.reset_password,
        password_strength: body.password_strength,
        binding_admin_id: bindingAdminId,
      })
      .where('id', '=', auth.company.id)
      .execute();
    // The owner is the bound primary administrator (contract: Member.is_owner): when the
    // binding moves, so does the protection, and the former one may be changed or deleted.
    if (bindingAdminId !== auth.company.binding_admin_id && bindingAdminId !== null) {
      await trx
        .updateTable('account')
        .set({ is_owner: 0 })
        .where('company_id', '=', auth.company.id)
        .where('id', '!=', bindingAdminId)
        .execute();
      await trx
        .updateTable('account')
        .set({ is_owner: 1 })
        .where('id', '=', bindingAdminId)
        .execute();
    }
  });
  await writeEvent(ctx, auth, 'team', 'updateTeamSettings');
  return teamSettings(ctx, await reload(ctx, auth.company.id));
}

/** A new token invalidates the old one, and with it the workspace bound through it. */
export async function renewDomainToken(ctx: AppContext, auth: AuthContext): Promise<TeamSettings> {
  await ctx.db
    .updateTable('company')
    .set({ domain_token: randomToken(24), ee_work_space_id: '', ee_work_space_name: '' })
    .where('id', '=', auth.company.id)
    .execute();
  await writeEvent(ctx, auth, 'team', 'updateDomainToken');
  return teamSettings(ctx, await reload(ctx, auth.company.id));
}

export async function unbindWorkspace(
  ctx: AppContext,
  auth: AuthContext,
  workSpaceId: string,
  domain: string,
): Promise<TeamSettings> {
  if (
    domain.toLowerCase() !== auth.company.domain_key ||
    workSpaceId !== auth.company.ee_work_space_id
  ) {
    throw new AppError('InvalidParameter', { field: 'work_space_id' }, { field: 'work_space_id' });
  }
  await ctx.db
    .updateTable('company')
    .set({ ee_work_space_id: '', ee_work_space_name: '' })
    .where('id', '=', auth.company.id)
    .execute();
  await writeEvent(ctx, auth, 'team', 'unbindWorkspace');
  return teamSettings(ctx, await reload(ctx, auth.company.id));
}

export async function planInfo(ctx: AppContext, auth: AuthContext) {
  const plan = await currentPlan(ctx, auth.company.id);
  if (!plan) return null;
  return {
    name: plan.name as 'Trial',
    resources: plan.resource_limit,
    networks: plan.network_limit,
    accounts: plan.account_limit,
    shared_resources: plan.shared_resource_limit,
    shared_networks: plan.shared_network_limit,
    expire: plan.expire_time,
    used: {
      resources: await countResources(ctx, { companyId: auth.company.id }),
      networks: await countClusters(ctx, auth.company.id),
      accounts: await countMembers(ctx, auth.company.id),
    },
  };
}
