import type { FastifyInstance } from 'fastify';
import { webTerminalRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { issueWebTerminalToken } from './service';

export function registerWebTerminalRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, webTerminalRoutes.createWebTerminalToken, async ({ body, request, reply }) => {
    // The token opens a shell: no cache may keep the reply.
    reply.header('cache-control', 'no-store');
    const ip = request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip;
    return issueWebTerminalToken(ctx, requireAuth(request), body, ip);
  });
}
