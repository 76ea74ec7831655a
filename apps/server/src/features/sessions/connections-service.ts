/**
 * The online connections a caller may see and cut (contract connection.ts): every
 * administrator role sees the whole team's; an ordinary member their own and those on the
 * workgroups they administer. A connection outside that answers exactly like one that does
 * not exist (ConnectionIDNotFound), so ids cannot be probed.
 *
 * Cutting asks the gateway carrying the session to end it (hub.cutSession, within a second)
 * and ends the row at once, so the online list is right even before the gateway reports back.
 * Limits: a session carried through another server replica is only marked ended here (the
 * cross-replica cut needs Redis, not built yet).
 */
import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import {
  formatError,
  maskCode,
  Role,
  type ErrorCode,
  type OnlineConnection,
  type OnlineConnectionQuery,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { countRows, pageOf, paged, type Paged } from '../../lib/paging';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { clusterGateways } from '../workgroups/gateways';
import { endConnections } from './connections';

/** What the member's client is told (a catalogue code, errors.ts); not who cut it. */
const CUT_REASON: ErrorCode = 'SessionCutFromConsole';

type LiveTables = 'tunnel_connection' | 'tunnel' | 'project_resource';

/** A member's own sessions and those on workgroups they administer (project_member.role 1). */
function ownOrAdministered(accountId: number): Expression<SqlBool> {
  const eb = expressionBuilder<Database, LiveTables>();
  return eb.or([
    eb('tunnel_connection.account_id', '=', accountId),
    eb(
      'project_resource.project_id',
      'in',
      eb
        .selectFrom('project_member')
        .select('project_member.project_id')
        .where('project_member.account_id', '=', accountId)
        .where('project_member.role', '=', 1),
    ),
  ]);
}

/** Live connections of the caller's team that the caller may see. */
function visibleLive(ctx: AppContext, auth: AuthContext) {
  const base = ctx.db
    .selectFrom('tunnel_connection')
    .leftJoin('tunnel', 'tunnel.id', 'tunnel_connection.tunnel_id')
    .leftJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
    .where('tunnel_connection.company_id', '=', auth.company.id)
    .where('tunnel_connection.ended_at', 'is', null);
  return auth.account.is_admin === Role.Ordinary
    ? base.where(ownOrAdministered(auth.account.id))
    : base;
}

export async function countOnline(ctx: AppContext, auth: AuthContext): Promise<number> {
  return countRows(visibleLive(ctx, auth).select('tunnel_connection.id'));
}

/** The key of onlineByWorkgroupResource's counts. */
export const workgroupResourceKey = (projectId: number, resourceId: number): string =>
  `${projectId}:${resourceId}`;

/**
 * Live sessions the caller may see, by workgroup and resource: a workgroup row's online count,
 * which counts what that row's online panel lists (listOnline with q_project and q_resource).
 */
export async function onlineByWorkgroupResource(
  ctx: AppContext,
  auth: AuthContext,
  resourceIds: number[],
): Promise<Map<string, number>> {
  if (resourceIds.length === 0) return new Map();
  const rows = await visibleLive(ctx, auth)
    .where('tunnel_connection.resource_id', 'in', resourceIds)
    .where('project_resource.project_id', 'is not', null)
    .select([
      'project_resource.project_id',
      'tunnel_connection.resource_id',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['project_resource.project_id', 'tunnel_connection.resource_id'])
    .execute();
  return new Map(
    rows.map((r) => [workgroupResourceKey(r.project_id ?? 0, r.resource_id ?? 0), Number(r.n)]),
  );
}

export async function listOnline(
  ctx: AppContext,
  auth: AuthContext,
  query: OnlineConnectionQuery,
): Promise<Paged<OnlineConnection>> {
  let base = visibleLive(ctx, auth)
    .leftJoin('project', 'project.id', 'project_resource.project_id')
    .leftJoin('resource', 'resource.id', 'tunnel_connection.resource_id')
    .leftJoin('account', 'account.id', 'tunnel_connection.account_id');
  if (query.q_project !== undefined) base = base.where('project.id', '=', query.q_project);
  if (query.q_resource !== undefined)
    base = base.where('tunnel_connection.resource_id', '=', query.q_resource);
  if (query.q_network_id !== undefined)
    base = base.where('resource.network_id', '=', query.q_network_id);
  const total = await countRows(base.select('tunnel_connection.id'));
  const rows = await pageOf(
    base
      .select([
        'tunnel_connection.id',
        'tunnel_connection.created_at',
        'tunnel_connection.way',
        'tunnel_connection.client_ip',
        'tunnel_connection.resource_id',
        'tunnel_connection.account_id',
        'account.name as account_name',
        'account.account as account_login',
        'project.id as project_id',
        'project.name as project_name',
        'project_resource.id as project_resource_id',
        'resource.name as resource_name',
        'resource.ip_address as resource_ip',
        'resource.network_id',
        'tunnel_connection.safe_mode',
        'tunnel.code_sealed',
      ])
      .orderBy('tunnel_connection.created_at', 'desc')
      .orderBy('tunnel_connection.id', 'desc'),
    query,
  ).execute();
  const now = nowSeconds();
  const gateways = await clusterGateways(
    ctx,
    rows.flatMap((r) => (r.network_id === null ? [] : [r.network_id])),
  );
  return paged(
    rows.map((r) => {
      const gateway = r.network_id === null ? undefined : gateways.get(r.network_id);
      return {
        id: r.id,
        connection_id: r.id,
        account: { id: r.account_id, name: r.account_name ?? '', account: r.account_login ?? '' },
        project_id: r.project_id,
        project_name: r.project_name ?? '',
        project_resource_id: r.project_resource_id,
        resource_id: r.resource_id,
        resource_name: r.resource_name ?? '',
        resource_ip_address: r.resource_ip ?? '',
        network_id: r.network_id,
        way: r.way,
        client_ip_address: r.client_ip,
        safe_mode: r.safe_mode ?? 0,
        create_time: r.created_at,
        duration: Math.max(0, now - r.created_at),
        tunnel_code: r.code_sealed ? maskCode(ctx.sealer.open(r.code_sealed)) : '',
        host: gateway?.host ?? '',
        agent_version: gateway?.version ?? '',
        guacamole: 0,
        webrdp_port: gateway?.ports.webrdp_port ?? 0,
      };
    }),
    total,
    query,
  );
}

/**
 * Cuts sessions by id at their gateways and ends their rows; the caller checked access. The
 * member's client is told `reason`: its English text, and the code for clients that translate.
 */
export async function cutSessions(
  ctx: AppContext,
  ids: number[],
  reason: ErrorCode,
): Promise<void> {
  const text = formatError(reason, 'en_US');
  for (const id of ids) ctx.gateways.cutSession(id, text, reason);
  await endConnections(ctx, ids);
}

/** Of these ids, the live connections the caller may cut. */
async function cuttable(ctx: AppContext, auth: AuthContext, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await visibleLive(ctx, auth)
    .select('tunnel_connection.id')
    .where('tunnel_connection.id', 'in', ids)
    .execute();
  return rows.map((r) => r.id);
}

export async function cutOne(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const [found] = await cuttable(ctx, auth, [id]);
  if (found === undefined) throw new AppError('ConnectionIDNotFound');
  await cutSessions(ctx, [found], CUT_REASON);
}

export async function cutMany(ctx: AppContext, auth: AuthContext, ids: number[]): Promise<number> {
  const found = await cuttable(ctx, auth, [...new Set(ids)]);
  await cutSessions(ctx, found, CUT_REASON);
  return found.length;
}
