/**
 * The recordings of sessions, for the action log: GET /download_tunnel_log (a terminal's
 * asciicast v2 file, a database session's statement log) and GET /unfreeze_tunnel_log (ready, archived or restoring). A member
 * reaches the sessions they made; administrators every session of their team. Anything else,
 * another team's above all, is ConnectionIDNotFound, exactly as a connection that never was.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INPUT_VIEWER_ROLES, recordingRoutes, Role, isRole } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { isDatabaseWay } from '../sessions/alarms';
import { castForReader, wholeLines } from './cast-filter';
import type { RecordingKey } from './store';
import { monitorSlice } from './monitor';
import { recordingStore } from './tiered-store';

/** The caller's role and the recording of a connection they may see (or the refusal). */
async function reachable(
  ctx: AppContext,
  request: FastifyRequest,
  connectionId: number,
): Promise<{ role: Role; key: RecordingKey; recorded: boolean; way: string }> {
  const { account, company } = requireAuth(request);
  const role = isRole(account.is_admin) ? account.is_admin : Role.Ordinary;
  let found = ctx.db
    .selectFrom('tunnel_connection')
    .select(['id', 'company_id', 'recording', 'way'])
    .where('id', '=', connectionId)
    .where('company_id', '=', company.id);
  if (role === Role.Ordinary) found = found.where('account_id', '=', account.id);
  const row = await found.executeTakeFirst();
  if (!row) throw new AppError('ConnectionIDNotFound');
  return {
    role,
    key: { companyId: row.company_id, connectionId: row.id },
    recorded: row.recording !== 0,
    way: row.way,
  };
}

export function registerRecordingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const store = () => recordingStore(ctx);

  registerRoute(app, recordingRoutes.monitorConnection, ({ params, query, request }) =>
    monitorSlice(ctx, requireAuth(request), params.id, query.offset),
  );

  registerRoute(app, recordingRoutes.downloadTunnelLog, async ({ query, request, reply }) => {
    const { role, key, recorded, way } = await reachable(ctx, request, query.connection_id);
    const state = recorded ? await store().state(key) : 'missing';
    if (state === 'archived') throw new AppError('OSSFileArchived');
    if (state === 'restoring') throw new AppError('OSSFileRestoring');
    const file = state === 'available' ? await store().read(key) : null;
    if (!file) throw new AppError('FileNotFound');
    if (isDatabaseWay(way)) {
      // A database session's statement log (JSON lines; gateway db-proxy/statement-log.ts).
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${key.connectionId}-statements.jsonl"`,
        )
        .type('application/x-ndjson; charset=utf-8')
        .send(wholeLines(file));
    }
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${key.connectionId}.cast"`)
      .type('application/x-asciicast; charset=utf-8')
      .send(await castForReader(file, INPUT_VIEWER_ROLES.includes(role)));
  });

  registerRoute(app, recordingRoutes.unfreezeTunnelLog, async ({ query, request }) => {
    const { key, recorded } = await reachable(ctx, request, query.connection_id);
    const state = recorded ? await store().state(key) : 'missing';
    if (state === 'missing') throw new AppError('FileNotFound');
    if (state === 'archived') {
      if (query.check) throw new AppError('OSSFileArchived');
      await store().restore(key);
      throw new AppError('OSSFileRestoring');
    }
    if (state === 'restoring') throw new AppError('OSSFileRestoring');
    return { ok: true as const };
  });
}
