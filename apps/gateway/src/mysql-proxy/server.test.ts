// The MySQL proxy with the mysql2 driver against the real MariaDB: login, refusals, rules,
// the statement log, prepared statements, multi-statements, cuts and temporary authorizations.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { authPlugins } from 'mysql2';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import { loadProxyTls } from '../db-proxy/tls';
import type { MysqlProxy } from './server';
import {
  closedWithin,
  direct,
  fakeSessions,
  handshakeResponse,
  MARIADB,
  rawLogin,
  scratchAccount,
  startProxyStack,
  type FakeCode,
  type ProxyStack,
} from './testing';
import { LoginReader, frame } from './packets';

let stack: ProxyStack;
let db: string;
let tlsDir: string;
let proxy: MysqlProxy;
const target = scratchAccount('u');
const targetUser = target.username;

const codes: Record<string, FakeCode> = {
  plain: {},
  blocky: { policy: { block: [{ op: 'delete', table: 'orders' }], notice: [], approval: false } },
  noticed: { policy: { block: [], notice: [{ op: 'update' }], approval: false } },
  approval: { policy: { block: [], notice: [], approval: true } },
  expired: { refuse: { code: 'TunnelExpire', message: 'The code has expired' } },
  tmpuser: { password: 'tmp-secret' },
  withpw: { target },
  wrongpw: { target: { username: targetUser, password: 'not-it' } },
  onlyone: { databases: ['placeholder'] },
  slowstart: { target, beforeBegin: () => slowStart.wait() },
};
/** The session start of `slowstart` waits until the test lets it go. */
const slowStart = {
  reached: () => undefined as void,
  release: () => undefined as void,
  wait(): Promise<void> {
    this.reached();
    return new Promise((resolve) => (this.release = resolve));
  },
};
const fake = fakeSessions(codes);
const sessionOf = (code: string) => fake.started.filter((s) => s.code === code).at(-1);

const connect = (user: string, extra: mysql.ConnectionOptions = {}): Promise<mysql.Connection> =>
  mysql.createConnection({
    host: '127.0.0.1',
    port: proxy.port,
    user,
    password: 'anything',
    database: db,
    ...extra,
  });

async function count(table: string): Promise<number> {
  const conn = await direct(db);
  const [rows] = await conn.query(`SELECT COUNT(*) AS n FROM ${table}`);
  await conn.end();
  return Number((rows as { n: number }[])[0]?.n);
}

beforeAll(async () => {
  tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-mysql-proxy-tls-'));
  const tls = await loadProxyTls(tlsDir, silentLogger);
  if (!tls) throw new Error('no certificate for the proxy (is openssl installed?)');
  stack = await startProxyStack({
    tls,
    prefix: 'mysqlproxy',
    sessions: fake.sessions,
    setup: async (conn, name) => {
      codes.onlyone = { databases: [name] };
      await conn.query('CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(100))');
      await conn.query("INSERT INTO orders VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    },
    account: { ...target, grant: 'ALL' },
  });
  ({ proxy, db } = stack);
});

afterAll(async () => {
  await stack?.close();
  if (tlsDir) fs.rmSync(tlsDir, { recursive: true, force: true });
});

describe('mysql proxy with mysql2', () => {
  it('relays text queries as the target user and logs each statement', async () => {
    const conn = await connect('plain');
    const [rows] = await conn.query('SELECT id, note FROM orders ORDER BY id');
    expect(rows).toEqual([
      { id: 1, note: 'a' },
      { id: 2, note: 'b' },
      { id: 3, note: 'c' },
    ]);
    const [user] = await conn.query('SELECT CURRENT_USER() AS u, DATABASE() AS d');
    expect(user).toEqual([{ u: 'root@127.0.0.1', d: db }]);
    const [result] = await conn.query('UPDATE orders SET note = note WHERE id < 3');
    // mysql2 asks CLIENT_FOUND_ROWS: matched rows, passed on to the target as the client asked.
    expect((result as mysql.ResultSetHeader).affectedRows).toBe(2);
    await expect(conn.query('SELECT * FROM no_such_table')).rejects.toThrow(/doesn't exist/);
    await conn.end();
    const session = sessionOf('plain');
    await expect.poll(() => session?.ended).toBe(1);
    const log = session?.statements ?? [];
    expect(log.map((e) => e.statement)).toEqual([
      'SELECT id, note FROM orders ORDER BY id',
      'SELECT CURRENT_USER() AS u, DATABASE() AS d',
      'UPDATE orders SET note = note WHERE id < 3',
      'SELECT * FROM no_such_table',
    ]);
    expect(log[0]).toMatchObject({ database: db, rows: 3 });
    expect(log[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(log[2]).toMatchObject({ rows: 2 });
    expect(log[3]?.error).toMatch(/no_such_table/);
    expect(fake.authorized.find((a) => a.code === 'plain')).toMatchObject({
      clientIp: '127.0.0.1',
      database: db,
    });
  });

  it('shows a refusal with its catalogue code and closes', async () => {
    await expect(connect('expired')).rejects.toMatchObject({
      errno: 1045,
      sqlState: '28000',
      message: 'Portcullis: The code has expired (TunnelExpire)',
    });
    await expect(connect('no-such-code')).rejects.toThrow(/^Portcullis: .*\(TunnelNotFound\)$/);
  });

  it('logs in to a target user with a password, and says so when the target refuses', async () => {
    const conn = await connect('withpw');
    const [rows] = await conn.query('SELECT CURRENT_USER() AS u');
    expect(rows).toEqual([{ u: `${targetUser}@%` }]);
    await conn.end();
    await expect(connect('wrongpw')).rejects.toThrow(
      /InvalidResource: .*refused the login credential/,
    );
  });

  it('refuses a blocked statement before it reaches the database, and logs what the client was told', async () => {
    const conn = await connect('blocky');
    const refused = await conn.query('DELETE FROM orders WHERE id = 1').catch((err: Error) => err);
    expect(refused).toMatchObject({
      errno: 1142,
      sqlState: '42000',
      message: expect.stringMatching(/blocked/) as unknown,
    });
    // The session goes on; a multi-statement text hiding the DELETE is refused whole.
    const [rows] = await conn.query('SELECT COUNT(*) AS n FROM orders');
    expect(rows).toEqual([{ n: 3 }]);
    await conn.end();
    const multi = await connect('blocky', { multipleStatements: true });
    await expect(multi.query('SELECT 1; DELETE FROM orders')).rejects.toThrow(/blocked/);
    await multi.end();
    expect(await count('orders')).toBe(3);
    const session = fake.started.filter((s) => s.code === 'blocky')[0];
    expect(session?.statements[0]).toMatchObject({
      statement: 'DELETE FROM orders WHERE id = 1',
      action: 'blocked',
      rule: 'DELETE orders',
      // As the PostgreSQL proxy logs a refusal: the refusal's own text is the error.
      error: (refused as Error).message,
    });
    expect(session?.alarms).toEqual([
      { action: 'intercept', statement: 'DELETE FROM orders WHERE id = 1', rule: 'DELETE orders' },
    ]);
  });

  it('lets a notice statement through with an alarm', async () => {
    const conn = await connect('noticed');
    const [result] = await conn.query("UPDATE orders SET note = 'z' WHERE id = 3");
    expect((result as mysql.ResultSetHeader).affectedRows).toBe(1);
    await conn.query('SELECT 1');
    await conn.end();
    const session = sessionOf('noticed');
    expect(session?.alarms).toEqual([
      { action: 'notice', statement: "UPDATE orders SET note = 'z' WHERE id = 3", rule: 'UPDATE' },
    ]);
    expect(session?.statements[0]).toMatchObject({ action: 'notice', rule: 'UPDATE', rows: 1 });
    expect(session?.statements[1]?.action).toBeUndefined();
  });

  it('refuses changes in approval mode, reads pass', async () => {
    const conn = await connect('approval');
    await expect(conn.query("INSERT INTO orders VALUES (9, 'x')")).rejects.toThrow(
      /SQL application/,
    );
    const [rows] = await conn.query('SELECT COUNT(*) AS n FROM orders');
    expect(rows).toEqual([{ n: 3 }]);
    await conn.end();
    const session = sessionOf('approval');
    expect(session?.statements[0]).toMatchObject({
      action: 'blocked',
      rule: 'approval',
      error: expect.stringMatching(/SQL application/) as unknown,
    });
    expect(session?.alarms).toEqual([]);
  });

  it('relays prepared statements, logging the prepared text when it runs', async () => {
    const conn = await connect('blocky');
    const [rows] = await conn.execute('SELECT id, note FROM orders WHERE id > ? ORDER BY id', [1]);
    expect((rows as unknown[]).length).toBe(2);
    const [again] = await conn.execute('SELECT id, note FROM orders WHERE id > ? ORDER BY id', [2]);
    expect((again as unknown[]).length).toBe(1);
    const [inserted] = await conn.execute('INSERT INTO orders VALUES (?, ?)', [4, 'd']);
    expect((inserted as mysql.ResultSetHeader).affectedRows).toBe(1);
    await expect(conn.execute('DELETE FROM orders WHERE id = ?', [4])).rejects.toThrow(/blocked/);
    await conn.unprepare('SELECT id, note FROM orders WHERE id > ? ORDER BY id');
    const [after] = await conn.query('SELECT COUNT(*) AS n FROM orders');
    expect(after).toEqual([{ n: 4 }]);
    await conn.query('DELETE FROM orders WHERE id = 4').catch(() => undefined);
    await conn.end();
    const log = sessionOf('blocky')?.statements ?? [];
    expect(log.slice(0, 4)).toMatchObject([
      { statement: 'SELECT id, note FROM orders WHERE id > ? ORDER BY id', rows: 2 },
      { statement: 'SELECT id, note FROM orders WHERE id > ? ORDER BY id', rows: 1 },
      { statement: 'INSERT INTO orders VALUES (?, ?)', rows: 1 },
      { statement: 'DELETE FROM orders WHERE id = ?', action: 'blocked' },
    ]);
    const cleanup = await direct(db);
    await cleanup.query('DELETE FROM orders WHERE id = 4');
    await cleanup.end();
  });

  // Before, only the prepare was judged and its runs were logged bare: a notice statement's
  // runs did not say so, as they do in the PostgreSQL proxy's log.
  it('marks every run of a prepared statement that a notice rule matched', async () => {
    const conn = await connect('noticed');
    const update = 'UPDATE orders SET note = ? WHERE id = ?';
    await conn.execute(update, ['p', 3]);
    await conn.execute(update, ['q', 3]); // mysql2 prepared it once: run twice
    await conn.end();
    const session = sessionOf('noticed');
    await expect.poll(() => session?.ended).toBe(1);
    expect(session?.statements.map((s) => [s.statement, s.action, s.rule, s.rows])).toEqual([
      [update, 'notice', 'UPDATE', 1],
      [update, 'notice', 'UPDATE', 1],
    ]);
    // Its alarm was raised once, when it was prepared.
    expect(session?.alarms).toEqual([{ action: 'notice', statement: update, rule: 'UPDATE' }]);
  });

  it('logs a prepare the database refused with its error, as a failed query is logged', async () => {
    const conn = await connect('noticed');
    await expect(conn.execute('SELECT nope FROM orders WHERE id = ?', [1])).rejects.toThrow(/nope/);
    // A prepare that fails under a notice rule keeps the notice on its line.
    await expect(conn.execute('UPDATE no_such_table SET a = ?', [1])).rejects.toThrow(
      /no_such_table/,
    );
    // A prepare that succeeds is logged when it runs, once.
    const [rows] = await conn.execute('SELECT id FROM orders WHERE id = ?', [2]);
    expect(rows).toEqual([{ id: 2 }]);
    await conn.end();
    const session = sessionOf('noticed');
    await expect.poll(() => session?.ended).toBe(1);
    expect(session?.statements).toEqual([
      {
        startedAt: expect.any(Number) as unknown,
        database: db,
        statement: 'SELECT nope FROM orders WHERE id = ?',
        durationMs: expect.any(Number) as unknown,
        error: expect.stringMatching(/Unknown column 'nope'/) as unknown,
      },
      {
        startedAt: expect.any(Number) as unknown,
        database: db,
        statement: 'UPDATE no_such_table SET a = ?',
        durationMs: expect.any(Number) as unknown,
        error: expect.stringMatching(/no_such_table' doesn't exist/) as unknown,
        action: 'notice',
        rule: 'UPDATE',
      },
      {
        startedAt: expect.any(Number) as unknown,
        database: db,
        statement: 'SELECT id FROM orders WHERE id = ?',
        durationMs: expect.any(Number) as unknown,
        rows: 1,
      },
    ]);
  });

  it('relays multi-statements and logs one entry per statement', async () => {
    const conn = await connect('plain', { multipleStatements: true });
    const [results] = await conn
      .query(
        "SELECT 1 AS a; UPDATE orders SET note = 'q' WHERE id = 1; SELECT id FROM orders; SELECT nope FROM orders; SELECT 2",
      )
      .catch((err: Error) => [err]);
    expect(String(results)).toMatch(/nope/);
    const [ok] = await conn.query('SELECT 1 AS a; SELECT 2 AS b, 3 AS c');
    expect(ok).toEqual([[{ a: 1 }], [{ b: 2, c: 3 }]]);
    await conn.end();
    const log = (sessionOf('plain')?.statements ?? []).map(({ statement, rows, error }) => ({
      statement,
      rows,
      error: error && error.replace(/'.*'/, "'…'"),
    }));
    expect(log).toEqual([
      { statement: 'SELECT 1 AS a', rows: 1, error: undefined },
      { statement: "UPDATE orders SET note = 'q' WHERE id = 1", rows: 1, error: undefined },
      { statement: 'SELECT id FROM orders', rows: 3, error: undefined },
      { statement: 'SELECT nope FROM orders', rows: undefined, error: expect.any(String) },
      {
        statement: 'SELECT 2',
        rows: undefined,
        error: 'not run: an earlier statement failed',
      },
      { statement: 'SELECT 1 AS a', rows: 1, error: undefined },
      { statement: 'SELECT 2 AS b, 3 AS c', rows: 1, error: undefined },
    ]);
  });

  it('closes the client within a second when the session is cut', async () => {
    const conn = await connect('plain');
    await conn.query('SELECT 1');
    const t = Date.now();
    const gone = new Promise<unknown>((resolve) => {
      conn.on('error', resolve);
      conn.on('end', resolve);
    });
    sessionOf('plain')?.cut('cut by an administrator');
    expect(String(await gone)).toMatch(
      /Portcullis: the session was ended \(cut by an administrator\)/,
    );
    expect(Date.now() - t).toBeLessThan(1000);
    await expect(conn.query('SELECT 1')).rejects.toThrow();
    await expect.poll(() => sessionOf('plain')?.ended).toBe(1);
    // Mid-response too: the sockets simply go.
    const raw = await rawLogin(proxy.port, 'plain');
    raw.socket.write(frame(Buffer.from('\x03SELECT SLEEP(5)', 'latin1'), 0));
    await new Promise((r) => setTimeout(r, 100));
    const cutAt = Date.now();
    sessionOf('plain')?.cut('revoked');
    expect(await closedWithin(raw.socket, 1000)).toBe(true);
    expect(Date.now() - cutAt).toBeLessThan(1000);
  });

  it('ends the session at once when the target connection is killed while it starts', async () => {
    const reached = new Promise<void>((resolve) => (slowStart.reached = resolve));
    const login = rawLogin(proxy.port, 'slowstart');
    await reached;
    // The proxy is logged in to MariaDB as the scratch account (no other connection is).
    const admin = await direct();
    const [rows] = await admin.query(
      'SELECT id AS id FROM information_schema.processlist WHERE user = ?',
      [targetUser],
    );
    expect((rows as unknown[]).length).toBe(1);
    for (const { id } of rows as { id: number }[]) await admin.query(`KILL ${Number(id)}`);
    await admin.end();
    slowStart.release();
    const client = await login.catch(() => undefined);
    if (client) {
      // A query goes nowhere: the connection closes at once (it stayed open, and the query
      // unanswered, before).
      client.socket.write(frame(Buffer.from('\x03SELECT 1', 'latin1'), 0));
      expect(await closedWithin(client.socket, 3000)).toBe(true);
    }
    await expect.poll(() => sessionOf('slowstart')?.ended).toBe(1);
  });

  it('refuses the login when the target connection ends cleanly while it starts', async () => {
    // A relay to MariaDB that ends the proxy's connection with a FIN and no byte before it (a
    // proxy or a failover in between): a paused socket reads that end at once, and it went
    // unheard, so the client was logged in to a connection that had already closed.
    const fronts: net.Socket[] = [];
    const relay = net.createServer((front) => {
      fronts.push(front);
      const back = net.connect(MARIADB.port, MARIADB.host);
      front.pipe(back).pipe(front);
      front.on('error', () => back.destroy()).on('close', () => back.destroy());
      back.on('error', () => front.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    codes.slowrelay = {
      target: { ...target, port: (relay.address() as net.AddressInfo).port },
      beforeBegin: () => slowStart.wait(),
    };
    try {
      const reached = new Promise<void>((resolve) => (slowStart.reached = resolve));
      const login = rawLogin(proxy.port, 'slowrelay');
      await reached;
      for (const front of fronts) front.end();
      await new Promise((resolve) => setTimeout(resolve, 200));
      slowStart.release();
      // An ERR answers the login, and the connection closes (before, an OK, and the first
      // query hung).
      const { ok, socket } = await login;
      expect(ok.payload[0]).toBe(0xff);
      expect(ok.payload.toString('latin1')).toContain('the database closed the connection');
      expect(await closedWithin(socket, 3000)).toBe(true);
      await expect.poll(() => sessionOf('slowrelay')?.ended).toBe(1);
    } finally {
      relay.close();
    }
  });

  it('takes a temporary authorization’s password with mysql2’s defaults, with and without TLS', async () => {
    const overTls = { ssl: { rejectUnauthorized: false } }; // the proxy's self-signed certificate
    const passwords = () =>
      fake.authorized.filter((a) => a.code === 'tmpuser').map((a) => a.password);
    // No authPlugins, no flag: mysql2's own caching_sha2_password answers the gateway's switch;
    // without TLS it asks for the gateway's public key and sends the password encrypted.
    for (const extra of [{}, overTls]) {
      const conn = await connect('tmpuser', { password: 'tmp-secret', ...extra });
      const [rows] = await conn.query('SELECT 7 AS n');
      expect(rows).toEqual([{ n: 7 }]);
      await conn.end();
    }
    // Each login is asked once without a password (the code needs one), then with it.
    expect(passwords()).toEqual([undefined, 'tmp-secret', undefined, 'tmp-secret']);
    for (const extra of [{}, overTls]) {
      await expect(connect('tmpuser', { password: 'wrong', ...extra })).rejects.toMatchObject({
        errno: 1045,
        sqlState: '28000',
        message: 'Portcullis: Incorrect team ID, account or password (PasswordError)',
      });
    }
    expect(passwords().slice(4)).toEqual([undefined, 'wrong', undefined, 'wrong']);
    // A normal code needs no password and still logs in without TLS.
    const plain = await connect('plain');
    await plain.end();
  });

  it('goes on with caching_sha2_password when the client began with it (a raw client)', async () => {
    const password = 'tmp-secret';
    const sha256 = (...parts: Buffer[]) =>
      crypto.createHash('sha256').update(Buffer.concat(parts)).digest();
    const socket = net.connect(proxy.port, '127.0.0.1');
    const reader = new LoginReader(socket);
    // HandshakeV10: 10 / version<NUL> / id[4] / nonce part 1 [8] / 0 / flags[18] / part 2 [12].
    const greeting = (await reader.next()).payload;
    const at = greeting.indexOf(0, 1) + 1;
    const nonce = Buffer.concat([
      greeting.subarray(at + 4, at + 12),
      greeting.subarray(at + 31, at + 43),
    ]);
    // Its reply to that nonce, as MySQL 8 clients compute it, in the HandshakeResponse.
    const stage1 = sha256(Buffer.from(password));
    const stage2 = sha256(sha256(stage1), nonce);
    const scrambled = Buffer.from(stage1.map((b, i) => b ^ (stage2[i] as number)));
    socket.write(handshakeResponse('tmpuser', scrambled, 'caching_sha2_password'));
    // No switch: straight to "perform full authentication", then the key on request.
    const more = await reader.next();
    expect([more.seq, ...more.payload]).toEqual([2, 0x01, 0x04]);
    socket.write(frame(Buffer.from([0x02]), 3));
    const key = await reader.next();
    expect([key.seq, key.payload[0]]).toEqual([4, 0x01]);
    const plain = Buffer.from(`${password}\0`);
    const xored = plain.map((b, i) => b ^ (nonce[i % nonce.length] as number));
    const cipher = crypto.publicEncrypt(
      {
        key: key.payload.subarray(1),
        padding: crypto.constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha1',
      },
      xored,
    );
    socket.write(frame(cipher, 5));
    const ok = await reader.next();
    expect([ok.seq, ok.payload[0]]).toEqual([6, 0x00]);
    expect(fake.authorized.at(-1)).toMatchObject({ code: 'tmpuser', password });
    socket.destroy();
  });

  it('gives a client without TLS one RSA public key, and takes a password encrypted with it at once', async () => {
    const keys: Buffer[] = [];
    const sha2 = (options: Parameters<typeof authPlugins.caching_sha2_password>[0]) => ({
      password: 'tmp-secret',
      authPlugins: { caching_sha2_password: authPlugins.caching_sha2_password(options) },
    });
    for (let i = 0; i < 2; i++) {
      const conn = await connect('tmpuser', sha2({ onServerPublicKey: (key) => keys.push(key) }));
      await conn.end();
    }
    expect(keys).toHaveLength(2);
    // One key per gateway process: the second login got the same one.
    expect(keys[1]?.equals(keys[0] as Buffer)).toBe(true);
    const key = crypto.createPublicKey(keys[0] as Buffer);
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // A client that holds the key sends the encrypted password without asking for the key.
    const holding = await connect(
      'tmpuser',
      sha2({ serverPublicKey: keys[0] as Buffer, onServerPublicKey: (k) => keys.push(k) }),
    );
    const [rows] = await holding.query('SELECT 8 AS n');
    expect(rows).toEqual([{ n: 8 }]);
    await holding.end();
    expect(keys).toHaveLength(2);
    // A key from elsewhere (an earlier run of the gateway): refused, nothing is decrypted.
    const before = fake.authorized.length;
    const stale = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    await expect(
      connect('tmpuser', sha2({ serverPublicKey: stale.export({ type: 'spki', format: 'pem' }) })),
    ).rejects.toMatchObject({
      errno: 1045,
      message:
        "Portcullis: the password was not encrypted with this gateway's public key; let the client ask for it",
    });
    expect(fake.authorized.slice(before).map((a) => a.password)).toEqual([undefined]);
  });

  it('refuses COM_CHANGE_USER and keeps the session', async () => {
    const conn = await connect('plain');
    await expect(conn.changeUser({ user: 'someone' })).rejects.toMatchObject({ errno: 1235 });
    await conn.end();
    // mysql2 gives up on the connection after a failed change; a raw client sees it go on.
    const raw = await rawLogin(proxy.port, 'plain');
    raw.socket.write(frame(Buffer.concat([Buffer.from([0x11]), Buffer.from('root\0')]), 0));
    const err = await raw.reader.next();
    expect(err.payload[0]).toBe(0xff);
    expect(err.seq).toBe(1);
    raw.socket.write(frame(Buffer.from([0x0e]), 0)); // COM_PING
    const pong = await raw.reader.next();
    expect(pong.payload[0]).toBe(0x00);
    raw.socket.destroy();
  });

  it('refuses a database the resource does not offer (login, USE and COM_INIT_DB)', async () => {
    await expect(connect('onlyone', { database: 'mysql' })).rejects.toThrow(
      /^Portcullis: .*\((DatabaseNotOffered|TunnelNotFound)\)$/,
    );
    const conn = await connect('onlyone');
    await expect(conn.query('USE mysql')).rejects.toMatchObject({ errno: 1044 });
    const raw = await rawLogin(proxy.port, 'onlyone');
    raw.socket.write(frame(Buffer.concat([Buffer.from([0x02]), Buffer.from('mysql')]), 0));
    const err = await raw.reader.next();
    expect(err.payload.subarray(9).toString()).toMatch(/^DatabaseNotOffered/);
    raw.socket.write(frame(Buffer.concat([Buffer.from([0x02]), Buffer.from(db)]), 0));
    expect((await raw.reader.next()).payload[0]).toBe(0x00);
    raw.socket.destroy();
    await conn.end();
    expect(await closedWithin(raw.socket, 1000)).toBe(true);
  });
});
