/**
 * PostgreSQL connections the gateway logged in to, kept for the next session that needs the
 * same login. A session that ends cleanly (the client's Terminate, at a message boundary, out
 * of any transaction) gives its target connection back instead of closing it; the gateway
 * then runs `DISCARD ALL` on it (PostgreSQL's own reset of everything a session can leave
 * behind: settings, prepared statements, portals, temporary tables, LISTENs, advisory locks,
 * SET ROLE and SET SESSION AUTHORIZATION) and keeps it idle for a while. A later session whose
 * target, connect account, password, TLS setting and start-up parameters are all the same
 * takes it instead of starting a new backend, which is most of what a new connection costs.
 * Every session is still authorized, logged and audited on its own; only PostgreSQL's backend
 * process is shared, one session after another, never at once.
 *
 * A connection that is cut, breaks, errs on the reset, is mid-transaction or mid-COPY, or
 * says anything while idle is closed instead. Idle connections are closed after
 * {@link PoolOptions.idleMs}.
 */
import crypto from 'node:crypto';
import type net from 'node:net';
import { BodyReader, MessageReader, message } from './messages';
import type { LoggedIn } from './target-login';
import { tlsKeyParts } from '../core/db-tls';
import type { DbTls } from '../control/protocol';

export interface PoolOptions {
  /** How long a connection is kept unused; 0 turns the pool off. */
  idleMs: number;
  /** Idle connections kept per login. */
  maxPerKey: number;
  /** Idle connections kept in all. */
  maxTotal: number;
}

export const DEFAULT_POOL: PoolOptions = { idleMs: 30_000, maxPerKey: 16, maxTotal: 64 };

const RESET_TIMEOUT_MS = 5_000;
const RESET_REPLY_MAX = 64 * 1024;
const ch = (c: string): number => c.charCodeAt(0);

/** What identifies a login: a connection is only ever reused for exactly the same one. */
export interface LoginKey {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The start-up parameters passed on (database, application_name, client_encoding, …). */
  parameters: Map<string, string>;
  /**
   * The resource's TLS setting: a connection opened under "prefer" (maybe without TLS, its
   * certificate unchecked) must not serve a session whose resource now says `verify`.
   */
  tls?: DbTls;
}

/** A digest, so that no password is kept as a map key. */
export function loginKey(login: LoginKey): string {
  return digest(
    [login.host, String(login.port), login.username, login.password, ...tlsKeyParts(login.tls)],
    login.parameters,
  );
}

/** A digest of the parts and the parameters (in name order), each part NUL-terminated. */
export function digest(parts: string[], parameters: Map<string, string>): string {
  const hash = crypto.createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  for (const [k, v] of [...parameters].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(k).update('\0').update(v).update('\0');
  }
  return hash.digest('base64');
}

interface Idle {
  key: string;
  /** The database server it is open to (what max_connections and its role limits count). */
  server: string;
  loggedIn: LoggedIn;
  timer: NodeJS.Timeout;
}

/** The database server a connection counts against. */
export const serverOf = (login: Pick<LoginKey, 'host' | 'port'>): string =>
  `${login.host}\0${login.port}`;

export interface BackendPool {
  /** An idle connection for this login, taken out of the pool; undefined when there is none. */
  take(key: string): LoggedIn | undefined;
  /**
   * Whether take(key) is likely to give a connection soon: one is idle, or being reset after
   * its last session (a client that connects per query comes back before the reset is done).
   */
  has(key: string): boolean;
  /**
   * A connection whose session ended cleanly, without the session's listeners: reset and
   * kept, or closed when it cannot be. The caller no longer owns the socket.
   */
  giveBack(key: string, server: string, loggedIn: LoggedIn): void;
  /**
   * Closes the idle connections to this database server (it refused a new one as too many:
   * the idle ones may be holding the slots). Returns how many it closed.
   */
  closeIdleOn(server: string): number;
  /** Idle connections now (for tests and the log). */
  readonly size: number;
  /** Closes every idle connection; later give-backs are closed at once. */
  close(): void;
}

/** Sends DISCARD ALL and resolves with the ParameterStatus messages it brought, or rejects. */
function reset(socket: net.Socket): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const reader = new MessageReader(RESET_REPLY_MAX);
    const changed: Buffer[] = [];
    let completed = false;
    const done = (error?: Error): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      if (error) reject(error);
      else resolve(changed);
    };
    const onClose = (): void => done(new Error('closed during the reset'));
    const onData = (chunk: Buffer): void => {
      reader.push(chunk);
      try {
        for (let m = reader.next(); m; m = reader.next()) {
          if (m.type === ch('S')) changed.push(m.raw);
          else if (m.type === ch('C')) completed = true;
          else if (m.type === ch('Z')) {
            if (completed && m.body[0] === ch('I') && reader.drain().length === 0) return done();
            return done(new Error('the reset did not leave the connection idle'));
          } else if (m.type !== ch('N')) {
            return done(new Error(`unexpected message ${String.fromCharCode(m.type)}`));
          }
        }
      } catch (err) {
        done(err as Error);
      }
    };
    const timer = setTimeout(() => done(new Error('no answer to the reset')), RESET_TIMEOUT_MS);
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onClose);
    socket.resume();
    socket.write(message('Q', 'DISCARD ALL'));
  });
}

/** The login's ParameterStatus list with the reset's reports in place of the same names. */
function merged(login: Buffer[], changed: Buffer[]): Buffer[] {
  if (changed.length === 0) return login;
  const name = (raw: Buffer): string => new BodyReader(raw.subarray(5)).cstring();
  const byName = new Map(login.map((raw) => [name(raw), raw]));
  for (const raw of changed) byName.set(name(raw), raw);
  return [...byName.values()];
}

export function createBackendPool(options: PoolOptions = DEFAULT_POOL): BackendPool {
  const idle = new Map<string, Idle[]>();
  /** Connections given back and not yet reset, by login. */
  const resetting = new Map<string, number>();
  let total = 0;
  let closed = options.idleMs <= 0;

  const remove = (entry: Idle): boolean => {
    const list = idle.get(entry.key);
    const at = list?.indexOf(entry) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) idle.delete(entry.key);
    total -= 1;
    clearTimeout(entry.timer);
    const { socket } = entry.loggedIn;
    socket.removeAllListeners('data');
    socket.removeAllListeners('close');
    socket.removeAllListeners('error');
    return true;
  };
  const drop = (entry: Idle): void => {
    if (remove(entry)) entry.loggedIn.socket.destroy();
  };

  function park(key: string, server: string, loggedIn: LoggedIn): void {
    const list = idle.get(key) ?? [];
    if (closed || list.length >= options.maxPerKey || total >= options.maxTotal) {
      return void loggedIn.socket.destroy();
    }
    const entry: Idle = {
      key,
      server,
      loggedIn,
      timer: setTimeout(() => drop(entry), options.idleMs).unref(),
    };
    const { socket } = loggedIn;
    // An idle connection has nothing to say: a word from it (an administrator's termination,
    // a shutdown) or its end means it is not reused.
    socket.on('data', () => drop(entry));
    socket.on('close', () => drop(entry));
    socket.on('error', () => drop(entry));
    socket.resume();
    list.push(entry);
    idle.set(key, list);
    total += 1;
  }

  return {
    take(key) {
      const list = idle.get(key);
      // The most recently used first: its backend's caches are the warmest.
      const entry = list?.[list.length - 1];
      if (!entry) return undefined;
      remove(entry);
      if (entry.loggedIn.socket.destroyed) return undefined;
      entry.loggedIn.socket.pause();
      return entry.loggedIn;
    },
    has(key) {
      return (idle.get(key)?.length ?? 0) > 0 || (resetting.get(key) ?? 0) > 0;
    },
    giveBack(key, server, loggedIn) {
      const { socket } = loggedIn;
      if (closed || socket.destroyed) return void socket.destroy();
      // The session took its own listeners off (relay.ts); an error during the reset must not
      // throw.
      socket.on('error', () => socket.destroy());
      resetting.set(key, (resetting.get(key) ?? 0) + 1);
      const done = (): void => {
        const left = (resetting.get(key) ?? 1) - 1;
        if (left > 0) resetting.set(key, left);
        else resetting.delete(key);
      };
      reset(socket).then(
        (changed) => {
          done();
          socket.removeAllListeners('error');
          park(key, server, {
            ...loggedIn,
            parameterStatus: merged(loggedIn.parameterStatus, changed),
            status: ch('I'),
            rest: Buffer.alloc(0),
          });
        },
        () => {
          done();
          socket.destroy();
        },
      );
    },
    closeIdleOn(server) {
      const of = [...idle.values()].flat().filter((entry) => entry.server === server);
      for (const entry of of) drop(entry);
      return of.length;
    },
    get size() {
      return total;
    },
    close() {
      closed = true;
      for (const list of [...idle.values()]) for (const entry of [...list]) drop(entry);
    },
  };
}
