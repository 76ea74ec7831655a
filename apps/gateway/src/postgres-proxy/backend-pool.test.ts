/**
 * The pool's own rules, against a loopback stand-in for PostgreSQL that answers the reset as
 * told (the real PostgreSQL, and what DISCARD ALL clears, is in the server's proxy tests).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serverOf, createBackendPool, loginKey, type BackendPool } from './backend-pool';
import { message, MessageReader, readyForQuery } from './messages';
import type { LoggedIn } from './target-login';

type Answer = 'ok' | 'error' | 'in-transaction';

/** A server whose every connection answers each Query with `answer`. */
async function standIn(answer: Answer) {
  const queries: string[] = [];
  const server = net.createServer((socket) => {
    const reader = new MessageReader(1 << 20);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      reader.push(chunk);
      for (let m = reader.next(); m; m = reader.next()) {
        queries.push(m.body.toString('utf8', 0, m.body.length - 1));
        if (answer === 'error') {
          socket.write(message('E', 'SERROR\0C25001\0Mno\0\0'));
          socket.write(readyForQuery('I'.charCodeAt(0)));
          continue;
        }
        socket.write(message('S', 'application_name\0', 'pgbench\0'));
        socket.write(message('C', 'DISCARD ALL\0'));
        socket.write(readyForQuery((answer === 'ok' ? 'I' : 'T').charCodeAt(0)));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const sockets: net.Socket[] = [];
  return {
    queries,
    async connection(): Promise<LoggedIn> {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      await new Promise((r) => socket.once('connect', r));
      sockets.push(socket);
      return {
        socket,
        parameterStatus: [message('S', 'application_name\0', 'psql\0')],
        backendKey: { pid: 1, secret: 2 },
        clientEncoding: 'UTF8',
        status: 'I'.charCodeAt(0),
        rest: Buffer.alloc(0),
      };
    },
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** A login to the shop database, the keys' starting point. */
const shopLogin = {
  host: '127.0.0.1',
  port: 5432,
  username: 'app',
  password: 'secret',
  parameters: new Map([['database', 'shop']]),
};
const key = loginKey(shopLogin);
const SERVER = serverOf({ host: '127.0.0.1', port: 5432 });
const until = async (check: () => boolean): Promise<void> => {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the PostgreSQL backend pool', () => {
  let pool: BackendPool | undefined;
  let server: Awaited<ReturnType<typeof standIn>> | undefined;
  afterEach(() => {
    pool?.close();
    server?.close();
  });

  it('keys a login by everything that makes it, and keeps no password in the key', () => {
    expect(loginKey({ ...shopLogin, parameters: new Map([['database', 'shop']]) })).toBe(key);
    expect(loginKey({ ...shopLogin, password: 'other' })).not.toBe(key);
    expect(loginKey({ ...shopLogin, username: 'admin' })).not.toBe(key);
    expect(loginKey({ ...shopLogin, port: 5433 })).not.toBe(key);
    const withApp = new Map([
      ['database', 'shop'],
      ['application_name', 'x'],
    ]);
    expect(loginKey({ ...shopLogin, parameters: withApp })).not.toBe(key);
    // The same parameters in another order are the same login.
    const reordered = new Map([
      ['application_name', 'x'],
      ['database', 'shop'],
    ]);
    expect(loginKey({ ...shopLogin, parameters: reordered })).toBe(
      loginKey({ ...shopLogin, parameters: withApp }),
    );
    expect(key).not.toContain('secret');
  });

  it('keys a login by its TLS setting: prefer, require, verify and the CA are all apart', () => {
    const keys = [
      loginKey(shopLogin),
      loginKey({ ...shopLogin, tls: { mode: 'require' } }),
      loginKey({ ...shopLogin, tls: { mode: 'verify' } }),
      loginKey({ ...shopLogin, tls: { mode: 'verify', ca: 'CA one' } }),
      loginKey({ ...shopLogin, tls: { mode: 'verify', ca: 'CA two' } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(loginKey({ ...shopLogin, tls: { mode: 'verify', ca: 'CA one' } })).toBe(keys[3]);
  });

  it('resets a connection given back and hands it to the same login only', async () => {
    server = await standIn('ok');
    pool = createBackendPool({ idleMs: 10_000, maxPerKey: 4, maxTotal: 8 });
    const conn = await server.connection();
    pool.giveBack(key, SERVER, conn);
    await until(() => pool!.size === 1);
    expect(server.queries).toEqual(['DISCARD ALL']);
    expect(pool.take('another login')).toBeUndefined();
    const again = pool.take(key);
    expect(again?.socket).toBe(conn.socket);
    // What the reset reported replaces the login's value of the same name.
    expect(again?.parameterStatus.map((b) => b.toString('latin1'))).toEqual([
      message('S', 'application_name\0', 'pgbench\0').toString('latin1'),
    ]);
    expect(pool.size).toBe(0);
    expect(pool.take(key)).toBeUndefined();
  });

  it.each<[Answer, string]>([
    ['error', 'the reset fails'],
    ['in-transaction', 'the reset leaves a transaction open'],
  ])('closes a connection when %s (%s)', async (answer) => {
    server = await standIn(answer);
    pool = createBackendPool({ idleMs: 10_000, maxPerKey: 4, maxTotal: 8 });
    const conn = await server.connection();
    pool.giveBack(key, SERVER, conn);
    await until(() => conn.socket.destroyed);
    expect(pool.size).toBe(0);
  });

  it('closes an idle connection after its time, or when it says anything', async () => {
    server = await standIn('ok');
    pool = createBackendPool({ idleMs: 150, maxPerKey: 4, maxTotal: 8 });
    const timedOut = await server.connection();
    pool.giveBack(key, SERVER, timedOut);
    await until(() => pool!.size === 1);
    await until(() => timedOut.socket.destroyed);
    expect(pool.size).toBe(0);

    pool = createBackendPool({ idleMs: 10_000, maxPerKey: 4, maxTotal: 8 });
    const chatty = await server.connection();
    pool.giveBack(key, SERVER, chatty);
    await until(() => pool!.size === 1);
    // The stand-in answers any word with a reply: an idle backend that speaks is not reused.
    chatty.socket.write(message('Q', 'SELECT 1'));
    await until(() => chatty.socket.destroyed);
    expect(pool.take(key)).toBeUndefined();
  });

  it('closes the idle connections to one database server when asked (its slots are wanted)', async () => {
    server = await standIn('ok');
    pool = createBackendPool({ idleMs: 10_000, maxPerKey: 4, maxTotal: 8 });
    const mine = await Promise.all([1, 2].map(() => server!.connection()));
    pool.giveBack(key, SERVER, mine[0]!);
    pool.giveBack('other settings', SERVER, mine[1]!);
    const theirs = await server.connection();
    const other = serverOf({ host: '127.0.0.1', port: 5433 });
    pool.giveBack('their login', other, theirs);
    await until(() => pool!.size === 3);
    expect(pool.closeIdleOn(SERVER)).toBe(2);
    expect(mine.every((c) => c.socket.destroyed)).toBe(true);
    expect(theirs.socket.destroyed).toBe(false);
    expect(pool.size).toBe(1);
    expect(pool.closeIdleOn(SERVER)).toBe(0);
  });

  it('keeps no more than its limits, and nothing once closed or turned off', async () => {
    server = await standIn('ok');
    pool = createBackendPool({ idleMs: 10_000, maxPerKey: 2, maxTotal: 3 });
    const conns = await Promise.all([1, 2, 3].map(() => server!.connection()));
    for (const c of conns) pool.giveBack(key, SERVER, c);
    await until(() => conns[2]!.socket.destroyed);
    expect(pool.size).toBe(2);
    const other = await server.connection();
    pool.giveBack('another login', SERVER, other);
    await until(() => pool!.size === 3);
    const overTotal = await server.connection();
    pool.giveBack('a third login', SERVER, overTotal);
    await until(() => overTotal.socket.destroyed);
    pool.close();
    expect(pool.size).toBe(0);
    expect(conns[0]!.socket.destroyed || conns[1]!.socket.destroyed).toBe(true);
    const late = await server.connection();
    pool.giveBack(key, SERVER, late);
    expect(late.socket.destroyed).toBe(true);

    const off = createBackendPool({ idleMs: 0, maxPerKey: 2, maxTotal: 3 });
    const unkept = await server.connection();
    off.giveBack(key, SERVER, unkept);
    expect(unkept.socket.destroyed).toBe(true);
  });
});
