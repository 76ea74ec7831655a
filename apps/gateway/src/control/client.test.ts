import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeRecordingFrame } from '@portcullis/contract';
import { DEFAULT_PORTS } from '../core/ports';
import { startControlPeer, type ControlPeer } from '../test/control-peer';
import { collectLogs } from '../test/logs';
import { freePort, silentServer, sleep, waitFor, type SilentServer } from '../test/net';
import { GatewayExitError, startGateway, type Gateway, type GatewayOptions } from './client';
import { CONTROL_PROTOCOL } from './protocol';
import { GATEWAY_VERSION } from '../core/version';

const KEY = 'ck_test_0123456789abcdef';
const FAST = { backoff: { initialMs: 50, maxMs: 200 } };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function peer(
  options: Partial<Parameters<typeof startControlPeer>[0]> = {},
): Promise<ControlPeer> {
  const p = await startControlPeer({ key: KEY, ...options });
  cleanups.push(() => p.close());
  return p;
}

function gateway(options: Partial<GatewayOptions> & { server: string }): Gateway {
  const g = startGateway({ key: KEY, host: 'gw.example.test', ...FAST, ...options });
  cleanups.push(() => g.stop());
  return g;
}

async function silent(): Promise<SilentServer> {
  const s = await silentServer();
  cleanups.push(() => s.close());
  return s;
}

describe('control client', () => {
  it('connects with the cluster key and says hello with its version, host, ports and features', async () => {
    const server = await peer();
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    const hello = await conn.next('hello');
    await g.connected;

    expect(conn.authorization).toBe(`Bearer ${KEY}`);
    expect(hello).toEqual({
      v: CONTROL_PROTOCOL,
      type: 'hello',
      version: GATEWAY_VERSION,
      host: 'gw.example.test',
      ports: {
        ssh_port: 9998,
        webssh_port: 8889,
        mysql_port: 9696,
        postgresql_port: 9432,
        mssql_port: 9433,
        rdp_port: 9389,
        webrdp_port: 8389,
      },
      features: ['connectivity_test', 'scan', 'key_upload', 'key_test', 'host_key_pin', 'db_tls'],
    });
    expect(conn.invalid).toEqual([]);
  });

  it('reports configured ports over the defaults', async () => {
    const server = await peer();
    gateway({ server: server.url, ports: { ssh_port: 2022, mysql_port: 3307 } });
    const hello = await (await server.nextConnection()).next('hello');
    expect(hello.ports).toEqual({ ...DEFAULT_PORTS, ssh_port: 2022, mysql_port: 3307 });
  });

  it('dials the control path under a server address with a path prefix', async () => {
    const server = await peer();
    const g = gateway({ server: `${server.url}/` });
    await g.connected;
    expect(() => startGateway({ key: KEY, server: 'ftp://127.0.0.1' })).toThrow(/http/);
    expect(() => startGateway({ key: 'has space', server: server.url })).toThrow(/cluster key/);
  });

  it('sends a heartbeat every heartbeat_seconds from welcome', async () => {
    const server = await peer({ heartbeatSeconds: 1 });
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    await g.connected;
    const started = Date.now();
    await conn.next('heartbeat', 3000);
    await conn.next('heartbeat', 3000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(3500);
    expect(conn.invalid).toEqual([]);
  });

  it('runs a scan task and answers with its task_id', async () => {
    const server = await peer();
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    await g.connected;
    // The peer itself listens on 127.0.0.1:port, so the scan must find it.
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'scan-1',
      task: { kind: 'scan', cidr: '127.0.0.0/24', port: server.port },
    });
    const reply = await conn.next('task_result', 15_000);
    expect(reply).toEqual({
      v: CONTROL_PROTOCOL,
      type: 'task_result',
      task_id: 'scan-1',
      result: { kind: 'scan', open: [{ ip: '127.0.0.1', port: server.port }] },
    });
  });

  it('runs a connectivity test and answers ok or a reason word', async () => {
    const server = await peer();
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    await g.connected;
    const closed = await freePort();
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'ct-closed',
      task: {
        kind: 'connectivity_test',
        target: { kind: 'rdp', host: '127.0.0.1', port: closed, username: '' },
      },
    });
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'ct-open',
      task: {
        kind: 'connectivity_test',
        target: { kind: 'mssql', host: '127.0.0.1', port: server.port, username: 'sa' },
      },
    });
    const refused = await conn.next('task_result', 15_000, (m) => m.task_id === 'ct-closed');
    const reachable = await conn.next('task_result', 15_000, (m) => m.task_id === 'ct-open');
    expect(refused.result).toEqual({ kind: 'connectivity_test', ok: false, reason: 'refused' });
    expect(reachable.result).toEqual({ kind: 'connectivity_test', ok: true, reason: '' });
  });

  it('answers a task it cannot run with error, and keeps going', async () => {
    const server = await peer();
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    await g.connected;
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'bad-range',
      task: { kind: 'scan', cidr: 'not-a-range', port: 22 },
    });
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'bad-port',
      task: { kind: 'scan', cidr: '127.0.0.0/24', port: 0 },
    });
    const range = await conn.next('task_result', 5000, (m) => m.task_id === 'bad-range');
    const port = await conn.next('task_result', 5000, (m) => m.task_id === 'bad-port');
    expect(range.result).toBeUndefined();
    expect(range.error).toBe('e.g. 192.168.1.0/24, and only supports 24-32');
    expect(port.error).toBe('please input the right port');
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'after',
      task: { kind: 'scan', cidr: '127.0.0.0/24', port: server.port },
    });
    expect((await conn.next('task_result', 15_000)).task_id).toBe('after');
  });

  it('drops malformed server messages (and logs them without content) and stays connected', async () => {
    const server = await peer();
    const logs = collectLogs();
    const g = gateway({ server: server.url, logger: logs.logger });
    const conn = await server.nextConnection();
    await g.connected;
    conn.sendRaw('this is not json');
    conn.sendRaw(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    conn.sendRaw(JSON.stringify({ v: 1, type: 'launch_missiles' }));
    conn.sendRaw(
      JSON.stringify({
        v: 1,
        type: 'task',
        task_id: 'x',
        task: { kind: 'scan', cidr: '127.0.0.0/24' },
      }),
    );
    conn.sendRaw(
      JSON.stringify({
        v: 1,
        type: 'task',
        task_id: 'y',
        task: {
          kind: 'connectivity_test',
          target: { kind: 'telnet', host: 'h', port: 1, password: 'hunter2-in-bad-task' },
        },
      }),
    );
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'good',
      task: { kind: 'scan', cidr: '127.0.0.0/24', port: server.port },
    });
    const reply = await conn.next('task_result', 15_000);
    expect(reply.task_id).toBe('good');
    expect(server.connections).toHaveLength(1);
    expect(conn.closed).toBeUndefined();
    const dropped = logs.records().filter((r) => r.msg === 'dropped a control message');
    expect(dropped).toHaveLength(5);
    expect(logs.lines.join('\n')).not.toContain('hunter2-in-bad-task');
  });

  it('reconnects after the server drops the connection, and says hello again', async () => {
    const server = await peer();
    const g = gateway({ server: server.url });
    const first = await server.nextConnection();
    await g.connected;
    first.ws.terminate();
    const second = await server.nextConnection(5000);
    expect((await second.next('hello')).version).toBe(GATEWAY_VERSION);
    second.ws.close(1011, 'server restarting');
    const third = await server.nextConnection(5000);
    await third.next('hello');
  });

  it('keeps retrying while the server is down, and connects when it comes up', async () => {
    const port = await freePort();
    const logs = collectLogs();
    const g = gateway({ server: `http://127.0.0.1:${port}`, logger: logs.logger });
    await sleep(600);
    const retries = logs.records().filter((r) => r.msg === 'control channel down; will retry');
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries.map((r) => r.retry_in_ms as number).every((ms) => ms <= 200)).toBe(true);
    const server = await peer({ port });
    await g.connected;
    expect(server.connections).toHaveLength(1);
  });

  it('retries (does not give up) when the upgrade answers 503', async () => {
    const server = await peer({ upgradeStatus: 503 });
    const logs = collectLogs();
    const g = gateway({ server: server.url, logger: logs.logger });
    await sleep(500);
    const retries = logs.records().filter((r) => r.msg === 'control channel down; will retry');
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(retries[0]?.http_status).toBe(503);
    server.options.upgradeStatus = undefined;
    await g.connected;
  });

  it('reconnects when the server goes silent (no pong, no message) past the grace', async () => {
    const server = await peer({ heartbeatSeconds: 1 });
    const g = gateway({ server: server.url });
    const first = await server.nextConnection();
    await g.connected;
    first.ws.pause(); // stop reading: pings go unanswered, heartbeats unread
    const second = await server.nextConnection(8000);
    await second.next('hello');
  });

  it('sends recording chunks as binary frames to a server that reads them, as messages otherwise', async () => {
    for (const binaryChunks of [true, false]) {
      const server = await peer({ binaryChunks });
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-chunks-'));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const ports = { mysql_port: await freePort(), postgresql_port: await freePort() };
      const g = gateway({ server: server.url, ports, databaseProxies: { dataDir } });
      const conn = await server.nextConnection();
      await g.connected;
      const log = Buffer.from('{"statement":"SELECT 1"}\n');
      g.recordings!.finishFromMemory(41, log, Date.now() + 60_000);
      if (binaryChunks) {
        await waitFor(() => conn.frames.length > 0, 5000, 'a binary frame');
        const chunk = decodeRecordingFrame(conn.frames[0]!);
        expect(chunk).toMatchObject({ v: CONTROL_PROTOCOL, connection_id: 41, offset: 0 });
        expect(Buffer.from(chunk!.data)).toEqual(log);
        expect(conn.messages.some((m) => m.type === 'recording_chunk')).toBe(false);
      } else {
        const message = await conn.next('recording_chunk', 5000);
        expect(message).toMatchObject({ connection_id: 41, offset: 0 });
        expect(Buffer.from(message.data, 'base64')).toEqual(log);
        expect(conn.frames).toEqual([]);
      }
      expect(conn.invalid).toEqual([]);
    }
  });

  it('names a terminal session ssh to a server whose welcome does not know terminal', async () => {
    for (const terminalWay of [true, false]) {
      const server = await peer({ terminalWay });
      const g = gateway({ server: server.url });
      const conn = await server.nextConnection();
      await g.connected;
      // As written on the wire (the peer's schema reads an older gateway's `ssh` as terminal).
      const sent: { type: string; way?: string }[] = [];
      conn.ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (!isBinary) sent.push(JSON.parse(data.toString()) as { type: string });
      });
      void g.sessions.start('grant', '127.0.0.1', 'terminal');
      await conn.next('session_start', 5000);
      // An older server's contract refused `terminal`: the session never started.
      expect(sent.find((m) => m.type === 'session_start')?.way).toBe(
        terminalWay ? 'terminal' : 'ssh',
      );
    }
  });

  it('sends a result that finished while disconnected after the next welcome', async () => {
    const server = await peer();
    const target = await silent();
    const g = gateway({ server: server.url, tasks: { connectivity: { timeoutMs: 1000 } } });
    const first = await server.nextConnection();
    await g.connected;
    first.send({
      v: 1,
      type: 'task',
      task_id: 'slow',
      task: {
        kind: 'connectivity_test',
        target: { kind: 'ssh', host: '127.0.0.1', port: target.port, username: 'u', password: 'p' },
      },
    });
    await sleep(100);
    first.ws.terminate();
    const second = await server.nextConnection(5000);
    const reply = await second.next('task_result', 5000);
    expect(reply).toMatchObject({
      task_id: 'slow',
      result: { kind: 'connectivity_test', ok: false, reason: 'timeout' },
    });
  });

  it('ends with update_required when the server says so, without reconnecting', async () => {
    const server = await peer({ autoWelcome: false });
    const logs = collectLogs();
    const g = gateway({ server: server.url, logger: logs.logger });
    const conn = await server.nextConnection();
    await conn.next('hello');
    conn.send({ v: 1, type: 'update_required', min_protocol: 2, latest_version: '3.1.0' });
    expect(await g.done).toEqual({ reason: 'update_required', latestVersion: '3.1.0' });
    await expect(g.connected).rejects.toBeInstanceOf(GatewayExitError);
    await sleep(300);
    expect(server.connections).toHaveLength(1);
    expect(logs.records().some((r) => r.level === 60 && r.latest_version === '3.1.0')).toBe(true);
  });

  it.each([4401, 1008])(
    'ends with key_rejected when the server closes with %i, without reconnecting',
    async (code) => {
      const server = await peer({ refuse: code });
      const g = gateway({ server: server.url, key: 'ck_wrong' });
      expect(await g.done).toEqual({ reason: 'key_rejected' });
      await expect(g.connected).rejects.toThrow(/key_rejected/);
      await sleep(300);
      expect(server.connections).toHaveLength(1);
    },
  );

  it('ends with update_required on close code 4426 alone', async () => {
    const server = await peer({ autoWelcome: false });
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    await conn.next('hello');
    conn.ws.close(4426, 'update required');
    expect(await g.done).toEqual({ reason: 'update_required' });
  });

  it('retries (and logs an error) when the server cannot read the hello (4400)', async () => {
    const server = await peer({ autoWelcome: false });
    const logs = collectLogs();
    const g = gateway({ server: server.url, logger: logs.logger });
    const first = await server.nextConnection();
    await first.next('hello');
    first.ws.close(4400, 'unreadable hello');
    const second = await server.nextConnection(5000);
    await second.next('hello');
    second.welcome();
    await g.connected;
    expect(logs.records().some((r) => r.msg === 'the server could not read our hello')).toBe(true);
  });

  it('ends with key_rejected when the upgrade answers 401', async () => {
    const server = await peer({ refuse: 'http401' });
    const g = gateway({ server: server.url, key: 'ck_wrong' });
    expect(await g.done).toEqual({ reason: 'key_rejected' });
  });

  it('stop() closes the channel normally and ends the gateway', async () => {
    const server = await peer();
    const g = gateway({ server: server.url });
    const conn = await server.nextConnection();
    await g.connected;
    await g.stop();
    expect(await g.done).toEqual({ reason: 'stopped' });
    await sleep(50);
    expect(conn.closed?.code).toBe(1000);
    await sleep(300);
    expect(server.connections).toHaveLength(1);
  });

  it('never logs the cluster key or a task credential', async () => {
    const server = await peer();
    const logs = collectLogs();
    const g = gateway({ server: server.url, logger: logs.logger });
    const conn = await server.nextConnection();
    await g.connected;
    const closed = await freePort();
    conn.send({
      v: 1,
      type: 'task',
      task_id: 'secret',
      task: {
        kind: 'connectivity_test',
        target: {
          kind: 'ssh',
          host: '127.0.0.1',
          port: closed,
          username: 'root',
          password: 'S3cret-Pa55-word',
        },
      },
    });
    const reply = await conn.next('task_result', 15_000);
    expect(JSON.stringify(reply)).not.toContain('S3cret-Pa55-word');
    expect(logs.lines.length).toBeGreaterThan(2);
    const all = logs.lines.join('\n');
    expect(all).not.toContain('S3cret-Pa55-word');
    expect(all).not.toContain(KEY);
  });
});
