import type { FastifyInstance } from 'fastify';
import { workgroupRoutes as r } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { ansibleInventory, exportWorkgroupResources } from './export';
import { addGroups, groupMembers, listGroups, removeGroups } from './groups';
import { accountWorkgroups, bulkAdd, bulkDelete } from './member-workgroups';
import {
  addMembers,
  changeMemberRole,
  listMemberCandidates,
  listMembers,
  removeMembers,
} from './members';
import {
  addResources,
  listCandidates,
  listProjectResources,
  projectResourceById,
  removeResources,
  setDefaultUsername,
  setLoginUsernames,
} from './resources';
import {
  createWorkgroup,
  deleteWorkgroup,
  listWorkgroups,
  setFavourite,
  updateWorkgroup,
  workgroupById,
} from './service';

const OK = { ok: true as const };

export function registerWorkgroupRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, r.listWorkgroups, ({ query, request }) =>
    listWorkgroups(ctx, requireAuth(request), query),
  );
  registerRoute(app, r.createWorkgroup, ({ body, request }) =>
    createWorkgroup(ctx, requireAuth(request), body),
  );
  registerRoute(app, r.getWorkgroup, ({ params, request }) =>
    workgroupById(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, r.updateWorkgroup, ({ params, body, request }) =>
    updateWorkgroup(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, r.deleteWorkgroup, async ({ params, request }) => {
    await deleteWorkgroup(ctx, requireAuth(request), params.id);
    return OK;
  });
  registerRoute(app, r.setFavourite, ({ params, body, request }) =>
    setFavourite(ctx, requireAuth(request), params.id, body.favourite),
  );

  registerRoute(app, r.listWorkgroupResources, ({ params, query, request }) =>
    listProjectResources(ctx, requireAuth(request), params.id, query),
  );
  registerRoute(app, r.listResourceCandidates, ({ params, query, request }) =>
    listCandidates(ctx, requireAuth(request), params.id, query),
  );
  registerRoute(app, r.addWorkgroupResources, async ({ params, body, request }) => {
    await addResources(ctx, requireAuth(request), params.id, body.resource_ids);
    return OK;
  });
  registerRoute(app, r.removeWorkgroupResources, async ({ params, body, request }) => {
    await removeResources(ctx, requireAuth(request), params.id, body.resource_ids);
    return OK;
  });
  registerRoute(app, r.exportWorkgroupResources, async ({ params, request, reply }) => {
    const { file, projectId } = await exportWorkgroupResources(
      ctx,
      requireAuth(request),
      params.id,
    );
    return reply
      .header('content-disposition', `attachment; filename="workgroup-${projectId}-resources.xlsx"`)
      .header('cache-control', 'no-store')
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .send(file);
  });
  registerRoute(app, r.workgroupHosts, async ({ params, query, request, reply }) => {
    const { text, projectId } = await ansibleInventory(
      ctx,
      requireAuth(request),
      params.id,
      query.type,
    );
    if (query.export === 'true')
      reply.header(
        'content-disposition',
        `attachment; filename="workgroup-${projectId}-hosts.ini"`,
      );
    // The inventory carries the caller's codes: never cached, never sniffed as anything else.
    return reply
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .type('text/plain; charset=utf-8')
      .send(text);
  });

  registerRoute(app, r.getProjectResource, ({ params, request }) =>
    projectResourceById(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, r.setLoginUsernames, ({ params, body, request }) =>
    setLoginUsernames(ctx, requireAuth(request), params.id, body.login_username),
  );
  registerRoute(app, r.setDefaultUsername, ({ params, body, request }) =>
    setDefaultUsername(ctx, requireAuth(request), params.id, body.default_username),
  );

  registerRoute(app, r.listWorkgroupMembers, ({ params, query, request }) =>
    listMembers(ctx, requireAuth(request), params.id, query),
  );
  registerRoute(app, r.workgroupMemberCandidates, ({ params, query, request }) =>
    listMemberCandidates(ctx, requireAuth(request), params.id, query.key),
  );
  registerRoute(app, r.addWorkgroupMembers, async ({ params, body, request }) => {
    await addMembers(ctx, requireAuth(request), params.id, body.account_ids, body.role);
    return OK;
  });
  registerRoute(app, r.changeMemberRole, ({ params, body, request }) =>
    changeMemberRole(ctx, requireAuth(request), params.id, body.account_id, body.role),
  );
  registerRoute(app, r.removeWorkgroupMembers, async ({ params, body, request }) => {
    await removeMembers(ctx, requireAuth(request), params.id, body.account_ids);
    return OK;
  });

  registerRoute(app, r.listWorkgroupGroups, ({ params, query, request }) =>
    listGroups(ctx, requireAuth(request), params.id, query),
  );
  registerRoute(app, r.addWorkgroupGroups, async ({ params, body, request }) => {
    await addGroups(ctx, requireAuth(request), params.id, body.group_ids);
    return OK;
  });
  registerRoute(app, r.removeWorkgroupGroups, async ({ params, body, request }) => {
    await removeGroups(ctx, requireAuth(request), params.id, body.group_ids);
    return OK;
  });
  registerRoute(app, r.workgroupGroupMembers, ({ params, query, request }) =>
    groupMembers(ctx, requireAuth(request), params.id, query.group_id, query),
  );

  registerRoute(app, r.accountWorkgroups, ({ params, query, request }) =>
    accountWorkgroups(ctx, requireAuth(request), params.id, query),
  );
  registerRoute(app, r.bulkAddToWorkgroups, async ({ body, request }) => {
    await bulkAdd(ctx, requireAuth(request), body.account_id, body.project_ids, body.role);
    return OK;
  });
  registerRoute(app, r.bulkRemoveFromWorkgroups, async ({ body, request }) => {
    await bulkDelete(ctx, requireAuth(request), body.account_id, body.project_ids);
    return OK;
  });
}
