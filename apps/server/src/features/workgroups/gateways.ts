/**
 * The gateway of each cluster as members see it: where to connect (host and ports), its
 * version and features, and whether one is connected now. When none is connected the last one
 * seen still gives the address, so codes and inventories keep pointing at the right place.
 */
import {
  AGENT_DEFAULT_PORTS,
  GatewayPortsSchema,
  HEARTBEAT_GRACE_SECONDS,
  HOST_PATTERN,
  type GatewayPorts,
  type ResourceAgent,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';

const DEFAULT_PORTS: GatewayPorts = {
  ssh_port: AGENT_DEFAULT_PORTS.ssh,
  webssh_port: AGENT_DEFAULT_PORTS.webSsh,
  mysql_port: AGENT_DEFAULT_PORTS.mysql,
  postgresql_port: AGENT_DEFAULT_PORTS.postgresql,
  mssql_port: AGENT_DEFAULT_PORTS.mssql,
  rdp_port: AGENT_DEFAULT_PORTS.rdp,
  webrdp_port: AGENT_DEFAULT_PORTS.webRdp,
};

function parsePorts(text: string): GatewayPorts {
  try {
    const parsed = GatewayPortsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : DEFAULT_PORTS;
  } catch {
    return DEFAULT_PORTS;
  }
}

function parseFeatures(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The newest gateway of each cluster (status 1 while connected and heartbeating). The host is
 * whatever the gateway reported; only a host name or IPv4 address is passed on, because it is
 * written into commands and inventories.
 */
export async function clusterGateways(
  ctx: AppContext,
  networkIds: number[],
): Promise<Map<number, ResourceAgent>> {
  const map = new Map<number, ResourceAgent>();
  if (networkIds.length === 0) return map;
  const rows = await ctx.db
    .selectFrom('agent')
    .selectAll()
    .where('network_id', 'in', [...new Set(networkIds)])
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const liveSince = nowSeconds() - HEARTBEAT_GRACE_SECONDS;
  for (const row of rows) {
    const live = row.disconnected_at === null && row.last_seen_at > liveSince;
    const known = map.get(row.network_id);
    // The first row is the newest; a live gateway still wins over a newer dead one.
    if (known && (known.status === 1 || !live)) continue;
    map.set(row.network_id, {
      host: HOST_PATTERN.test(row.host) ? row.host : '',
      version: row.version,
      status: live ? 1 : 0,
      features: parseFeatures(row.features),
      ports: parsePorts(row.ports),
    });
  }
  return map;
}

/** The gateway port a client uses for a resource of this os. */
export function gatewayPort(agent: ResourceAgent, os: string): number {
  const ports = agent.ports;
  const pick: Record<string, number> = {
    linux: ports.ssh_port || DEFAULT_PORTS.ssh_port,
    win32: ports.rdp_port || DEFAULT_PORTS.rdp_port,
    mysql: ports.mysql_port || DEFAULT_PORTS.mysql_port,
    postgresql: ports.postgresql_port || DEFAULT_PORTS.postgresql_port,
    mssql: ports.mssql_port || DEFAULT_PORTS.mssql_port,
  };
  return pick[os] ?? 0;
}
