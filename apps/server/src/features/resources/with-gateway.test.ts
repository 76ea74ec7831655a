/**
 * The whole path with real parts: the real server, the real gateway process code dialing it
 * with the cluster key, and real targets on loopback (OpenSSH sshd, MariaDB). A connectivity
 * test really logs in; a scan of 127.0.0.0/24 (and only that range) finds the sshd.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { startGateway, type Gateway } from '../../../../gateway/src/control/client';
import { startSshd, type SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';
import { clusterKey } from '../workgroups/test-fixtures';

async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  seconds = 30,
): Promise<T> {
  let value = await read();
  for (let i = 0; i < seconds * 10 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('with a real gateway', () => {
  let t: TestApp;
  let admin: TestClient;
  let gateway: Gateway;
  let sshd: SshdPeer;
  let networkId: number;
  let key: string;
  let address: string;
  const dbUser = `pc_probe_${crypto.randomBytes(3).toString('hex')}`;
  const dbPassword = `Probe#${crypto.randomBytes(6).toString('hex')}`;
  let root: mysql.Connection;

  beforeAll(async () => {
    t = await createTestApp();
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedIn(t);
    networkId = (await admin.post('/api/v1/network', { name: 'Loopback' })).json().id;
    key = await clusterKey(admin, networkId);
    sshd = await startSshd();
    root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    await root.query(`CREATE USER '${dbUser}'@'%' IDENTIFIED BY '${dbPassword}'`);
  });
  afterAll(async () => {
    await gateway?.stop();
    await sshd?.stop();
    await root?.query(`DROP USER IF EXISTS '${dbUser}'@'%'`);
    await root?.end();
    await t.close();
  });

  it('comes alive when its gateway connects', async () => {
    gateway = startGateway({ server: address, key, host: 'gw.loopback' });
    await gateway.connected;
    const cluster = await poll(
      async () => (await admin.get(`/api/v1/network/${networkId}`)).json(),
      (c) => c.agent_status === 1,
    );
    expect(cluster).toMatchObject({
      agent_status: 1,
      agent_version: PUBLISHED_GATEWAY_VERSION,
      need_update: false,
      agent: { host: 'gw.loopback' },
    });
  });

  async function test(resourceId: number, username?: string) {
    const start = await admin.post('/api/service_connection_test', {
      resource_id: resourceId,
      ...(username && { username }),
    });
    expect(start.statusCode, start.body).toBe(200);
    return poll(
      async () =>
        (
          await admin.get(`/api/query_service_connection_test?task_id=${start.json().task_id}`)
        ).json(),
      (s) => s.status !== 'pending',
    );
  }

  it('logs in to a real sshd with the right password and not with a wrong one', async () => {
    const res = await admin.post('/api/v1/resource', {
      network_id: networkId,
      name: 'sshd',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [
        { username: sshd.user, auth_type: 0, password: sshd.password },
        { username: 'nobody-here', auth_type: 0, password: 'wrong' },
      ],
    });
    const id = res.json().id as number;
    expect(await test(id, sshd.user)).toEqual({ status: 'enable', reason: '' });
    expect((await test(id, 'nobody-here')).status).toBe('disable');
    const resource = (await admin.get(`/api/v1/resource/${id}`)).json();
    expect(resource.extension.data.map((d: { test_result: string }) => d.test_result)).toEqual([
      'enable',
      'disable',
    ]);
  });

  it('logs in to a real MariaDB, and reports a wrong password', async () => {
    const ok = await admin.post('/api/v1/resource', {
      network_id: networkId,
      name: 'mariadb',
      ip_address: '127.0.0.1',
      os: 'mysql',
      port: 3306,
      username: dbUser,
      password: dbPassword,
      databases: '*',
    });
    expect(await test(ok.json().id)).toEqual({ status: 'enable', reason: '' });
    const changed = await admin.patch(`/api/v1/resource/${ok.json().id}`, {
      password: 'not-the-password',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await test(ok.json().id)).toMatchObject({ status: 'disable', reason: 'auth_failed' });
    // The last result is kept for the list, as for a server's login users.
    const stored = (await admin.get(`/api/v1/resource/${ok.json().id}`)).json();
    expect(stored.extension.data).toEqual([
      { username: dbUser, auth_type: 0, test_result: 'disable' },
    ]);
  });

  it('scans 127.0.0.0/24 for the sshd’s port and marks the address already added', async () => {
    const start = await admin.post('/api/service_discovery_start', {
      network_id: networkId,
      cidr: '127.0.0.0/24',
      port: sshd.port,
      os: 'linux',
      username: 'root',
    });
    const found = await poll(
      async () =>
        (await admin.get(`/api/service_discovery_query?task_id=${start.json().task_id}`)).json(),
      (s) => s.status !== 'pending',
      60,
    );
    expect(found.status).toBe('done');
    expect(found.objects).toContainEqual({ ip: '127.0.0.1', port: sshd.port, exists: true });
  });

  it('goes unavailable when its gateway stops', async () => {
    await gateway.stop();
    const cluster = await poll(
      async () => (await admin.get(`/api/v1/network/${networkId}`)).json(),
      (c) => c.agent_status === 0,
    );
    expect(cluster.agent_status).toBe(0);
    expect(t.logs()).not.toContain(sshd.password);
    expect(t.logs()).not.toContain(dbPassword);
  });
});
