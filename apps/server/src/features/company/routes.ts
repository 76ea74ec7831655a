import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../lib/crypto';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { currentPlan, planReply } from '../accounts';
import { teamLevel } from '../auth/passwords';
import { countClusters } from '../clusters/service';
import { countResources, countSharedResources } from '../resources/service';
import { countWorkgroups } from '../workgroups/service';

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
    return {
      accounts: Number(accounts?.n ?? 0),
      networks: await countClusters(ctx, company.id),
      resources: await countResources(ctx, { companyId: company.id }),
      shared_resources: await countSharedResources(ctx, company.id),
      projects: await countWorkgroups(ctx, company.id),
      current_plan: plan,
      expire: plan?.expire ?? null,
    };
  });

  // accountRoutes.onlineCount is answered with the online list (sessions/connections-routes.ts).

  registerRoute(app, accountRoutes.banner, async () => {
    const text = ctx.config.bannerText;
    return text ? { id: sha256Hex(text).slice(0, 16), text } : null;
  });
}
