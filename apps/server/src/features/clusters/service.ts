/**
 * Clusters of a team: create (with a fresh gateway key), rename and settings, delete, and the
 * state of their gateways (the agent pool).
 */
import {
  HEARTBEAT_GRACE_SECONDS,
  isInsecureRemoteHttp,
  needsUpdate,
  type Cluster,
  type GatewayFeature,
  type GatewayPorts,
} from '@portcullis/contract';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { AgentTable, NetworkTable } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { currentPlan } from '../accounts';
import { SCRIPT_KEY, SCRIPT_SERVER } from '../agent-dist/script-values';
import { writeEvent } from '../events/writer';
import { PUBLISHED_GATEWAY_VERSION } from './gateway-version';

type NetworkRow = Selectable<NetworkTable>;
type AgentRow = Selectable<AgentTable>;

/** Gateways of these clusters that are connected and heartbeating now, newest first. */
export async function liveAgents(
  ctx: AppContext,
  networkIds: number[],
): Promise<Map<number, AgentRow[]>> {
  const byNetwork = new Map<number, AgentRow[]>();
  if (networkIds.length === 0) return byNetwork;
  const rows = await ctx.db
    .selectFrom('agent')
    .selectAll()
    .where('network_id', 'in', networkIds)
    .where('disconnected_at', 'is', null)
    .where('last_seen_at', '>', nowSeconds() - HEARTBEAT_GRACE_SECONDS)
    .orderBy('connected_at', 'desc')
    .execute();
  for (const row of rows) {
    const list = byNetwork.get(row.network_id) ?? [];
    list.push(row);
    byNetwork.set(row.network_id, list);
  }
  return byNetwork;
}

/** Whether every connected gateway of the cluster says it has `feature` (none: false). */
export async function everyGatewayHas(
  ctx: AppContext,
  networkId: number,
  feature: GatewayFeature,
): Promise<boolean> {
  const agents = (await liveAgents(ctx, [networkId])).get(networkId) ?? [];
  const able = agents.filter((a) => {
    try {
      return (JSON.parse(a.features) as unknown[]).includes(feature);
    } catch {
      return false;
    }
  });
  return agents.length > 0 && able.length === agents.length;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** `owner` is set when the caller sees a cluster another team shared with it. */
export function clusterReply(
  row: NetworkRow,
  agents: AgentRow[],
  resourceCount: number,
  owner: { full_name: string } | null = null,
): Cluster {
  const newest = agents[0];
  const version = newest?.version ?? '';
  return {
    id: row.id,
    name: row.name,
    // A shared cluster points at its owner's cluster and team (spec 2 §3 parent_id).
    parent_id: owner ? row.id : null,
    parent_company: owner,
    agent_status: agents.length > 0 ? 1 : 0,
    agent_version: version,
    agent: newest
      ? {
          version,
          host: newest.host,
          features: parseJson<string[]>(newest.features, []),
          ports: parseJson<GatewayPorts>(newest.ports, {
            ssh_port: 0,
            webssh_port: 0,
            mysql_port: 0,
            postgresql_port: 0,
            mssql_port: 0,
            rdp_port: 0,
            webrdp_port: 0,
          }),
          connected: agents.length,
        }
      : null,
    need_update: needsUpdate(version, PUBLISHED_GATEWAY_VERSION),
    resource_count: resourceCount,
    safe_mode: row.safe_mode,
    info: {
      max_tunnel_expire_time: row.max_tunnel_expire_time,
      is_open_map: row.is_open_map === 1,
      port_map_info: parseJson(row.port_map_info, []),
    },
    create_time: row.created_at,
  };
}

/** How many resources each cluster holds. */
export async function resourceCounts(
  ctx: AppContext,
  networkIds: number[],
): Promise<Map<number, number>> {
  if (networkIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('resource')
    .select(['network_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('network_id', 'in', networkIds)
    .groupBy('network_id')
    .execute();
  return new Map(rows.map((r) => [r.network_id, Number(r.n)]));
}

export async function teamCluster(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<NetworkRow> {
  const row = await ctx.db
    .selectFrom('network')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', auth.company.id)
    .executeTakeFirst();
  if (!row) throw new AppError('NetworkNotFound');
  return row;
}

/** A cluster of the caller's team or shared with it; others answer NetworkNotFound. */
export async function visibleCluster(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await ctx.db
    .selectFrom('network')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('NetworkNotFound');
  if (row.company_id === auth.company.id) return { row, shared: false };
  const share = await ctx.db
    .selectFrom('network_share')
    .select('id')
    .where('network_id', '=', id)
    .where('company_id', '=', auth.company.id)
    .executeTakeFirst();
  if (!share) throw new AppError('NetworkNotFound');
  return { row, shared: true };
}

export async function clusterById(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<Cluster> {
  const { row } = await visibleCluster(ctx, auth, id);
  const agents = await liveAgents(ctx, [row.id]);
  const counts = await resourceCounts(ctx, [row.id]);
  return clusterReply(
    row,
    agents.get(row.id) ?? [],
    counts.get(row.id) ?? 0,
    await ownerOf(ctx, auth, row),
  );
}

/** The owning team's name when the caller sees another team's shared cluster. */
export async function ownerOf(
  ctx: AppContext,
  auth: AuthContext,
  row: NetworkRow,
): Promise<{ full_name: string } | null> {
  if (row.company_id === auth.company.id) return null;
  const owner = await ctx.db
    .selectFrom('company')
    .select('full_name')
    .where('id', '=', row.company_id)
    .executeTakeFirst();
  return owner ?? { full_name: '' };
}

export async function countClusters(ctx: AppContext, companyId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('network')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function assertNameFree(ctx: AppContext, companyId: number, name: string, exceptId?: number) {
  let q = ctx.db
    .selectFrom('network')
    .select('id')
    .where('company_id', '=', companyId)
    .where('name_key', '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw new AppError('NetworkNameExist');
}

/** A new cluster key: shown in the install command, stored sealed and as a hash for look-up. */
function newKey(ctx: AppContext): { key: string; key_hash: string; key_sealed: string } {
  const key = `pck_${randomToken(32)}`;
  return { key, key_hash: sha256Hex(key), key_sealed: ctx.sealer.seal(key) };
}

export async function createCluster(
  ctx: AppContext,
  auth: AuthContext,
  name: string,
): Promise<Cluster> {
  const plan = await currentPlan(ctx, auth.company.id);
  if (
    plan &&
    plan.network_limit > 0 &&
    (await countClusters(ctx, auth.company.id)) >= plan.network_limit
  ) {
    throw new AppError('NetworkExceeded');
  }
  await assertNameFree(ctx, auth.company.id, name);
  const { key_hash, key_sealed } = newKey(ctx);
  const row = await ctx.db
    .insertInto('network')
    .values({
      company_id: auth.company.id,
      name,
      name_key: name.toLowerCase(),
      key_hash,
      key_sealed,
      max_tunnel_expire_time: 0,
      is_open_map: 0,
      port_map_info: '[]',
      safe_mode: 0,
      safe_mode_approver: 0,
      safe_mode_notice: 0,
      created_at: nowSeconds(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch((error: unknown) => {
      if (/unique|duplicate/i.test(String((error as Error).message)))
        throw new AppError('NetworkNameExist');
      throw error;
    });
  await writeEvent(ctx, auth, 'cluster', 'createNet', { net_name: row.name });
  return clusterReply(row, [], 0);
}

export async function updateCluster(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  change: {
    name?: string | undefined;
    max_tunnel_expire_time?: number | undefined;
    is_open_map?: boolean | undefined;
    port_map_info?: { ip_name: string; origin_port: number; map_port: number }[] | undefined;
    agent_id?: null | undefined;
  },
): Promise<Cluster> {
  const row = await teamCluster(ctx, auth, id);
  if (change.name !== undefined) await assertNameFree(ctx, auth.company.id, change.name, row.id);
  if (change.agent_id === null) await detachGateways(ctx, row.id);
  const set = {
    ...(change.name !== undefined && { name: change.name, name_key: change.name.toLowerCase() }),
    ...(change.max_tunnel_expire_time !== undefined && {
      max_tunnel_expire_time: change.max_tunnel_expire_time,
    }),
    ...(change.is_open_map !== undefined && { is_open_map: change.is_open_map ? 1 : 0 }),
    ...(change.port_map_info !== undefined && {
      port_map_info: JSON.stringify(change.port_map_info),
    }),
  };
  if (Object.keys(set).length > 0) {
    await ctx.db.updateTable('network').set(set).where('id', '=', row.id).execute();
  }
  await writeEvent(ctx, auth, 'cluster', 'updateNet', { net_name: change.name ?? row.name });
  return clusterById(ctx, auth, row.id);
}

/**
 * After an uninstall: the cluster forgets its gateways and gets a new key, so a copy of the old
 * installation left running (or restored from a backup) is refused; the setting tab then shows
 * install commands with the new key.
 */
async function detachGateways(ctx: AppContext, networkId: number): Promise<void> {
  const { key_hash, key_sealed } = newKey(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('network')
      .set({ key_hash, key_sealed })
      .where('id', '=', networkId)
      .execute();
    await trx.deleteFrom('agent').where('network_id', '=', networkId).execute();
  });
  ctx.gateways.detach(networkId);
}

export async function deleteCluster(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const row = await teamCluster(ctx, auth, id);
  if (((await resourceCounts(ctx, [row.id])).get(row.id) ?? 0) > 0)
    throw new AppError('NetworkHasResources');
  const shares = await ctx.db
    .selectFrom('network_share')
    .select('id')
    .where('network_id', '=', row.id)
    .executeTakeFirst();
  if (shares) throw new AppError('NetworkHasBeenShared');
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('task').where('network_id', '=', row.id).execute();
    await trx.deleteFrom('agent').where('network_id', '=', row.id).execute();
    await trx.deleteFrom('network').where('id', '=', row.id).execute();
  });
  await writeEvent(ctx, auth, 'cluster', 'deleteNet', { net_name: row.name });
}

/**
 * Shell commands for the gateway host. The only values in them are the server's configured
 * address and the cluster's key, both checked here against the install script's own rules,
 * so nothing in them can break out of the single quotes. The key is on no command line a
 * local user could read with `ps`: printf (a shell builtin) hands it to curl on its standard
 * input, and the script curl fetches carries it (and the server's address) itself, served only
 * to that key, so `sudo` runs it without the key in its arguments.
 */
export function agentScripts(ctx: AppContext, row: NetworkRow) {
  const key = ctx.sealer.open(row.key_sealed);
  const server = ctx.config.publicUrl;
  if (!SCRIPT_SERVER.test(server)) {
    throw new Error('PUBLIC_URL cannot go into an install command (letters, digits, . : / _ ~ -)');
  }
  if (!SCRIPT_KEY.test(key)) throw new Error('cluster key in an unexpected format');
  const fetchScript = (action: string) =>
    `printf 'Authorization: Bearer %s\\n' '${key}' | curl -fsSL -H @- '${server}/api/agent/install.sh' | sudo sh -s -- ${action}`;
  return {
    install: fetchScript('install'),
    update: fetchScript('update'),
    rollback: fetchScript('rollback'),
    uninstall: fetchScript('uninstall'),
    latest_version: PUBLISHED_GATEWAY_VERSION,
    insecure_http: isInsecureRemoteHttp(server),
  };
}
