/**
 * The set-up the session tests share, done through the API as an administrator would: a
 * cluster and its gateway key, a member who has set a password from the invitation mail, and a
 * workgroup that grants resources to members.
 */
import type { BrowserContext } from 'playwright-core';
import { api } from './console';
import { lastMailLink, type E2E } from './harness';

/** A new cluster and the key its install script carries (what a gateway dials in with). */
export async function clusterWithKey(
  admin: BrowserContext,
  name: string,
): Promise<{ clusterId: number; key: string }> {
  const clusterId = (await api<{ id: number }>(admin, 'POST', '/v1/network', { name })).id;
  const scripts = await api<{ install: string }>(
    admin,
    'GET',
    `/v1/network/${clusterId}/agent_scripts`,
  );
  return { clusterId, key: /PORTCULLIS_KEY='([^']+)'/.exec(scripts.install)?.[1] ?? '' };
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
