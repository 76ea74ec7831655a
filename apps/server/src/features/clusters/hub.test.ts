/**
 * The control channel from a gateway's side: a real WebSocket client on the real server,
 * speaking the contract's messages.
 */
import crypto from 'node:crypto';
import net, { type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  CONTROL_PATH,
  CONTROL_PROTOCOL,
  encodeRecordingFrame,
  type ServerMessage,
} from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { PUBLISHED_GATEWAY_VERSION } from './gateway-version';
import { CLOSE_BAD_HELLO, CLOSE_BAD_KEY, CLOSE_UPDATE_REQUIRED } from './hub';
import { clusterKey, GATEWAY_PORTS } from '../workgroups/test-fixtures';

const ports = GATEWAY_PORTS;

describe('gateway control channel', () => {
  let t: TestApp;
  let admin: TestClient;
  let base: string;
  let clusterId: number;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    admin = await signedIn(t);
    clusterId = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id;
    key = await clusterKey(admin, clusterId);
  });
  afterAll(() => t.close());

  function dial(bearer: string | null): {
    ws: WebSocket;
    messages: ServerMessage[];
    closed: Promise<number>;
  } {
    const ws = new WebSocket(base + CONTROL_PATH, {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });
    const messages: ServerMessage[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as ServerMessage));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    return { ws, messages, closed };
  }

  async function until(check: () => boolean | Promise<boolean>): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('timed out');
  }

  const hello = (v = CONTROL_PROTOCOL) =>
    JSON.stringify({
      v,
      type: 'hello',
      version: PUBLISHED_GATEWAY_VERSION,
      host: 'gw.lab',
      ports,
      features: ['ssh', 'scan'],
    });
  const status = async () => (await admin.get(`/api/v1/network/${clusterId}`)).json();

  it('refuses a missing or wrong key', async () => {
    expect(await dial(null).closed).toBe(CLOSE_BAD_KEY);
    expect(await dial('pck_wrong').closed).toBe(CLOSE_BAD_KEY);
  });

  it('marks the cluster available while a gateway is connected, and unavailable when it goes', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello()));
    await until(() => g.messages.some((m) => m.type === 'welcome'));
    expect(g.messages[0]).toMatchObject({
      type: 'welcome',
      cluster_id: clusterId,
      latest_version: PUBLISHED_GATEWAY_VERSION,
    });
    await until(async () => (await status()).agent_status === 1);
    expect((await status()).agent).toMatchObject({
      version: PUBLISHED_GATEWAY_VERSION,
      host: 'gw.lab',
      ports,
      connected: 1,
    });
    g.ws.send(JSON.stringify({ v: CONTROL_PROTOCOL, type: 'heartbeat' }));
    g.ws.close();
    await g.closed;
    await until(async () => (await status()).agent_status === 0);
  });

  it('reads recording chunks as binary frames, says so in welcome, and drops a frame it cannot read', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello()));
    await until(() => g.messages.some((m) => m.type === 'welcome'));
    expect(g.messages[0]).toMatchObject({ type: 'welcome', binary_chunks: true });
    const acks = () => g.messages.filter((m) => m.type === 'recording_ack');
    // No such session in this cluster: refused, but read and answered.
    const data = new Uint8Array([0x7b, 0x7d, 0x0a]);
    g.ws.send(encodeRecordingFrame({ connection_id: 987_654, offset: 0, data }, CONTROL_PROTOCOL));
    await until(() => acks().length === 1);
    expect(acks()[0]).toEqual({
      v: CONTROL_PROTOCOL,
      type: 'recording_ack',
      connection_id: 987_654,
      size: 0,
      refused: true,
    });
    // Another kind of frame: dropped, and the channel goes on (an older gateway's message too).
    g.ws.send(Buffer.from([9, 9, 9]));
    g.ws.send(
      JSON.stringify({
        v: CONTROL_PROTOCOL,
        type: 'recording_chunk',
        connection_id: 987_655,
        offset: 0,
        data: 'e30K',
      }),
    );
    await until(() => acks().length === 2);
    expect(acks()[1]).toMatchObject({ connection_id: 987_655, refused: true });
    g.ws.close();
    await g.closed;
  });

  it('answers a question a gateway waits on before the reports that came with it', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello()));
    await until(() => g.messages.some((m) => m.type === 'welcome'));
    // In one write, as a gateway sends the last session's log and end with the next client's
    // code: reports first, the question last.
    const raw = (g.ws as unknown as { _socket: Socket })._socket;
    raw.cork();
    const data = new Uint8Array(64).fill(0x61);
    for (let i = 0; i < 20; i++) {
      g.ws.send(
        encodeRecordingFrame({ connection_id: 987_700 + i, offset: 0, data }, CONTROL_PROTOCOL),
      );
      g.ws.send(JSON.stringify({ v: CONTROL_PROTOCOL, type: 'session_end', connection_id: i }));
    }
    g.ws.send(
      JSON.stringify({
        v: CONTROL_PROTOCOL,
        type: 'resolve_code',
        request_id: 'next-client',
        code: 'no-such-code',
        client_ip: '127.0.0.1',
      }),
    );
    raw.uncork();
    await until(() => g.messages.filter((m) => m.type === 'recording_ack').length === 20);
    const order = g.messages
      .map((m) => m.type)
      .filter((type) => type === 'code_resolved' || type === 'recording_ack');
    expect(order[0]).toBe('code_resolved');
    g.ws.close();
    await g.closed;
  });

  it('stays up when a gateway’s first word fails in the database, and closes that channel', async () => {
    // The upgrade and the hello in one write: the hello waits for the key's check, then fails
    // (PostgreSQL refuses a NUL in text). Its rejection went unheard and ended the server.
    const url = new URL(base);
    const payload = Buffer.from(
      JSON.stringify({
        v: CONTROL_PROTOCOL,
        type: 'hello',
        version: PUBLISHED_GATEWAY_VERSION,
        host: 'gw\u0000',
        ports,
        features: [],
      }),
    );
    const header = Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
    const upgrade =
      `GET ${CONTROL_PATH} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\n` +
      `Sec-WebSocket-Version: 13\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.resume();
    socket.write(Buffer.concat([Buffer.from(upgrade), header, Buffer.alloc(4), payload]));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await admin.get(`/api/v1/network/${clusterId}`)).statusCode).toBe(200);
    socket.end();
    await closed;
  });

  it('closes a channel whose first word is a binary frame, not hello', async () => {
    const g = dial(key);
    g.ws.on('open', () =>
      g.ws.send(encodeRecordingFrame({ connection_id: 1, offset: 0, data: new Uint8Array(1) }, 2)),
    );
    expect(await g.closed).toBe(CLOSE_BAD_HELLO);
  });

  it('counts a gateway that stopped heartbeating as gone', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello()));
    await until(async () => (await status()).agent_status === 1);
    await t.ctx.db
      .updateTable('agent')
      .set({ last_seen_at: 0 })
      .where('disconnected_at', 'is', null)
      .execute();
    expect((await status()).agent_status).toBe(0);
    g.ws.close();
    await g.closed;
  });

  it('detaches the gateways after an uninstall: they are cut off and their key no longer works', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello()));
    await until(async () => (await status()).agent_status === 1);
    const res = await admin.patch(`/api/network/${clusterId}`, { agent_id: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ agent_status: 0, agent: null });
    expect(await g.closed).toBe(CLOSE_BAD_KEY);
    expect(await dial(key).closed).toBe(CLOSE_BAD_KEY);
    // The setting tab now shows commands with the cluster's new key, which connects.
    const newKey = await clusterKey(admin, clusterId);
    expect(newKey).not.toBe(key);
    key = newKey;
    const again = dial(key);
    again.ws.on('open', () => again.ws.send(hello()));
    await until(async () => (await status()).agent_status === 1);
    again.ws.close();
    await again.closed;
    const events = (await admin.get('/api/event/get_net_log')).json().objects;
    expect(events[0]).toMatchObject({ event: 'updateNet' });
  });

  it('tells a gateway of an older protocol to update', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello(0)));
    expect(await g.closed).toBe(CLOSE_UPDATE_REQUIRED);
    expect(g.messages[0]).toMatchObject({
      type: 'update_required',
      latest_version: PUBLISHED_GATEWAY_VERSION,
    });
  });

  it('hands a task to a connected gateway and stores its result', async () => {
    const g = dial(key);
    g.ws.on('open', () => g.ws.send(hello()));
    await until(() => g.messages.some((m) => m.type === 'welcome'));
    const id = await t.ctx.gateways.dispatch(1, clusterId, {
      kind: 'scan',
      cidr: '127.0.0.0/30',
      port: 22,
    });
    await until(() => g.messages.some((m) => m.type === 'task'));
    const task = g.messages.find((m) => m.type === 'task');
    expect(task).toMatchObject({ task_id: id, task: { kind: 'scan', cidr: '127.0.0.0/30' } });
    g.ws.send('{not json');
    g.ws.send(
      JSON.stringify({
        v: 1,
        type: 'task_result',
        task_id: id,
        result: { kind: 'scan', open: [{ ip: '127.0.0.1', port: 22 }] },
      }),
    );
    await until(
      async () =>
        (await t.ctx.db.selectFrom('task').select('status').where('id', '=', id).executeTakeFirst())
          ?.status === 'done',
    );
    g.ws.close();
    await g.closed;
    await expect(
      t.ctx.gateways.dispatch(1, clusterId, { kind: 'scan', cidr: '127.0.0.0/30', port: 22 }),
    ).rejects.toMatchObject({ code: 'AgentError' });
  });
});

describe('a gateway that goes silent', () => {
  it('is cut off after GATEWAY_SILENCE_SECONDS, its cluster marked disconnected', async () => {
    const t = await createTestApp({ GATEWAY_SILENCE_SECONDS: '1' });
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const admin = await signedIn(t);
    const clusterId = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    const key = await clusterKey(admin, clusterId);
    // A half-open socket: it says hello, then nothing, and answers no ping.
    const ws = new WebSocket(base + CONTROL_PATH, {
      headers: { authorization: `Bearer ${key}` },
      autoPong: false,
    });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          v: CONTROL_PROTOCOL,
          type: 'hello',
          version: PUBLISHED_GATEWAY_VERSION,
          host: 'gw.lab',
          ports,
          features: [],
        }),
      ),
    );
    const started = Date.now();
    // Before, the server kept it (and its sessions online) until the socket itself failed.
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
    await expect
      .poll(
        async () =>
          (
            await t.ctx.db
              .selectFrom('agent')
              .select('disconnected_at')
              .where('network_id', '=', clusterId)
              .executeTakeFirst()
          )?.disconnected_at,
      )
      .toBeGreaterThan(0);
    await t.close();
  });
});
