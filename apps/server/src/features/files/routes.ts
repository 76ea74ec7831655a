import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { readAvatar, saveAvatar } from './service';

export function registerFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, accountRoutes.uploadFile, ({ body, request }) =>
    saveAvatar(ctx, requireAuth(request), body),
  );

  registerRoute(app, accountRoutes.getFile, async ({ params, request, reply }) => {
    const file = await readAvatar(ctx, requireAuth(request), params.uuid);
    return reply.header('cache-control', 'private, max-age=3600').type(file.type).send(file.bytes);
  });
}
