/**
 * The gateway's PostgreSQL proxy (default port 9432): `psql "host=GATEWAY port=9432 user=CODE
 * dbname=DB"` reaches the resource's database as its connect account. The client's start-up
 * (SSLRequest answered with TLS when the gateway has a certificate, GSSENCRequest declined,
 * CancelRequest passed on) and login happen here: the code is the user name and needs no
 * password; a temporary authorization's one-time user name is asked for its password
 * (cleartext, so use TLS). The gateway then logs in to the target itself (target-login.ts)
 * and relays the session through the rules and the statement log (conversation.ts).
 */
import crypto from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { formatError } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import { holdTarget } from '../db-proxy/held-target';
import type { AuthorizedDb, DbSession, DbSessions } from '../db-proxy/session';
import { LruCache } from '../sql-audit/cache';
import { relaySession } from './relay';
import {
  authenticationCleartext,
  authenticationOk,
  backendKeyData,
  BodyReader,
  CANCEL_REQUEST,
  errorResponse,
  GSSENC_REQUEST,
  message,
  MessageReader,
  PROTOCOL_3,
  ProtocolError,
  readyForQuery,
  SSL_REQUEST,
  STARTUP_MAX,
  startupPacket,
  type Message,
} from './messages';
import {
  createBackendPool,
  DEFAULT_POOL,
  digest,
  loginKey,
  serverOf,
  type PoolOptions,
} from './backend-pool';
import { loginToTarget, TargetRefused, TargetTlsRefused, type LoggedIn } from './target-login';
import { refusalText } from '../core/session-ended';

const STARTUP_TIMEOUT_MS = 15_000;
/** Bytes a client may send before its session starts (start-up packets, a password). */
const STARTUP_BUFFER_MAX = 64 * 1024;
const FATAL_LINGER_MS = 200;
/** SQLSTATE too_many_connections: max_connections, or the role's or database's limit. */
const TOO_MANY_CONNECTIONS = '53300';
/** After closing idle connections for a refused login: tries, and the wait between them. */
const FREED_RETRIES = 10;
const FREED_RETRY_MS = 25;
/** Start-up parameters a client may not pass on (the gateway decides who logs in, and where). */
const WITHHELD = new Set(['user', 'database', 'replication']);

export interface PostgresProxyOptions {
  port: number;
  host?: string;
  sessions: DbSessions;
  logger: Logger;
  /** PEM; TLS is offered to clients when set. */
  tls?: { key: string; cert: string };
  /** Target connections kept between sessions (backend-pool.ts); idleMs 0 turns it off. */
  pool?: PoolOptions;
}

export interface PostgresProxy {
  readonly port: number;
  /** Stops listening and ends every session. */
  close(): Promise<void>;
}

/** What a client's cancel key stands for on the target. */
interface CancelTarget {
  secret: number;
  host: string;
  port: number;
  key: { pid: number; secret: number };
}

/** Start-ups whose login key is remembered: the last this many used (sql-audit/cache.ts). */
const KEYS_KEPT = 1000;

/** Reads one message at a time from a socket that is not yet relaying. */
function messages(socket: net.Socket, reader: MessageReader) {
  const queue: Message[] = [];
  let waiting: ((m: Message | undefined) => void) | undefined;
  let failed: Error | undefined;
  let buffered = 0;
  const onData = (chunk: Buffer) => {
    reader.push(chunk);
    buffered += chunk.length;
    try {
      // Before the session starts a client has a few small packets to send, no more.
      if (buffered > STARTUP_BUFFER_MAX) throw new ProtocolError('too much data before login');
      for (let m = reader.next(); m; m = reader.next()) queue.push(m);
    } catch (err) {
      failed = err as Error;
      socket.pause();
    }
    flush();
  };
  const onClose = () => {
    failed ??= new Error('closed');
    flush();
  };
  function flush(): void {
    if (!waiting) return;
    const w = waiting;
    if (queue.length > 0) {
      waiting = undefined;
      w(queue.shift());
    } else if (failed) {
      waiting = undefined;
      w(undefined);
    }
  }
  socket.on('data', onData);
  socket.on('close', onClose);
  return {
    next: (): Promise<Message | undefined> =>
      new Promise((resolve) => {
        waiting = resolve;
        flush();
      }),
    error: () => failed,
    /** Stops reading; returns the bytes received and not yet handed out. */
    stop: (): Buffer => {
      socket.off('data', onData);
      socket.off('close', onClose);
      return Buffer.concat([...queue.map((m) => m.raw), reader.drain()]);
    },
  };
}

/** Says why and closes; a client that keeps its side open is let go shortly after. */
function fatal(socket: net.Socket, code: string, text: string): void {
  socket.removeAllListeners('data');
  if (socket.writable) socket.end(errorResponse({ severity: 'FATAL', code, message: text }));
  setTimeout(() => socket.destroy(), FATAL_LINGER_MS).unref();
}

/** The refusal as the client reads it: the catalogue code and its English text. */

export async function startPostgresProxy(options: PostgresProxyOptions): Promise<PostgresProxy> {
  const { logger, sessions } = options;
  const open = new Set<net.Socket>();
  const cancelKeys = new Map<number, CancelTarget>();
  const secureContext = options.tls && tls.createSecureContext(options.tls);
  const pool = createBackendPool(options.pool ?? DEFAULT_POOL);
  /**
   * The login key each recent start-up led to, by a digest of the start-up's parameters (its
   * code, database and settings: no code is kept).
   */
  const keyOfStartup = new LruCache<string>(KEYS_KEPT);

  async function handle(raw: net.Socket): Promise<void> {
    raw.setNoDelay(true);
    let socket: net.Socket = raw;
    const clientIp = (raw.remoteAddress ?? '').replace(/^::ffff:/, '');
    const timer = setTimeout(() => socket.destroy(), STARTUP_TIMEOUT_MS);
    try {
      let reader = new MessageReader(STARTUP_MAX, true);
      let input = messages(socket, reader);
      let first = await input.next();
      for (let round = 0; first && round < 2; round++) {
        const code = first.body.length >= 4 ? first.body.readInt32BE(0) : 0;
        if (code === SSL_REQUEST && secureContext && socket === raw) {
          input.stop();
          socket.write('S');
          socket = new tls.TLSSocket(raw, { isServer: true, secureContext });
          socket.on('error', () => socket.destroy());
          input = messages(socket, (reader = new MessageReader(STARTUP_MAX, true)));
          first = await input.next();
        } else if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N');
          first = await input.next();
        } else break;
      }
      if (!first) return void socket.destroy();
      const body = new BodyReader(first.body);
      const code = body.int32();
      if (code === CANCEL_REQUEST) {
        input.stop();
        socket.destroy();
        return cancel(body.int32(), body.int32());
      }
      if (code >>> 16 !== PROTOCOL_3 >>> 16) {
        return fatal(socket, '0A000', 'Portcullis speaks the PostgreSQL protocol 3.0 only');
      }
      const parameters = new Map<string, string>();
      const protocolOptions: string[] = [];
      for (let key = body.cstring(); key !== ''; key = body.cstring()) {
        const value = body.cstring();
        // `_pq_.` options extend the protocol; none is known here, and none goes on.
        if (key.startsWith('_pq_.')) protocolOptions.push(key);
        else parameters.set(key, value);
      }
      if (code !== PROTOCOL_3 || protocolOptions.length > 0) {
        // A newer 3.x or protocol options (libpq 18 with max_protocol_version=latest): the
        // session goes on in 3.0, as PostgreSQL itself answers such a client.
        socket.write(message('v', 0, protocolOptions.length, ...protocolOptions));
      }
      if (parameters.has('replication')) {
        return fatal(socket, '28000', 'Portcullis: replication connections are not carried');
      }
      const user = parameters.get('user') ?? '';
      // libpq asks for a database named like the user when none is given: none, here.
      const asked = parameters.get('database');
      const wanted = asked && asked !== user ? asked : undefined;
      if (wanted) parameters.set('database', wanted);
      else parameters.delete('database');
      // The same start-up as a session whose target connection is kept: that connection is
      // likely to be this one's, so the session starts with the code's answer.
      const startup = digest([], parameters);
      const known = keyOfStartup.get(startup);
      const startNow = known !== undefined && pool.has(known);
      let authorized = await sessions.authorize(
        'postgresql',
        { code: user, clientIp, ...(wanted && { database: wanted }) },
        { startNow },
      );
      if (!authorized.ok && authorized.refusal.code === 'PasswordError') {
        // A temporary authorization: its one-time password, asked for in cleartext, so only
        // over TLS.
        if (!(socket instanceof tls.TLSSocket)) {
          return fatal(
            socket,
            '28000',
            refusalText({
              code: 'TlsRequired',
              message: formatError('TlsRequired', 'en_US', { how: 'sslmode=require' }),
            }),
          );
        }
        reader.startup = false;
        socket.write(authenticationCleartext());
        const reply = await input.next();
        if (!reply || reply.type !== 'p'.charCodeAt(0)) return void socket.destroy();
        const password = new BodyReader(reply.body).cstring();
        authorized = await sessions.authorize(
          'postgresql',
          { code: user, clientIp, password, ...(wanted && { database: wanted }) },
          { startNow },
        );
      }
      if (!authorized.ok) {
        logger.info({ ip: clientIp, code: authorized.refusal.code }, 'postgresql login refused');
        return fatal(socket, '28000', refusalText(authorized.refusal));
      }
      await connect(socket, input, authorized, parameters, clientIp, startup);
    } catch (err) {
      logger.debug({ err, ip: clientIp }, 'postgresql start-up failed');
      fatal(socket, '08P01', 'Portcullis: the start-up could not be read');
    } finally {
      clearTimeout(timer);
    }
  }

  async function connect(
    socket: net.Socket,
    input: ReturnType<typeof messages>,
    authorized: AuthorizedDb,
    parameters: Map<string, string>,
    clientIp: string,
    startup: string,
  ): Promise<void> {
    const { target, resolved } = authorized;
    const listed = resolved.resource.databases.find((d) => d !== '' && d !== '*');
    const database = parameters.get('database') || listed || target.username;
    const passOn = new Map([['database', database]]);
    for (const [k, v] of parameters) if (!WITHHELD.has(k)) passOn.set(k, v);
    const key = loginKey({ ...target, parameters: passOn });
    keyOfStartup.set(startup, key);
    const dbServer = serverOf(target);
    const login = async (): Promise<LoggedIn> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await loginToTarget({ ...target, parameters: passOn });
        } catch (err) {
          // Too many connections (the server's, the role's or the database's limit): ones this
          // gateway keeps idle for other start-up settings may hold the slots. They are closed,
          // and the login is tried again while their backends exit; with none to close, the
          // refusal stands.
          const tooMany = err instanceof TargetRefused && err.sqlState === TOO_MANY_CONNECTIONS;
          if (!tooMany || attempt >= FREED_RETRIES) throw err;
          if (pool.closeIdleOn(dbServer) === 0 && attempt === 0) throw err;
          await new Promise((resolve) => setTimeout(resolve, FREED_RETRY_MS));
        }
      }
    };
    let loggedIn: LoggedIn;
    try {
      loggedIn = pool.take(key) ?? (await login());
    } catch (err) {
      authorized.drop();
      // The database's own words (user names, addresses) go to the gateway's log only.
      const why = err instanceof TargetRefused ? err.message : 'the database cannot be reached';
      logger.warn(
        { ip: clientIp, tunnel_id: resolved.tunnel_id, reason: why },
        'postgresql target login failed',
      );
      // The resource's TLS setting is the gateway's own reason: the member hears it.
      if (err instanceof TargetTlsRefused) {
        return fatal(socket, '08004', `Portcullis: InvalidResource: The resource refused: ${why}`);
      }
      return fatal(
        socket,
        '28000',
        'Portcullis: the database refused the connect account (InvalidResource); the gateway log says why',
      );
    }
    if (socket.destroyed) {
      authorized.drop();
      return void loggedIn.socket.destroy();
    }
    // An error there (a reset) used to have no listener and ended the gateway.
    const held = holdTarget(loggedIn.socket);
    let begun: Awaited<ReturnType<AuthorizedDb['begin']>>;
    try {
      begun = await authorized.begin();
    } catch (err) {
      loggedIn.socket.destroy();
      throw err;
    }
    if (!begun.ok) {
      loggedIn.socket.destroy();
      return fatal(socket, '28000', refusalText(begun.refusal));
    }
    const session: DbSession = begun.session;
    if (socket.destroyed) {
      // The client left (or the start-up timer ran out) while the session was being opened.
      loggedIn.socket.destroy();
      return void session.end();
    }
    if (!held.release()) {
      void session.end();
      return fatal(socket, '08006', 'Portcullis: the database closed the connection');
    }
    // The client's cancel key is the gateway's own; it stands for the target's.
    const pid = crypto.randomInt(1, 2 ** 31 - 1);
    const secret = crypto.randomInt(1, 2 ** 31 - 1);
    if (loggedIn.backendKey) {
      cancelKeys.set(pid, {
        secret,
        host: target.host,
        port: target.port,
        key: loggedIn.backendKey,
      });
    }
    const leftover = input.stop();
    socket.write(
      Buffer.concat([
        authenticationOk(),
        ...loggedIn.parameterStatus,
        backendKeyData(pid, secret),
        readyForQuery(loggedIn.status),
      ]),
    );
    open.add(socket);
    relaySession({
      client: socket,
      clientBuffered: leftover,
      target: loggedIn.socket,
      targetBuffered: loggedIn.rest,
      session,
      database,
      clientEncoding: loggedIn.clientEncoding,
      logger,
      onCleanEnd: () => pool.giveBack(key, dbServer, loggedIn),
      onEnd: () => {
        open.delete(socket);
        cancelKeys.delete(pid);
      },
    });
  }

  function cancel(pid: number, secret: number): void {
    const entry = cancelKeys.get(pid);
    if (!entry || entry.secret !== secret) return;
    const target = net.connect({ host: entry.host, port: entry.port }, () => {
      target.end(startupPacket(CANCEL_REQUEST, entry.key.pid, entry.key.secret));
    });
    target.on('error', () => target.destroy());
  }

  const server = net.createServer((socket) => {
    socket.on('error', () => socket.destroy());
    handle(socket).catch((err: unknown) => {
      logger.error({ err }, 'postgresql session failed unexpectedly');
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port, tls: Boolean(secureContext) }, 'postgresql proxy listening');
  return {
    port,
    close: async () => {
      pool.close();
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
