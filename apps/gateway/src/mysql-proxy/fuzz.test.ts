// Clients that break the protocol: garbage, truncated and mutated logins, out-of-order and
// oversize packets, random commands after a real login, a login that never comes. Each loses
// only its own connection (with an ERR when one can be sent), and a normal client still works.
import crypto from 'node:crypto';
import net from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MysqlProxy } from './server';
import { CAP, LoginReader, MAX_PAYLOAD, frame } from './packets';
import {
  closedWithin,
  direct,
  fakeSessions,
  rawLogin,
  scratchAccount,
  startProxyStack,
  type ProxyStack,
} from './testing';

let stack: ProxyStack;
let proxy: MysqlProxy;
let db: string;
const fuzzAccount = scratchAccount('f');
// The fuzz user may only read the scratch database: random commands cannot harm MariaDB.
const fake = fakeSessions({
  fuzz: { target: fuzzAccount },
  fuzztmp: { target: fuzzAccount, password: 'fuzz-secret' },
});

beforeAll(async () => {
  stack = await startProxyStack({
    prefix: 'mysqlfuzz',
    sessions: fake.sessions,
    setup: async (conn) => void (await conn.query('CREATE TABLE t (id INT)')),
    account: { ...fuzzAccount, grant: 'SELECT' },
  });
  ({ proxy, db } = stack);
});

afterAll(async () => {
  await stack?.close();
});

/** A well-formed HandshakeResponse41 for the code. */
function loginPayload(code: string): Buffer {
  const head = Buffer.alloc(32);
  head.writeUInt32LE(
    CAP.PROTOCOL_41 | CAP.SECURE_CONNECTION | CAP.PLUGIN_AUTH | CAP.CONNECT_WITH_DB,
    0,
  );
  head[8] = 45;
  return Buffer.concat([
    head,
    Buffer.from(`${code}\0`),
    Buffer.from([20]),
    crypto.randomBytes(20),
    Buffer.from(`${db}\0mysql_native_password\0`),
  ]);
}

function mutate(data: Buffer): Buffer {
  const out = Buffer.from(data);
  const edits = 1 + crypto.randomInt(4);
  for (let i = 0; i < edits; i++) {
    const at = crypto.randomInt(out.length);
    out[at] = crypto.randomInt(256);
  }
  return crypto.randomInt(4) === 0 ? out.subarray(0, crypto.randomInt(out.length)) : out;
}

/** A command with valid framing and random contents, or a mutated frame. */
function randomCommand(): Buffer {
  const kinds = [
    () => frame(Buffer.concat([Buffer.from([0x03]), crypto.randomBytes(crypto.randomInt(200))]), 0),
    () =>
      frame(
        Buffer.concat([
          Buffer.from([crypto.randomInt(256)]),
          crypto.randomBytes(crypto.randomInt(40)),
        ]),
        0,
      ),
    () => frame(Buffer.concat([Buffer.from([0x17]), crypto.randomBytes(12)]), 0),
    () => frame(Buffer.concat([Buffer.from([0x16]), Buffer.from('SELECT ? FROM t')]), 0),
    () => mutate(frame(Buffer.from('\x03SELECT id FROM t', 'latin1'), 0)),
    () => crypto.randomBytes(1 + crypto.randomInt(100)),
  ];
  return (kinds[crypto.randomInt(kinds.length)] as () => Buffer)();
}

/** One hostile connection; resolves when the proxy closed it or after a short while. */
async function hostile(i: number): Promise<void> {
  const socket = net.connect(proxy.port, '127.0.0.1');
  socket.on('error', () => undefined);
  const reader = new LoginReader(socket);
  try {
    await reader.next();
    const mode = i % 4;
    if (mode === 0) socket.write(crypto.randomBytes(crypto.randomInt(2000)));
    else if (mode === 1) socket.write(mutate(frame(loginPayload('fuzz'), 1)));
    else {
      socket.write(frame(loginPayload('fuzz'), 1));
      const ok = await reader.next();
      if (ok.payload[0] !== 0x00) throw new Error('login refused');
      reader.detach();
      socket.on('data', () => undefined);
      for (let n = 0; n < (mode === 2 ? 1 : 8); n++) socket.write(randomCommand());
    }
  } catch {
    // The proxy closing on us is the expected answer.
  }
  const closed = await closedWithin(socket, 300);
  if (!closed) socket.destroy();
}

/** A random answer in a temporary authorization's password exchange. */
function randomAuthReply(): Buffer {
  const kinds = [
    () => crypto.randomBytes(32), // a scramble
    () => Buffer.from([0x02]), // a public key request
    () => crypto.randomBytes(256), // an encrypted password (with no key)
    () => crypto.randomBytes(crypto.randomInt(600)),
    () => Buffer.alloc(0),
  ];
  return (kinds[crypto.randomInt(kinds.length)] as () => Buffer)();
}

/**
 * One hostile temporary-authorization login: after the switch to caching_sha2_password, random
 * answers, in order or not. Resolves when the proxy closed the connection (or after a while).
 */
async function hostilePassword(): Promise<void> {
  const socket = net.connect(proxy.port, '127.0.0.1');
  socket.on('error', () => undefined);
  const reader = new LoginReader(socket);
  try {
    await reader.next();
    socket.write(frame(loginPayload('fuzztmp'), 1));
    let packet = await reader.next();
    for (let n = 0; n < 4 && packet.payload[0] !== 0xff; n++) {
      const seq = crypto.randomInt(5) === 0 ? crypto.randomInt(256) : packet.seq + 1;
      socket.write(frame(randomAuthReply(), seq));
      packet = await reader.next();
    }
  } catch {
    // The proxy closing on us is the expected answer.
  }
  const closed = await closedWithin(socket, 300);
  if (!closed) socket.destroy();
}

describe('mysql proxy robustness', () => {
  it('switches a temporary authorization to caching_sha2_password with a fresh nonce', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    const reader = new LoginReader(socket);
    const greeting = (await reader.next()).payload;
    socket.write(frame(loginPayload('fuzztmp'), 1));
    const first = await reader.next();
    // AuthSwitchRequest: 0xfe / "caching_sha2_password\0" / nonce[20] / 0x00, as MySQL sends it
    // (MariaDB's client refuses a nonce of any other length).
    expect(first.seq).toBe(2);
    const name = Buffer.from('caching_sha2_password\0');
    expect(first.payload[0]).toBe(0xfe);
    expect(first.payload.subarray(1, 1 + name.length)).toEqual(name);
    const nonce = first.payload.subarray(1 + name.length);
    expect(nonce.length).toBe(21);
    expect(nonce.indexOf(0)).toBe(20);
    expect(greeting.includes(nonce.subarray(0, 8))).toBe(false);
    // Its scramble gets "perform full authentication" (the gateway holds no cache to check it).
    socket.write(frame(crypto.randomBytes(32), 3));
    const more = await reader.next();
    expect([more.seq, ...more.payload]).toEqual([4, 0x01, 0x04]);
    // Without TLS: the public key on request, in PEM.
    socket.write(frame(Buffer.from([0x02]), 5));
    const key = await reader.next();
    expect(key.seq).toBe(6);
    expect(key.payload[0]).toBe(0x01);
    expect(key.payload.subarray(1).toString()).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    // A password in clear here is not one the gateway takes without TLS.
    socket.write(frame(Buffer.from('fuzz-secret\0'), 7));
    const refused = await reader.next();
    expect(refused.payload[0]).toBe(0xff);
    expect(refused.payload.subarray(9).toString()).toMatch(/\(TlsRequired\)$/);
    expect(await closedWithin(socket, 1000)).toBe(true);
    expect(fake.authorized.filter((a) => a.code === 'fuzztmp' && a.password)).toEqual([]);
  });

  it('survives random answers in the password exchange', async () => {
    for (let batch = 0; batch < 4; batch++) {
      await Promise.all(Array.from({ length: 25 }, () => hostilePassword()));
    }
    // Random bytes never decrypt to the password: no login got through.
    expect(fake.started.filter((s) => s.code === 'fuzztmp')).toEqual([]);
    const conn = await mysql.createConnection({
      host: '127.0.0.1',
      port: proxy.port,
      user: 'fuzztmp',
      password: 'fuzz-secret',
      database: db,
    });
    const [rows] = await conn.query('SELECT COUNT(*) AS n FROM t');
    expect(rows).toEqual([{ n: 0 }]);
    await conn.end();
  });

  it('survives random and mutated packets on many connections', async () => {
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 30 }, (_, i) => hostile(batch * 30 + i)));
    }
    const conn = await mysql.createConnection({
      host: '127.0.0.1',
      port: proxy.port,
      user: 'fuzz',
      database: db,
    });
    const [rows] = await conn.query('SELECT COUNT(*) AS n FROM t');
    expect(rows).toEqual([{ n: 0 }]);
    await conn.end();
    expect(fake.started.length).toBeGreaterThan(100);
    // Every session that began was ended exactly once.
    await expect.poll(() => fake.started.filter((s) => s.ended !== 1).length).toBe(0);
  });

  it('answers garbage before the login with an ERR and closes', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    const reader = new LoginReader(socket);
    await reader.next();
    socket.write(frame(Buffer.from('GET / HTTP/1.1\r\n\r\n'), 1));
    const err = await reader.next();
    expect(err.payload[0]).toBe(0xff);
    expect(await closedWithin(socket, 1000)).toBe(true);
  });

  it('refuses an out-of-order command packet', async () => {
    const { socket, reader } = await rawLogin(proxy.port, 'fuzz');
    socket.write(frame(Buffer.from('\x03SELECT 1', 'latin1'), 5));
    const err = await reader.next();
    expect(err.payload.readUInt16LE(1)).toBe(1156);
    expect(await closedWithin(socket, 1000)).toBe(true);
  });

  it('refuses a command over 64 MiB without reading it all', async () => {
    const { socket, reader } = await rawLogin(proxy.port, 'fuzz');
    const chunk = Buffer.alloc(0xffffff, 0x20);
    chunk[0] = 0x03;
    for (let seq = 0; seq < 4; seq++) {
      const header = Buffer.from([0xff, 0xff, 0xff, seq]);
      socket.write(header);
      socket.write(chunk);
    }
    socket.write(Buffer.from([0xff, 0xff, 0xff, 4]));
    const err = await reader.next();
    expect(err.payload.readUInt16LE(1)).toBe(1153);
    expect(await closedWithin(socket, 2000)).toBe(true);
  });

  it('relays a statement of exactly 16 MiB - 1 bytes as a full packet and an empty one', async () => {
    // The split's edge: a payload of 0xffffff bytes is sent as one full packet and an empty
    // one numbered 1. It fits MariaDB's default max_allowed_packet (16 MiB), so MariaDB answers
    // with a result set that proves it read the statement whole. (A statement over that limit
    // is refused and MariaDB drops the connection, which races with its ERR even without the
    // gateway: "server has gone away". Before, this test sent 20 MB and failed once in CI.)
    const root = await direct();
    const [rows] = await root.query('SELECT @@global.max_allowed_packet AS v');
    await root.end();
    expect(Number((rows as Array<{ v: number }>)[0]?.v)).toBeGreaterThan(MAX_PAYLOAD);
    const { socket, reader } = await rawLogin(proxy.port, 'fuzz');
    const shell = (fill: string): string => `SELECT LENGTH('${fill}') AS n`;
    const fill = 'y'.repeat(MAX_PAYLOAD - 1 - shell('').length);
    const payload = Buffer.concat([Buffer.from([0x03]), Buffer.from(shell(fill))]);
    expect(payload.length).toBe(MAX_PAYLOAD);
    socket.write(frame(payload, 0));
    const columns = await reader.next();
    expect(columns.seq).toBe(2);
    expect([...columns.payload]).toEqual([1]);
    await reader.next(); // the column definition
    await reader.next(); // EOF (the raw login does not ask for CLIENT_DEPRECATE_EOF)
    const row = await reader.next();
    expect(row.payload.subarray(1).toString()).toBe(String(fill.length));
    socket.destroy();
  });

  it('times out a login that never comes', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    const reader = new LoginReader(socket);
    await reader.next();
    const t = Date.now();
    const err = await reader.next();
    expect(err.payload.readUInt16LE(1)).toBe(1159);
    expect(Date.now() - t).toBeGreaterThan(9_000);
    expect(await closedWithin(socket, 1000)).toBe(true);
  }, 20_000);
});
