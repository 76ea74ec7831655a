import type { FastifyInstance } from 'fastify';
import { codeRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { createCode, createTmpShare, getCode, listCodes, updateCode } from './service';

export function registerCodeRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, codeRoutes.listCodes, ({ query, request }) =>
    listCodes(ctx, requireAuth(request), query),
  );
  registerRoute(app, codeRoutes.getCode, ({ params, request }) =>
    getCode(ctx, requireAuth(request), params.id),
  );
  registerRoute(app, codeRoutes.createCode, ({ body, request }) =>
    createCode(ctx, requireAuth(request), body),
  );
  registerRoute(app, codeRoutes.updateCode, ({ params, body, request }) =>
    updateCode(ctx, requireAuth(request), params.id, body),
  );
  registerRoute(app, codeRoutes.clientIp, async ({ request }) => ({
    // The form a code's allowed list takes: IPv4, without the IPv6 mapping prefix.
    ip: request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip,
  }));
  registerRoute(app, codeRoutes.createTmpShare, async ({ body, request, reply }) => {
    // The reply shows the one-time password this once: nothing may keep a copy.
    reply.header('cache-control', 'no-store');
    return createTmpShare(ctx, requireAuth(request), body);
  });
}
