/**
 * A session start that races its gateway's disconnect: the gateway asks the server to start a
 * session and its channel closes before the answer (a network blip, the gateway stopping). The
 * gateway never hears of the session, so its row must not stay online. A fake gateway speaks
 * the control protocol to the real server.
 */
import { CONTROL_PATH, CONTROL_PROTOCOL, type ServerMessage } from '@portcullis/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';
import { createTestApp, signedIn, type TestApp } from '../../test/harness';
import {
  addLinux,
  addMembersTo,
  addResourcesTo,
  clusterKey,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';

const ports = {
  ssh_port: 9998,
  webssh_port: 8889,
  mysql_port: 9696,
  postgresql_port: 9432,
  mssql_port: 9433,
  rdp_port: 9389,
  webrdp_port: 8389,
};

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

const hello = {
  type: 'hello',
  version: PUBLISHED_GATEWAY_VERSION,
  host: 'gw',
  ports,
  features: ['ssh'],
};

function fakeGateway(base: string, key: string) {
  const ws = new WebSocket(base + CONTROL_PATH, { headers: { authorization: `Bearer ${key}` } });
  const messages: (ServerMessage & { request_id?: string })[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as ServerMessage));
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  const send = (m: object) => ws.send(JSON.stringify({ v: CONTROL_PROTOCOL, ...m }));
  const reply = async (id: string) => {
    await until(() => messages.some((m) => m.request_id === id));
    return messages.find((m) => m.request_id === id) as Record<string, unknown>;
  };
  return { ws, messages, opened, closed, send, reply };
}

describe('a session start racing its gateway’s disconnect', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  let code: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const admin = await signedIn(t);
    const lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    key = await clusterKey(admin, lab);
    const server = await addLinux(admin, lab, 'box', '127.0.0.1', ['root']);
    const wg = await createWorkgroup(admin, 'Race');
    await addResourcesTo(admin, wg, [server]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, wg, [erin.id]);
    // A code is made while a gateway of its cluster is connected; this one stays.
    const steady = fakeGateway(base, key);
    await steady.opened;
    steady.send(hello);
    await until(() => steady.messages.some((m) => m.type === 'welcome'));
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, wg, server),
    });
    expect(made.statusCode, made.body).toBe(200);
    code = made.json().code as string;
  });
  afterAll(() => t.close());

  it('leaves no session online that no gateway carries', async () => {
    for (let round = 0; round < 5; round++) {
      const g = fakeGateway(base, key);
      await g.opened;
      g.send({
        type: 'hello',
        version: PUBLISHED_GATEWAY_VERSION,
        host: 'gw',
        ports,
        features: ['ssh'],
      });
      await until(() => g.messages.some((m) => m.type === 'welcome'));
      g.send({ type: 'resolve_code', request_id: 'r', code, client_ip: '127.0.0.1' });
      const { grant } = await g.reply('r');
      g.send({
        type: 'session_credential',
        request_id: 'c',
        grant,
        username: 'root',
        kind: 'linux',
      });
      await g.reply('c');
      g.send({ type: 'session_start', request_id: 's', grant, client_ip: '127.0.0.1', way: 'ssh' });
      g.ws.close();
      await g.closed;
    }
    // Before, on PostgreSQL every round left its row online for good.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const online = await t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('ended_at', 'is', null)
      .execute();
    expect(online).toEqual([]);
  });
});
