/**
 * Key upload and key test of a Linux server's login user (spec 2 §7 Resources): each starts a
 * task on the cluster's gateway and answers its id; the console polls the query every second.
 */
import type { FastifyInstance } from 'fastify';
import { agentRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { keyTaskStatus, startKeyTest, startKeyUpload } from './service';

export function registerAutologinRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, agentRoutes.uploadKey, async ({ params, body, request }) => ({
    task_id: await startKeyUpload(ctx, requireAuth(request), params.id, body),
  }));
  registerRoute(app, agentRoutes.uploadKeyStatus, ({ query, request }) =>
    keyTaskStatus(ctx, requireAuth(request), query.task_id, 'key_upload'),
  );
  registerRoute(app, agentRoutes.testKey, async ({ params, body, request }) => ({
    task_id: await startKeyTest(ctx, requireAuth(request), params.id, body.username),
  }));
  registerRoute(app, agentRoutes.testKeyStatus, ({ query, request }) =>
    keyTaskStatus(ctx, requireAuth(request), query.task_id, 'key_test'),
  );
}
