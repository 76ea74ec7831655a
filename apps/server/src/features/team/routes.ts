import { countRows, pageOf, paged } from '../../lib/paging';
import type { FastifyInstance } from 'fastify';
import { teamRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { containsText } from '../../lib/sql';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import {
  addGroupMembers,
  createGroup,
  deleteGroup,
  getGroup,
  groupMembers,
  listGroups,
  removeGroupMembers,
  updateGroup,
} from './groups';
import { addMember, deleteMember, memberReply, resetMemberMfa, updateMember } from './members';
import { planInfo, renewDomainToken, teamSettings, unbindWorkspace, updateTeam } from './settings';

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, teamRoutes.listMembers, async ({ query, request }) => {
    const auth = requireAuth(request);
    let base = ctx.db.selectFrom('account').where('company_id', '=', auth.company.id);
    if (query.q_is_admin !== undefined) base = base.where('is_admin', '=', query.q_is_admin);
    if (query.key) base = base.where(containsText(['name', 'account'], query.key));
    const total = await countRows(base);
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .$call((qb) => pageOf(qb, query))
      .execute();
    return paged(rows.map(memberReply), total, query);
  });

  registerRoute(app, teamRoutes.memberNames, async ({ request }) => {
    const auth = requireAuth(request);
    return ctx.db
      .selectFrom('account')
      .select(['id', 'name', 'account'])
      .where('company_id', '=', auth.company.id)
      .orderBy('name')
      .execute();
  });

  registerRoute(app, teamRoutes.addMember, ({ body, request }) =>
    addMember(ctx, requireAuth(request), body),
  );
  registerRoute(app, teamRoutes.updateMember, ({ params, body, request }) =>
    updateMember(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, teamRoutes.deleteMember, async ({ params, request }) => {
    await deleteMember(ctx, requireAuth(request), params.id);
    return { ok: true as const };
  });
  registerRoute(app, teamRoutes.resetMemberMfa, async ({ query, request }) => {
    await resetMemberMfa(ctx, requireAuth(request), query.account_id);
    return { ok: true as const };
  });

  registerRoute(app, teamRoutes.listGroups, ({ query, request }) =>
    listGroups(ctx, requireAuth(request), query),
  );
  registerRoute(app, teamRoutes.createGroup, ({ body, request }) =>
    createGroup(ctx, requireAuth(request), body),
  );
  registerRoute(app, teamRoutes.getGroup, ({ params, request }) =>
    getGroup(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, teamRoutes.updateGroup, ({ params, body, request }) =>
    updateGroup(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, teamRoutes.deleteGroup, async ({ params, request }) => {
    await deleteGroup(ctx, requireAuth(request), params.id);
    return { ok: true as const };
  });
  registerRoute(app, teamRoutes.groupMembers, ({ params, query, request }) =>
    groupMembers(ctx, requireAuth(request), params.id, query),
  );
  registerRoute(app, teamRoutes.addGroupMembers, async ({ params, body, request }) => {
    await addGroupMembers(ctx, requireAuth(request), params.id, body.members);
    return { ok: true as const };
  });
  registerRoute(app, teamRoutes.removeGroupMembers, async ({ params, body, request }) => {
    await removeGroupMembers(ctx, requireAuth(request), params.id, body.members);
    return { ok: true as const };
  });

  registerRoute(app, teamRoutes.teamSettings, ({ request }) =>
    teamSettings(ctx, requireAuth(request).company),
  );
  registerRoute(app, teamRoutes.updateTeam, ({ body, request }) =>
    updateTeam(ctx, requireAuth(request), body, request.ip),
  );
  registerRoute(app, teamRoutes.updateDomainToken, ({ request }) =>
    renewDomainToken(ctx, requireAuth(request)),
  );
  registerRoute(app, teamRoutes.unbindWorkspace, ({ body, request }) =>
    unbindWorkspace(ctx, requireAuth(request), body.work_space_id, body.domain),
  );
  registerRoute(app, teamRoutes.plan, ({ request }) => planInfo(ctx, requireAuth(request)));
}
