/**
 * Online connections (tunnel_connection rows): one per session a gateway opened, ended_at set
 * when it ends. Which gateway socket carries which session is kept in memory, so the server can
 * cut a session and end the rows of a gateway that went away.
 * Each row names the gateway connection (agent row) that started it, so that a server that
 * starts ends only the rows whose gateway connection is gone, not those another replica's
 * gateways carry. Limits: with several replicas, a cut for a session carried through another
 * replica needs Redis pub/sub (not built yet).
 */
import { sql } from 'kysely';
import { HEARTBEAT_GRACE_SECONDS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';
import { nowSeconds } from '../../lib/time';
import type { Grant } from './grants';

/** How the session was made, as the gateway's session_start says (shown in the online list). */
export interface ConnectionOrigin {
  way: string;
  clientIp: string;
  /** The gateway connection (agent row) that carries it, when known. */
  agentId?: number | undefined;
  /** Whether it runs in security mode (a command policy goes with its start). */
  safeMode: boolean;
}

// Built once (db/prepared.ts): one of each per session.
const insertConnection = prepared(
  ['company', 'account', 'at', 'tunnel', 'resource', 'way', 'ip', 'agent', 'safe'],
  (db, v) =>
    db
      .insertInto('tunnel_connection')
      .values({
        company_id: v.company,
        account_id: v.account,
        created_at: v.at,
        ended_at: null,
        tunnel_id: v.tunnel,
        resource_id: v.resource,
        way: v.way,
        client_ip: v.ip,
        agent_id: v.agent,
        safe_mode: v.safe,
      })
      .returning('id'),
);

const endOne = prepared(['id', 'at'], (db, v) =>
  db
    .updateTable('tunnel_connection')
    .set({ ended_at: v.at })
    .where('id', '=', v.id)
    .where('ended_at', 'is', null),
);

export async function openConnection(
  ctx: AppContext,
  grant: Grant,
  origin: ConnectionOrigin,
): Promise<number> {
  const { resolved } = grant;
  const row = await insertConnection.first(ctx.db, {
    company: resolved.company_id,
    account: resolved.account.id,
    at: nowSeconds(),
    tunnel: resolved.tunnel_id,
    resource: resolved.resource.id,
    way: origin.way,
    ip: origin.clientIp,
    agent: origin.agentId ?? null,
    safe: origin.safeMode ? 1 : 0,
  });
  if (!row) throw new Error('the new connection row has no id');
  return row.id;
}

/**
 * The sessions open now on a resource, or on a cluster's resources (every team's: rules and
 * security mode are the resource's and the cluster's), optionally of some ways only; the ids
 * the settings forms count and cut when their rules change.
 */
export async function openSessionIds(
  ctx: AppContext,
  scope: { resourceId: number } | { networkId: number },
  ways?: readonly string[],
): Promise<number[]> {
  let q = ctx.db
    .selectFrom('tunnel_connection')
    .innerJoin('resource', 'resource.id', 'tunnel_connection.resource_id')
    .select('tunnel_connection.id')
    .where('tunnel_connection.ended_at', 'is', null)
    .where('tunnel_connection.op', '=', '');
  q =
    'resourceId' in scope
      ? q.where('tunnel_connection.resource_id', '=', scope.resourceId)
      : q.where('resource.network_id', '=', scope.networkId);
  if (ways) q = q.where('tunnel_connection.way', 'in', [...ways]);
  return (await q.execute()).map((r) => r.id);
}

/** Ids per ending update, well under either backend's parameter limit. */
const IDS_PER_UPDATE = 10_000;

export async function endConnections(ctx: AppContext, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  if (ids.length === 1) {
    await endOne.execute(ctx.db, { id: ids[0], at: nowSeconds() });
    return;
  }
  // In slices: a cluster-wide cut (a safe-mode save) may name more ids than a statement takes.
  for (let i = 0; i < ids.length; i += IDS_PER_UPDATE) {
    await ctx.db
      .updateTable('tunnel_connection')
      .set({ ended_at: nowSeconds() })
      .where('id', 'in', ids.slice(i, i + IDS_PER_UPDATE))
      .where('ended_at', 'is', null)
      .execute();
  }
}

/**
 * Rows whose gateway connection is gone: it ended (the agent row says so), or it has been silent
 * past HEARTBEAT_GRACE_SECONDS (its server died with it and could not say so). The gateway ended
 * those sessions itself when its control channel went (gateway control/session-requests.ts);
 * left open, the rows stayed online for ever and a cut of them answered ok and reached nobody.
 * A row of a gateway connection that is still alive, on this replica or another, stays.
 * `unknown`: rows that name no gateway connection (made before migration 017) go too: at
 * start-up, where no gateway of this replica is connected yet. Returns how many were ended.
 */
export async function endConnectionsOfLostGateways(
  ctx: AppContext,
  { unknown }: { unknown: boolean },
): Promise<number> {
  const now = nowSeconds();
  // They ended when their gateway lost its control channel: about when it was last heard from
  // (or said goodbye), not now, which may be long after (the outage of a server that crashed).
  const lastHeard = sql<number>`(select coalesce(agent.disconnected_at, agent.last_seen_at)
    from agent where agent.id = tunnel_connection.agent_id)`;
  const later = sql.raw(ctx.dialect === 'sqlite' ? 'max' : 'greatest');
  const endedAt = sql<number>`case when ${lastHeard} is null then ${now}
    else ${later}(tunnel_connection.created_at, ${lastHeard}) end`;
  const result = await ctx.db
    .updateTable('tunnel_connection')
    .set({ ended_at: endedAt })
    .where('ended_at', 'is', null)
    .where((eb) => {
      // Alive: connected, and heard from within the grace the console uses for "available"
      // (heartbeats come every HEARTBEAT_SECONDS; a watchdog setting must not shorten this).
      const lost = eb.not(
        eb.exists(
          eb
            .selectFrom('agent')
            .select('agent.id')
            .whereRef('agent.id', '=', 'tunnel_connection.agent_id')
            .where('agent.disconnected_at', 'is', null)
            .where('agent.last_seen_at', '>', now - HEARTBEAT_GRACE_SECONDS),
        ),
      );
      return unknown
        ? eb.or([eb('tunnel_connection.agent_id', 'is', null), lost])
        : eb.and([eb('tunnel_connection.agent_id', 'is not', null), lost]);
    })
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
