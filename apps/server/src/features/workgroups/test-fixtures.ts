/**
 * Fixtures for the workgroup and code tests: clusters with resources made through the API, a
 * gateway that counts as connected (an agent row heartbeating into the future, so no real
 * gateway is needed for what these tests check), members signed in, and workgroups.
 * Test-only; nothing in the server imports it.
 */
import { DEFAULT_PORTS } from '../../../../gateway/src/core/ports';
import { addMember, signedIn, type TestApp, type TestClient } from '../../test/harness';

export const GATEWAY_HOST = 'gw.example.test';

/** A gateway's ports as its hello says them: the gateway's own defaults. */
export const GATEWAY_PORTS = DEFAULT_PORTS;

export interface ClusterFixture {
  id: number;
  name: string;
}

export async function createCluster(admin: TestClient, name: string): Promise<ClusterFixture> {
  const res = await admin.post('/api/v1/network', { name });
  if (res.statusCode !== 200) throw new Error(`create cluster: ${res.body}`);
  return { id: res.json().id, name };
}

/** The key a gateway of the cluster dials in with, as its install command carries it. */
export async function clusterKey(admin: TestClient, clusterId: number): Promise<string> {
  const install = (await admin.get(`/api/v1/network/${clusterId}/agent_scripts`)).json()
    .install as string;
  const key = /'(pck_[A-Za-z0-9_-]+)'/.exec(install)?.[1];
  if (!key) throw new Error(`no key in the install command: ${install}`);
  return key;
}

/**
 * The test app listening on loopback, its administrator signed in, and a cluster "Lab" with
 * the key its gateway dials in with: what every stack with a real gateway starts from.
 */
export async function listeningWithCluster(t: TestApp): Promise<{
  address: string;
  admin: TestClient;
  clusterId: number;
  key: string;
}> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signedIn(t);
  const clusterId = (await createCluster(admin, 'Lab')).id;
  return { address, admin, clusterId, key: await clusterKey(admin, clusterId) };
}

/** Marks a gateway of the cluster connected (until `live` is false) at GATEWAY_HOST. */
export async function connectGateway(
  t: TestApp,
  networkId: number,
  options: { live?: boolean; host?: string; version?: string } = {},
): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const live = options.live ?? true;
  await t.ctx.db
    .insertInto('agent')
    .values({
      network_id: networkId,
      instance: `test-${networkId}-${Math.random().toString(36).slice(2)}`,
      version: options.version ?? '3.0.0',
      host: options.host ?? GATEWAY_HOST,
      ports: JSON.stringify(GATEWAY_PORTS),
      features: '["ssh","mysql"]',
      remote_ip: '127.0.0.1',
      connected_at: now,
      // Heartbeating into the future: stays connected however long the test runs.
      last_seen_at: live ? now + 86_400 : now - 3600,
      disconnected_at: live ? null : now - 3600,
    })
    .execute();
}

export async function addLinux(
  admin: TestClient,
  networkId: number,
  name: string,
  ip: string,
  users: string[] = ['root', 'deploy'],
): Promise<number> {
  const res = await admin.post('/api/v1/resource', {
    network_id: networkId,
    name,
    ip_address: ip,
    os: 'linux',
    port: 22,
    login_users: users.map((username) => ({ username, auth_type: 0, password: 'Secret#Pass1' })),
  });
  if (res.statusCode !== 200) throw new Error(`add linux: ${res.body}`);
  return res.json().id;
}

export async function addWindows(
  admin: TestClient,
  networkId: number,
  name: string,
  ip: string,
): Promise<number> {
  const res = await admin.post('/api/v1/resource', {
    network_id: networkId,
    name,
    ip_address: ip,
    os: 'win32',
    port: 3389,
    login_users: [{ username: 'administrator', auth_type: 0, password: 'Secret#Pass1' }],
  });
  if (res.statusCode !== 200) throw new Error(`add windows: ${res.body}`);
  return res.json().id;
}

export async function addMysql(
  admin: TestClient,
  networkId: number,
  name: string,
  ip: string,
): Promise<number> {
  const res = await admin.post('/api/v1/resource', {
    network_id: networkId,
    name,
    ip_address: ip,
    os: 'mysql',
    port: 3306,
    username: 'app',
    password: 'Db#Secret3',
    databases: 'orders;billing',
  });
  if (res.statusCode !== 200) throw new Error(`add mysql: ${res.body}`);
  return res.json().id;
}

export async function createWorkgroup(admin: TestClient, name: string, desc = ''): Promise<number> {
  const res = await admin.post('/api/v1/project', { name, desc });
  if (res.statusCode !== 200) throw new Error(`create workgroup: ${res.body}`);
  return res.json().id;
}

export async function addResourcesTo(
  admin: TestClient,
  projectId: number,
  resourceIds: number[],
): Promise<void> {
  const res = await admin.post(`/api/v1/project/resources/${projectId}`, {
    resource_ids: resourceIds,
  });
  if (res.statusCode !== 200) throw new Error(`add resources: ${res.body}`);
}

export async function addMembersTo(
  client: TestClient,
  projectId: number,
  accountIds: number[],
  role: 0 | 1 = 0,
): Promise<void> {
  const res = await client.post(`/api/v1/project/members/${projectId}`, {
    account_ids: accountIds,
    role,
  });
  if (res.statusCode !== 200) throw new Error(`add members: ${res.body}`);
}

/** The project resource id of a resource inside a workgroup, as the administrator sees it. */
export async function projectResourceId(
  admin: TestClient,
  projectId: number,
  resourceId: number,
): Promise<number> {
  const res = await admin.get(`/api/v1/project/resources/${projectId}?page_size=1000`);
  const row = (res.json().objects as { id: number; resource_id: number }[]).find(
    (r) => r.resource_id === resourceId,
  );
  if (!row) throw new Error(`resource ${resourceId} not in workgroup ${projectId}`);
  return row.id;
}

/** A signed-in member of the first team with this role. */
export async function member(
  t: TestApp,
  email: string,
  role = 0,
): Promise<{ id: number; client: TestClient }> {
  const row = await addMember(t, email, role);
  return { id: row.id, client: await signedIn(t, email, 'Member#Pass1') };
}

/** The default workgroup of a cluster. */
export async function defaultWorkgroupOf(admin: TestClient, networkId: number): Promise<number> {
  const list = await admin.get('/api/v1/project/list?page_size=1000');
  const row = (list.json().objects as { id: number; network_id: number }[]).find(
    (w) => w.network_id === networkId,
  );
  if (!row) throw new Error(`no default workgroup for cluster ${networkId}`);
  return row.id;
}

/** An error reply's status and code, for compact assertions. */
export function failure(res: { statusCode: number; json: () => { code?: string } }): string {
  return `${res.statusCode} ${res.json().code ?? ''}`;
}
