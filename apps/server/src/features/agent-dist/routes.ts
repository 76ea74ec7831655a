/**
 * Gateway distribution: the install script and the gateway bundle. A gateway host has no
 * console session, so both calls prove themselves with a cluster key in the
 * `authorization: Bearer` header (never in the URL, which ends up in logs); without a key of
 * some cluster they answer 401 InvalidToken and serve nothing.
 */
import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { agentRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { sha256Hex } from '../../lib/crypto';
import { registerRoute } from '../../plugins/app/route';
import { bundleFile, installScript } from './distribution';

/** The cluster whose key the request carries, and the key; InvalidToken otherwise. */
async function requireClusterKey(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ networkId: number; key: string }> {
  const match = /^Bearer\s+(\S{1,512})$/.exec(String(request.headers.authorization ?? ''));
  const key = match?.[1];
  const network = key
    ? await ctx.db
        .selectFrom('network')
        .select('id')
        .where('key_hash', '=', sha256Hex(key))
        .executeTakeFirst()
    : undefined;
  if (!network || !key) throw new AppError('InvalidToken');
  return { networkId: network.id, key };
}

export function registerAgentDistRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, agentRoutes.installScript, async ({ request, reply }) => {
    const { key } = await requireClusterKey(ctx, request);
    return reply
      .header('cache-control', 'no-store')
      .type('text/x-shellscript; charset=utf-8')
      .send(installScript(ctx.config.publicUrl, key));
  });

  registerRoute(app, agentRoutes.bundle, async ({ query, request, reply }) => {
    const { networkId } = await requireClusterKey(ctx, request);
    const file = await bundleFile(query.version);
    if (!file) throw new AppError('InvalidParameter', { field: 'version' }, { field: 'version' });
    request.log.info({ networkId, version: query.version ?? 'published' }, 'gateway bundle sent');
    return reply
      .header('cache-control', 'no-store')
      .type('application/javascript; charset=utf-8')
      .send(fs.createReadStream(file));
  });
}
