import type { FastifyInstance } from 'fastify';
import { accountRoutes, Role } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../lib/crypto';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { currentPlan, planReply } from '../accounts';
import { teamLevel } from '../auth/passwords';
import { countClusters } from '../clusters/service';
import { countResources } from '../resources/service';

export function registerCompanyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, accountRoutes.currentCompany, async ({ request }) => {
    const { company } = requireAuth(request);
    return {
      id: company.id,
      domain: company.domain,
      full_name: company.full_name,
      setting: {
        password_strength: teamLevel(company),
        full_name: company.full_name,
        company_mfa: company.company_mfa === 1,
        reset_password: company.reset_password === 1,
        session_expire_time: company.session_expire_time,
      },
      current_plan: planReply(await currentPlan(ctx, company.id)),
    };
  });

  registerRoute(app, accountRoutes.summary, async ({ request }) => {
    const { company } = requireAuth(request);
    const accounts = await ctx.db
      .selectFrom('account')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', company.id)
      .executeTakeFirst();
    const plan = planReply(await currentPlan(ctx, company.id));
    // Workgroups and sharing arrive with their own features; none exist before.
    return {
      accounts: Number(accounts?.n ?? 0),
      networks: await countClusters(ctx, company.id),
      resources: await countResources(ctx, { companyId: company.id }),
      shared_resources: 0,
      projects: 0,
      current_plan: plan,
      expire: plan?.expire ?? null,
    };
  });

  registerRoute(app, accountRoutes.onlineCount, async ({ request }) => {
    const { company, account } = requireAuth(request);
    let q = ctx.db
      .selectFrom('tunnel_connection')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', company.id)
      .where('ended_at', 'is', null);
    if (account.is_admin === Role.Ordinary) q = q.where('account_id', '=', account.id);
    return { count: Number((await q.executeTakeFirst())?.n ?? 0) };
  });

  registerRoute(app, accountRoutes.banner, async () => {
    const text = ctx.config.bannerText;
    return text ? { id: sha256Hex(text).slice(0, 16), text } : null;
  });
}
