/**
 * The set-up the session tests share, done through the API as an administrator would: a
 * cluster and its gateway key, a real gateway dialled in with it, a member who has set a
 * password from the invitation mail, and a workgroup that grants resources to members.
 */
import type { BrowserContext } from 'playwright-core';
import {
  startGateway,
  type Gateway,
  type GatewayOptions,
} from '../apps/gateway/src/control/client';
import { api } from './console';
import { lastMailLink, type E2E } from './harness';

/** The key a cluster's install script carries (what a gateway dials in with). */
export async function clusterKey(admin: BrowserContext, clusterId: number): Promise<string> {
  const scripts = await api<{ install: string }>(
    admin,
    'GET',
    `/v1/network/${clusterId}/agent_scripts`,
  );
  return /'(pck_[A-Za-z0-9_-]+)'/.exec(scripts.install)?.[1] ?? '';
}

/** A new cluster and the key its install script carries. */
export async function clusterWithKey(
  admin: BrowserContext,
  name: string,
): Promise<{ clusterId: number; key: string }> {
  const clusterId = (await api<{ id: number }>(admin, 'POST', '/v1/network', { name })).id;
  return { clusterId, key: await clusterKey(admin, clusterId) };
}

/**
 * A real gateway dialled in to the e2e server with a cluster's key, once welcomed and once the
 * services `options` asks for (SSH proxy, web terminal, database proxies) listen. A gateway
 * that does not get that far is stopped before the error is thrown.
 */
export async function connectedGateway(
  e2e: E2E,
  key: string,
  options: Omit<GatewayOptions, 'server' | 'key'>,
): Promise<Gateway> {
  const gateway = startGateway({ server: e2e.baseUrl, key, ...options });
  try {
    await gateway.connected;
    await Promise.all([gateway.sshProxy, gateway.webTerminal, gateway.databaseProxies]);
  } catch (err) {
    await gateway.stop();
    throw err;
  }
  return gateway;
}

/** An ordinary member, invited and with their password set through the mailed link. */
export async function addMember(
  e2e: E2E,
  admin: BrowserContext,
  who: { account: string; name: string; password: string },
): Promise<number> {
  const id = (
    await api<{ id: number }>(admin, 'POST', '/v1/account', {
      account: who.account,
      name: who.name,
      is_admin: 0,
    })
  ).id;
  const link = new URL(lastMailLink(e2e));
  await api(admin, 'POST', '/auth/reset_passwd', {
    code: link.searchParams.get('code'),
    account: who.account,
    pwd: who.password,
  });
  return id;
}

/**
 * A workgroup granting `resourceIds` to `memberIds` (ordinary members); returns it and its
 * project resource ids of one tab (servers or databases), in the list's order.
 */
export async function workgroupWith(
  admin: BrowserContext,
  name: string,
  resourceIds: number[],
  memberIds: number[],
  type: 'ecs' | 'rds' = 'ecs',
): Promise<{ workgroupId: number; projectResourceIds: number[] }> {
  const workgroupId = (await api<{ id: number }>(admin, 'POST', '/v1/project', { name })).id;
  await api(admin, 'POST', `/v1/project/resources/${workgroupId}`, { resource_ids: resourceIds });
  await api(admin, 'POST', `/v1/project/members/${workgroupId}`, {
    account_ids: memberIds,
    role: 0,
  });
  const rows = await api<{ objects: { id: number }[] }>(
    admin,
    'GET',
    `/v1/project/resources/${workgroupId}?type=${type}`,
  );
  return { workgroupId, projectResourceIds: rows.objects.map((r) => r.id) };
}
