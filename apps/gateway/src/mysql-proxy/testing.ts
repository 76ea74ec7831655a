/**
 * Test helpers for the MySQL proxy (imported by *.test.ts only): a small in-memory stand-in for
 * the control plane's DbSessions (the server side is tested elsewhere; here the protocol code is
 * under test and the target is the real MariaDB at 127.0.0.1:3306), scratch databases and
 * accounts, the proxy started on one (startProxyStack), and a raw client that speaks just
 * enough of the protocol to send what real clients never would.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import mysql from 'mysql2/promise';
import type { ResolvedCode, SqlPolicy } from '@portcullis/contract';
import { silentLogger } from '../core/logger';
import type { ProxyTls } from '../db-proxy/tls';
import type { DbSession, DbSessions, DbTarget, StatementEntry } from '../db-proxy/session';
import { loadSqlParsers } from '../sql-audit';
import { CAP, LoginReader, frame, type Packet } from './packets';
import { startMysqlProxy, type MysqlProxy } from './server';

export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export interface FakeCode {
  target?: Partial<DbTarget>;
  policy?: SqlPolicy;
  /** A temporary authorization: the password it needs. */
  password?: string;
  databases?: string[];
  /** Refused with this catalogue code. */
  refuse?: { code: string; message: string };
  /** Awaited before the session starts (the server's answer, slow). */
  beforeBegin?: () => Promise<void>;
}

export interface FakeSession {
  code: string;
  connectionId: number;
  statements: StatementEntry[];
  alarms: { action: string; statement: string; rule: string }[];
  cut(reason: string): void;
  ended: number;
}

let nextConnectionId = 1000;

/** DbSessions that knows the codes it is given; sessions record what the proxy reported. */
export function fakeSessions(codes: Record<string, FakeCode>): {
  sessions: DbSessions;
  started: FakeSession[];
  authorized: { code: string; password?: string; database?: string; clientIp: string }[];
} {
  const started: FakeSession[] = [];
  const authorized: { code: string; password?: string; database?: string; clientIp: string }[] = [];
  const sessions: DbSessions = {
    authorize(_kind, login) {
      authorized.push({ ...login });
      const code = codes[login.code];
      if (!code) {
        return Promise.resolve({
          ok: false,
          refusal: { code: 'TunnelNotFound', message: 'The code does not exist' },
        });
      }
      if (code.refuse) return Promise.resolve({ ok: false, refusal: code.refuse });
      if (code.password !== undefined && login.password !== code.password) {
        return Promise.resolve({
          ok: false,
          refusal: { code: 'PasswordError', message: 'Incorrect team ID, account or password' },
        });
      }
      const list = code.databases ?? [];
      if (login.database && list.length > 0 && !list.includes(login.database)) {
        return Promise.resolve({
          ok: false,
          refusal: {
            code: 'DatabaseNotOffered',
            message: 'The database is not one this resource offers',
          },
        });
      }
      const resolved = {
        tunnel_id: 1,
        resource: { id: 1, name: 'db', os: 'mysql', databases: code.databases ?? [] },
      } as unknown as ResolvedCode; // only tunnel_id and resource.databases/.id are read
      const target: DbTarget = {
        host: MARIADB.host,
        port: MARIADB.port,
        username: MARIADB.user,
        password: MARIADB.password,
        ...code.target,
      };
      return Promise.resolve({
        ok: true,
        resolved,
        target,
        drop() {},
        async begin() {
          await code.beforeBegin?.();
          const cutListeners: ((reason: string) => void)[] = [];
          const record: FakeSession = {
            code: login.code,
            connectionId: nextConnectionId++,
            statements: [],
            alarms: [],
            cut: (reason) => cutListeners.forEach((l) => l(reason)),
            ended: 0,
          };
          started.push(record);
          const session: DbSession = {
            connectionId: record.connectionId,
            policy: code.policy,
            logStatement: (entry) => void record.statements.push(entry),
            alarm: (action, statement, rule) =>
              void record.alarms.push({ action, statement, rule }),
            onCut: (listener) => void cutListeners.push(listener),
            end: () => {
              record.ended += 1;
              return Promise.resolve();
            },
          };
          return { ok: true as const, session };
        },
      });
    },
  };
  return { sessions, started, authorized };
}

/** A direct connection to MariaDB (to check what really happened there). */
export function direct(database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ ...MARIADB, ...(database && { database }) });
}

/** Creates a uniquely named scratch database; returns its name. */
export async function scratchDatabase(prefix: string): Promise<string> {
  const name = `pc_${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  const conn = await direct();
  await conn.query(`CREATE DATABASE \`${name}\``);
  await conn.end();
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  const conn = await direct();
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await conn.end();
}

/** A uniquely named MariaDB account (not made yet: startProxyStack makes it). */
export function scratchAccount(prefix: string): { username: string; password: string } {
  return {
    username: `pc_${prefix}_${crypto.randomBytes(4).toString('hex')}`,
    password: crypto.randomBytes(9).toString('base64url'),
  };
}

export interface ProxyStack {
  proxy: MysqlProxy;
  /** The scratch database's name. */
  db: string;
  /** Closes the proxy, drops the account and the database. */
  close(): Promise<void>;
}

/**
 * What a proxy test runs on: the SQL parsers loaded, a scratch database (`setup` fills it,
 * connected to it), an account granted `grant` on it when `account` is given, and the proxy on
 * 127.0.0.1 (a free port) with `sessions`. What was made is removed again if a step fails.
 */
export async function startProxyStack(options: {
  prefix: string;
  sessions: DbSessions;
  setup?: (conn: mysql.Connection, db: string) => Promise<void>;
  account?: { username: string; password: string; grant: 'SELECT' | 'ALL' };
  /** The certificate the proxy offers clients that ask for TLS. */
  tls?: ProxyTls;
}): Promise<ProxyStack> {
  await loadSqlParsers();
  const db = await scratchDatabase(options.prefix);
  const { account } = options;
  let proxy: MysqlProxy | undefined;
  const close = async (): Promise<void> => {
    await proxy?.close();
    if (account) {
      const conn = await direct();
      await conn.query(`DROP USER IF EXISTS '${account.username}'@'%'`);
      await conn.end();
    }
    await dropDatabase(db);
  };
  try {
    const conn = await direct(db);
    try {
      await options.setup?.(conn, db);
      if (account) {
        await conn.query(
          `CREATE USER '${account.username}'@'%' IDENTIFIED BY '${account.password}'`,
        );
        await conn.query(`GRANT ${account.grant} ON \`${db}\`.* TO '${account.username}'@'%'`);
      }
    } finally {
      await conn.end();
    }
    proxy = await startMysqlProxy({
      port: 0,
      host: '127.0.0.1',
      sessions: options.sessions,
      logger: silentLogger,
      ...(options.tls && { tls: options.tls }),
    });
    return { proxy, db, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A HandshakeResponse41 (packet 1) as a 4.1 client without TLS sends it. */
export function handshakeResponse(username: string, authData: Buffer, plugin: string): Buffer {
  const caps = CAP.PROTOCOL_41 | CAP.SECURE_CONNECTION | CAP.PLUGIN_AUTH | CAP.LONG_PASSWORD;
  const head = Buffer.alloc(32);
  head.writeUInt32LE(caps, 0);
  head.writeUInt32LE(0x1000000, 4);
  head[8] = 45;
  return frame(
    Buffer.concat([
      head,
      Buffer.from(`${username}\0`),
      Buffer.from([authData.length]),
      authData,
      Buffer.from(`${plugin}\0`),
    ]),
    1,
  );
}

/** A raw client logged in through the proxy as `code` (no TLS, any password). */
export async function rawLogin(
  port: number,
  code: string,
): Promise<{ socket: net.Socket; reader: LoginReader; ok: Packet }> {
  const socket = net.connect(port, '127.0.0.1');
  const reader = new LoginReader(socket);
  await reader.next();
  socket.write(handshakeResponse(code, Buffer.alloc(0), 'mysql_native_password'));
  const ok = await reader.next();
  return { socket, reader, ok };
}

/** Resolves when the socket is closed (or after `ms`, with false). */
export function closedWithin(socket: net.Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
