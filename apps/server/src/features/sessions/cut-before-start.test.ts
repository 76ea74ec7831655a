/**
 * A cut that crosses the answer starting its session: an administrator cuts a session (or its
 * code is revoked) while the server is still answering its start. The server sends the cut and
 * the answer in one write, the cut first or second, and the gateway reads both at once, before
 * the session has heard its answer and listens for cuts. The session must end all the same.
 * The real server, the real gateway (SSH proxy, web terminal, database proxies), the real
 * sshd, PostgreSQL and MariaDB, and their stock clients; the test only times the cut, through
 * the same cutSessions the console's cut calls, as the server sends the answer.
 */
import path from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ErrorCode, WebTerminalServerMessage } from '@portcullis/contract';
import type { TestApp } from '../../test/harness';
import { until } from '../../test/until';
import { cutSessions } from './connections-service';
import { startDatabaseStack, type DatabaseStack } from './database-test-kit';
import { fakeGateway } from './fake-gateway.test-helpers';
import { run } from './openssh.test-helpers';
import { startSshStack, type SshStack } from './ssh-test-kit';

const originalSend = WebSocket.prototype.send;

interface Started {
  /** The answer that started it. */
  answer: 'session_started' | 'code_resolved';
  id: number;
}

/** The session an answer of the server starts (session_started, or code_resolved's started). */
function startedBy(data: unknown): Started | undefined {
  if (typeof data !== 'string' || !data.includes('connection_id')) return undefined;
  const m = JSON.parse(data) as {
    type?: string;
    connection_id?: number;
    started?: { connection_id: number };
  };
  if (m.type === 'session_started' && m.connection_id !== undefined) {
    return { answer: m.type, id: m.connection_id };
  }
  if (m.type === 'code_resolved' && m.started) {
    return { answer: m.type, id: m.started.connection_id };
  }
  return undefined;
}

/**
 * Cuts the next session the server starts as its answer leaves: `ahead` of the answer or right
 * `behind` it, in the same tick (the hub corks a tick, so both go in one write). Resolves with
 * the session and the answer that started it.
 */
function cutAsStarted(t: TestApp, order: 'ahead' | 'behind', reason: ErrorCode): Promise<Started> {
  const send = WebSocket.prototype.send;
  return new Promise((resolve) => {
    WebSocket.prototype.send = function (this: WebSocket, ...args: Parameters<typeof send>) {
      const started = startedBy(args[0]);
      if (started === undefined) return send.apply(this, args);
      const { id } = started;
      WebSocket.prototype.send = send;
      if (order === 'ahead') void cutSessions(t.ctx, [id], reason);
      send.apply(this, args);
      if (order === 'behind') void cutSessions(t.ctx, [id], reason);
      resolve(started);
    } as typeof send;
  });
}

describe('a cut that crosses the answer starting its session', () => {
  let stack: SshStack | undefined;
  let t: TestApp;

  const ssh = (command: string) =>
    run(
      'ssh',
      [
        ...stack!.client.options('publickey'),
        '-p',
        String(stack!.port),
        `${stack!.code}@127.0.0.1`,
      ],
      { input: command, timeoutMs: 20_000 },
    );
  const isLive = async (id: number) =>
    (
      await t.ctx.db
        .selectFrom('tunnel_connection')
        .select('ended_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).ended_at === null;

  beforeAll(async () => {
    stack = await startSshStack({ workgroup: 'Crossing', gateway: { webTerminal: true } });
    ({ t } = stack);
  });
  afterAll(async () => {
    WebSocket.prototype.send = originalSend;
    await stack?.stop();
  });

  for (const order of ['ahead', 'behind'] as const) {
    it(`ends an SSH session cut ${order} of its start's answer`, async () => {
      const cut = cutAsStarted(t, order, 'SessionCutFromConsole');
      // Before, the cut was dropped and the shell ran on to the end: SURVIVED, after 4 s.
      const result = await ssh('sleep 4; echo SURVIVED\n');
      const { id } = await cut;
      expect(result.stdout.toString()).not.toContain('SURVIVED');
      expect(await isLive(id)).toBe(false);
    });
  }

  it('ends a web terminal cut ahead of its start’s answer, telling the member why', async () => {
    const issued = await stack!.erin.client.post('/api/web_terminal/token', {
      project_resource_id: stack!.projectResource,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const { token, url } = issued.json() as { token: string; url: string };
    const cut = cutAsStarted(t, 'ahead', 'AccessRevoked');
    const ws = new WebSocket(url);
    const messages: WebTerminalServerMessage[] = [];
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token, cols: 80, rows: 24 })));
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (!binary) messages.push(JSON.parse(data.toString()) as WebTerminalServerMessage);
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    const { id } = await cut;
    // Before, the terminal opened (ready) and stayed open.
    const ended = await Promise.race([
      closed,
      new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 10_000)),
    ]);
    if (ended === 'open') ws.close();
    expect(ended).toEqual({ code: 4001, reason: 'SessionCut' });
    expect(messages.at(-1)).toMatchObject({
      type: 'closed',
      code: 'SessionCut',
      reason: 'AccessRevoked',
      message: expect.stringContaining('Access was revoked'),
    });
    expect(await isLive(id)).toBe(false);
  });
});

describe('a cut that crosses the answer, with the SSH sessions in a worker process', () => {
  let stack: SshStack | undefined;

  beforeAll(async () => {
    stack = await startSshStack({
      workgroup: 'Crossing workers',
      gateway: {
        workers: {
          count: 1,
          entry: path.resolve(__dirname, '../../../../gateway/src/main.ts'),
          execArgv: ['--import', 'tsx'],
          logLevel: 'warn',
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    WebSocket.prototype.send = originalSend;
    await stack?.stop();
  });

  it('ends the session: the primary passes the cut on before the worker hears the answer', async () => {
    const cut = cutAsStarted(stack!.t, 'ahead', 'SessionCutFromConsole');
    const result = await run(
      'ssh',
      [
        ...stack!.client.options('publickey'),
        '-p',
        String(stack!.port),
        `${stack!.code}@127.0.0.1`,
      ],
      { input: 'sleep 4; echo SURVIVED\n', timeoutMs: 20_000 },
    );
    await cut;
    expect(result.stdout.toString()).not.toContain('SURVIVED');
  });
});

describe('a cut of a session whose start is still being checked', () => {
  it('reaches the gateway once the session is started', async () => {
    const stack = await startSshStack({ workgroup: 'Early' });
    try {
      const { t } = stack;
      const gateway = fakeGateway(stack.address.replace(/^http/, 'ws'), stack.key);
      await gateway.welcomed();
      gateway.send({
        type: 'resolve_code',
        request_id: 'r',
        code: stack.code,
        client_ip: '127.0.0.1',
      });
      const { grant } = await gateway.reply('r');
      gateway.send({
        type: 'session_credential',
        request_id: 'c',
        grant,
        username: stack.sshd.user,
        kind: 'linux',
      });
      await gateway.reply('c');
      // The row the start will write, listed and cut before the start is answered (its row is
      // online from its insert): the id is the next one, as no other session starts here.
      const last = await t.ctx.db
        .selectFrom('tunnel_connection')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const next = Number(last?.id ?? 0) + 1;
      await cutSessions(t.ctx, [next], 'SessionCutFromConsole');
      gateway.send({
        type: 'session_start',
        request_id: 's',
        grant,
        client_ip: '127.0.0.1',
        way: 'terminal',
      });
      expect(await gateway.reply('s')).toMatchObject({ connection_id: next });
      // Before, the cut went nowhere (no gateway carried the session yet) and never came.
      await until(() => gateway.messages.some((m) => m.type === 'session_cut'));
      expect(gateway.messages.find((m) => m.type === 'session_cut')).toMatchObject({
        connection_id: next,
        reason: 'Disconnected from the console',
        reason_code: 'SessionCutFromConsole',
      });
      gateway.ws.close();
      await gateway.closed;
    } finally {
      await stack.stop();
    }
  });
});

/** How a database client's session went within `ms`: its error, 'end', or still 'open'. */
function outcomeOf(
  client: {
    on(event: 'error', f: (err: Error) => void): unknown;
    on(event: 'end', f: () => void): unknown;
  },
  ms = 10_000,
): Promise<string> {
  return Promise.race([
    new Promise<string>((resolve) => {
      client.on('error', (err) => resolve(err.message));
      client.on('end', () => resolve('end'));
    }),
    new Promise<string>((resolve) => setTimeout(() => resolve('open'), ms)),
  ]);
}

describe('a database session cut as its start is answered', () => {
  const USER = `pc_cut_${process.pid}`;
  const PASSWORD = 'Cut#Crossing-9';
  let pgStack: DatabaseStack | undefined;
  let myStack: DatabaseStack | undefined;
  let root: mysql.Connection | undefined;

  beforeAll(async () => {
    pgStack = await startDatabaseStack('postgresql', {
      name: 'pg',
      port: 5432,
      username: 'postgres',
      password: 'trusted',
      databases: 'postgres',
    });
    root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    await root.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await root.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${PASSWORD}'`);
    myStack = await startDatabaseStack('mysql', {
      name: 'maria',
      port: 3306,
      username: USER,
      password: PASSWORD,
      databases: '*',
    });
  });
  afterAll(async () => {
    WebSocket.prototype.send = originalSend;
    await pgStack?.stop();
    await myStack?.stop();
    await root?.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await root?.end();
  });

  const pgClient = () => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: pgStack!.port,
      user: pgStack!.code,
      database: 'postgres',
    });
    client.on('error', () => undefined);
    return client;
  };
  const live = (stack: DatabaseStack, way: string) =>
    stack.t.ctx.db
      .selectFrom('tunnel_connection')
      .select('id')
      .where('way', '=', way)
      .where('ended_at', 'is', null)
      .execute();

  it('ends a PostgreSQL session the code’s answer started (a kept connection), and one started after', async () => {
    // A clean goodbye keeps the target connection: the next session like it starts with the
    // code's answer, and the proxy listens for cuts only after taking that connection.
    const first = pgClient();
    await first.connect();
    await first.query('SELECT 1');
    await first.end();
    await until(async () => (await live(pgStack!, 'postgresql')).length === 0);

    for (const via of ['code_resolved', 'session_started']) {
      const cut = cutAsStarted(pgStack!.t, 'ahead', 'AccessRevoked');
      const client = pgClient();
      const outcome = outcomeOf(client);
      await client.connect().catch(() => undefined);
      const { answer } = await cut;
      // Before, the session was open: queries ran, the row said it had ended.
      expect({ answer, outcome: await outcome }).toEqual({
        answer: via,
        outcome: expect.stringContaining('Access was revoked'),
      });
      await client.end().catch(() => undefined);
    }
    await until(async () => (await live(pgStack!, 'postgresql')).length === 0);
  });

  it('ends a MySQL session cut ahead of its start’s answer', async () => {
    const cut = cutAsStarted(myStack!.t, 'ahead', 'AccessRevoked');
    const client = await mysql.createConnection({
      host: '127.0.0.1',
      port: myStack!.port,
      user: myStack!.code,
      password: '',
    });
    const outcome = outcomeOf(client);
    await cut;
    expect(await outcome).not.toBe('open');
    client.destroy();
    await until(async () => (await live(myStack!, 'mysql')).length === 0);
  });
});
