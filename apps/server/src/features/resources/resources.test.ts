import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONTROL_PATH, CONTROL_PROTOCOL, type ServerMessage } from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';
import { clusterKey } from '../workgroups/test-fixtures';

const linux = (networkId: number, extra: Record<string, unknown> = {}) => ({
  network_id: networkId,
  name: 'web-1',
  ip_address: '127.0.0.1',
  os: 'linux',
  port: 22,
  login_users: [
    { username: 'root', auth_type: 0, password: 'Root#Secret1' },
    { username: 'deploy', auth_type: 0, password: 'Deploy#Secret2' },
  ],
  ...extra,
});

const mysql = (networkId: number, extra: Record<string, unknown> = {}) => ({
  network_id: networkId,
  name: 'orders-db',
  ip_address: 'db.internal',
  os: 'mysql',
  port: 3306,
  username: 'app',
  password: 'Db#Secret3',
  databases: 'orders;billing',
  ...extra,
});

describe('resources', () => {
  let t: TestApp;
  let admin: TestClient;
  let networkId: number;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    admin = await signedIn(t);
    networkId = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id;
  });
  afterAll(() => t.close());

  it('adds a Linux server and a MySQL database, never answering a credential', async () => {
    const server = await admin.post('/api/v1/resource', linux(networkId));
    expect(server.statusCode).toBe(200);
    expect(server.json()).toMatchObject({
      name: 'web-1',
      resource_type: 'LinuxServer',
      extension: {
        username: ['root', 'deploy'],
        data: [
          { username: 'root', auth_type: 0, test_result: null },
          { username: 'deploy', auth_type: 0, test_result: null },
        ],
      },
    });
    const db = await admin.post('/api/v1/resource', mysql(networkId));
    expect(db.json()).toMatchObject({
      resource_type: 'MySQLDatabase',
      username: 'app',
      databases: ['orders', 'billing'],
      status: 1,
    });
    const all = [
      server.body,
      db.body,
      (await admin.get(`/api/v1/network/${networkId}/resource`)).body,
    ];
    for (const body of all)
      for (const secret of ['Root#Secret1', 'Deploy#Secret2', 'Db#Secret3'])
        expect(body).not.toContain(secret);
    // Sealed at rest, too.
    const stored = JSON.stringify(
      await t.ctx.db.selectFrom('resource_login').selectAll().execute(),
    );
    for (const secret of ['Root#Secret1', 'Deploy#Secret2', 'Db#Secret3'])
      expect(stored).not.toContain(secret);
    expect((await admin.get(`/api/v1/network/${networkId}`)).json().resource_count).toBe(2);
    expect((await admin.get('/api/v1/summary')).json().resources).toBe(2);
  });

  it('lists servers and databases apart, and searches by name or address', async () => {
    const ecs = (await admin.get(`/api/v1/network/${networkId}/resource?type=ecs`)).json();
    expect(ecs.objects.map((r: { name: string }) => r.name)).toEqual(['web-1']);
    const rds = (await admin.get(`/api/v1/network/${networkId}/resource?type=rds`)).json();
    expect(rds.objects.map((r: { name: string }) => r.name)).toEqual(['orders-db']);
    const byIp = (
      await admin.get(`/api/v1/network/${networkId}/resource?q_name=db.INTERNAL`)
    ).json();
    expect(byIp.num_results).toBe(1);
  });

  it('refuses bad input with the field named, and duplicate names', async () => {
    for (const [body, field] of [
      [linux(networkId, { name: 'x', ip_address: '10.0.0' }), 'ip_address'],
      [linux(networkId, { name: 'x', port: 70000 }), 'port'],
      [linux(networkId, { name: '  ' }), 'name'],
      [linux(networkId, { name: 'x', login_users: [] }), 'login_users'],
      [mysql(networkId, { name: 'y', databases: 'a;*' }), 'databases'],
      [mysql(networkId, { name: 'y', password: '' }), 'password'],
      [mysql(networkId, { name: 'y', ip_address: 'bad host!' }), 'ip_address'],
    ] as const) {
      const res = await admin.post('/api/v1/resource', body);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 'InvalidParameter', field });
    }
    expect(
      (await admin.post('/api/v1/resource', linux(networkId, { name: 'WEB-1' }))).json().code,
    ).toBe('ResourceNameExist');
    expect(
      (
        await admin.post(
          '/api/v1/resource',
          linux(networkId, {
            name: 'dup-users',
            login_users: [
              { username: 'a', auth_type: 0 },
              { username: 'a', auth_type: 0 },
            ],
          }),
        )
      ).json().code,
    ).toBe('InvalidParameter');
    expect((await admin.post('/api/v1/resource', linux(999999, { name: 'z' }))).json().code).toBe(
      'NetworkNotFound',
    );
  });

  it('enforces the plan’s resource quota', async () => {
    await t.ctx.db.updateTable('plan').set({ resource_limit: 2 }).execute();
    expect(
      (await admin.post('/api/v1/resource', linux(networkId, { name: 'web-3' }))).json().code,
    ).toBe('ResourceExceeded');
    await t.ctx.db.updateTable('plan').set({ resource_limit: 20 }).execute();
  });

  it('changes settings and keeps a login user’s secret unless a new one is given', async () => {
    const id = (await admin.get(`/api/v1/network/${networkId}/resource?type=ecs`)).json().objects[0]
      .id;
    const before = await t.ctx.db
      .selectFrom('resource_login')
      .select(['username', 'secret_sealed'])
      .where('resource_id', '=', id)
      .execute();
    const res = await admin.patch(`/api/v1/resource/${id}`, {
      name: 'web-one',
      port: 2222,
      login_users: [
        { username: 'root', auth_type: 0 },
        { username: 'ops', auth_type: 0, password: 'Ops#Secret4' },
      ],
    });
    expect(res.json()).toMatchObject({
      name: 'web-one',
      port: 2222,
      extension: { username: ['root', 'ops'] },
    });
    const after = await t.ctx.db
      .selectFrom('resource_login')
      .select(['username', 'secret_sealed'])
      .where('resource_id', '=', id)
      .execute();
    expect(after.find((l) => l.username === 'root')?.secret_sealed).toBe(
      before.find((l) => l.username === 'root')?.secret_sealed,
    );
    expect(after.find((l) => l.username === 'ops')?.secret_sealed).toBeTruthy();
    await admin.patch(`/api/v1/resource/${id}`, { name: 'web-1', port: 22 });
  });

  it('runs a connectivity test through the cluster’s gateway with the credential for that test only', async () => {
    const id = (await admin.get(`/api/v1/network/${networkId}/resource?type=ecs`)).json().objects[0]
      .id;
    expect(
      (await admin.post('/api/service_connection_test', { resource_id: id })).json().code,
    ).toBe('AgentError');

    const key = await clusterKey(admin, networkId);
    const gw = new WebSocket(base + CONTROL_PATH, { headers: { authorization: `Bearer ${key}` } });
    const got: ServerMessage[] = [];
    gw.on('message', (d) => got.push(JSON.parse(d.toString()) as ServerMessage));
    await new Promise((r) => gw.on('open', r));
    gw.send(
      JSON.stringify({
        v: CONTROL_PROTOCOL,
        type: 'hello',
        version: PUBLISHED_GATEWAY_VERSION,
        host: 'gw',
        ports: {
          ssh_port: 1,
          webssh_port: 1,
          mysql_port: 1,
          postgresql_port: 1,
          mssql_port: 1,
          rdp_port: 1,
          webrdp_port: 1,
        },
        features: [],
      }),
    );
    for (let i = 0; i < 100 && !got.some((m) => m.type === 'welcome'); i++)
      await new Promise((r) => setTimeout(r, 20));

    const start = await admin.post('/api/service_connection_test', {
      resource_id: id,
      username: 'root',
    });
    const taskId = start.json().task_id as string;
    expect(
      (await admin.get(`/api/query_service_connection_test?task_id=${taskId}`)).json(),
    ).toEqual({ status: 'pending', reason: '' });
    for (let i = 0; i < 100 && !got.some((m) => m.type === 'task'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const task = got.find((m) => m.type === 'task');
    expect(task).toMatchObject({
      task: {
        kind: 'connectivity_test',
        target: {
          kind: 'ssh',
          host: '127.0.0.1',
          port: 22,
          username: 'root',
          password: 'Root#Secret1',
        },
      },
    });
    gw.send(
      JSON.stringify({
        v: CONTROL_PROTOCOL,
        type: 'task_result',
        task_id: taskId,
        result: { kind: 'connectivity_test', ok: false, reason: 'auth_failed' },
      }),
    );
    let status;
    for (let i = 0; i < 100; i++) {
      status = (await admin.get(`/api/query_service_connection_test?task_id=${taskId}`)).json();
      if (status.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toEqual({ status: 'disable', reason: 'auth_failed' });
    const resource = (await admin.get(`/api/v1/resource/${id}`)).json();
    expect(resource.extension.data[0]).toMatchObject({ username: 'root', test_result: 'disable' });
    // The password went to the gateway only: not into the task store, not into the logs.
    expect(JSON.stringify(await t.ctx.db.selectFrom('task').selectAll().execute())).not.toContain(
      'Root#Secret1',
    );
    expect(t.logs()).not.toContain('Root#Secret1');

    // A scan: open addresses come back marked when they are already resources.
    const scan = await admin.post('/api/service_discovery_start', {
      network_id: networkId,
      cidr: '127.0.0.0/30',
      port: 22,
      os: 'linux',
      username: 'root',
    });
    const scanId = scan.json().task_id as string;
    for (let i = 0; i < 100 && got.filter((m) => m.type === 'task').length < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    gw.send(
      JSON.stringify({
        v: CONTROL_PROTOCOL,
        type: 'task_result',
        task_id: scanId,
        result: {
          kind: 'scan',
          open: [
            { ip: '127.0.0.1', port: 22 },
            { ip: '127.0.0.2', port: 22 },
          ],
        },
      }),
    );
    let found;
    for (let i = 0; i < 100; i++) {
      found = (await admin.get(`/api/service_discovery_query?task_id=${scanId}`)).json();
      if (found.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(found.objects).toEqual([
      { ip: '127.0.0.1', port: 22, exists: true },
      { ip: '127.0.0.2', port: 22, exists: false },
    ]);
    expect(
      (await admin.get(`/api/service_discovery_query?task_id=${scanId}&hide_duplicate=1`)).json()
        .objects,
    ).toEqual([{ ip: '127.0.0.2', port: 22, exists: false }]);
    const badCidr = await admin.post('/api/service_discovery_start', {
      network_id: networkId,
      cidr: '127.0.0.0/16',
      port: 22,
      os: 'linux',
      username: 'root',
    });
    expect(badCidr.json()).toMatchObject({ code: 'InvalidParameter', field: 'cidr' });
    gw.close();
  });

  it('deletes resources (one, then a batch), and only then the cluster', async () => {
    expect((await admin.delete(`/api/network/${networkId}`)).json().code).toBe(
      'NetworkHasResources',
    );
    const ids = (await admin.get(`/api/v1/network/${networkId}/resource`))
      .json()
      .objects.map((r: { id: number }) => r.id);
    expect((await admin.delete(`/api/resource/${ids[0]}`)).statusCode).toBe(200);
    expect((await admin.delete(`/api/batch/resource/${ids.slice(1).join(',')}`)).statusCode).toBe(
      200,
    );
    expect((await admin.get(`/api/v1/resource/${ids[0]}`)).json().code).toBe('ResourceNotFound');
    const events = (await admin.get('/api/event/get_net_log'))
      .json()
      .objects.map((e: { event: string }) => e.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'addLinuxServer',
        'addMySQLDatabase',
        'deleteLinuxServer',
        'deleteMySQLDatabase',
      ]),
    );
    expect((await admin.delete(`/api/network/${networkId}`)).statusCode).toBe(200);
  });
});
