/**
 * The gateway's MySQL endpoint (issue 7): `mysql -h GATEWAY -P 9696 -u CODE -p` reaches the
 * resource's database as its configured user. For each connection: the client logs in to the
 * gateway (handshake.ts; the code is the user name), the code is authorized by the server
 * (db-proxy/session.ts), the gateway logs in to the target with the stored credential
 * (target-auth.ts), the session begins, and the command phase is relayed under the database's
 * rules (relay.ts). Every refusal reaches the client as a MySQL ERR packet with the catalogue
 * code in front of its text, then the connection closes. A temporary authorization's password
 * is asked for as caching_sha2_password's full authentication does (client-password.ts): in
 * clear inside TLS, RSA-encrypted without; a password sent in clear without TLS is refused
 * (`TlsRequired`) and never used.
 *
 * A client that misbehaves (garbage, oversize or out-of-order packets, a login slower than
 * {@link LOGIN_TIMEOUT_MS}) loses its own connection and nothing else.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { formatError } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import { holdTarget } from '../db-proxy/held-target';
import type { AuthorizedDb, DbSession, DbSessions } from '../db-proxy/session';
import { ClearPasswordWithoutTls, askPassword } from './client-password';
import { randomConnectionId, readClientLogin, type ClientLogin } from './handshake';
import { ER, Malformed, errPayload, frame, type ErrorKind } from './packets';
import { Relay } from './relay';
import { TargetLoginError, loginTarget, type TargetLogin } from './target-auth';
import { refusalText } from '../core/session-ended';

export interface MysqlProxyOptions {
  port: number;
  host?: string;
  sessions: DbSessions;
  logger: Logger;
  /** PEM; TLS offered to clients when set */
  tls?: { key: string; cert: string };
}

export interface MysqlProxy {
  readonly port: number;
  /** stops listening, ends every session */
  close(): Promise<void>;
}

export const LOGIN_TIMEOUT_MS = 10_000;

/** A login step failed: what the client is told. */
class Refused extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

const TARGET_CLOSED = 'Portcullis: the database closed the connection';
/**
 * A temporary authorization's password sent in clear without TLS (a client that chose
 * mysql_clear_password, or one that thinks the connection secure): it is not used.
 */
const TLS_REQUIRED = refusalText({
  code: 'TlsRequired',
  message: formatError('TlsRequired', 'en_US', { how: '--ssl or --ssl-mode=REQUIRED' }),
});

const clientAddress = (socket: net.Socket): string =>
  (socket.remoteAddress ?? '').replace(/^::ffff:/, '');

/** '' or '*' in the resource's list offers every database (as db-proxy/session.ts decides). */
function offeredBy(authorized: AuthorizedDb): (database: string) => boolean {
  const list = authorized.resolved.resource.databases.filter((d) => d !== '');
  return (database) => list.length === 0 || list.includes('*') || list.includes(database);
}

/** What a KILL through another connection needs to find this one on the target. */
interface Killable {
  threadId: number;
  /** The code it came in by: only the same code's connections may stop it. */
  tunnelId: number;
}

interface Connection {
  socket: net.Socket;
  stream?: Duplex;
  target?: net.Socket;
  session?: DbSession;
  ended?: Promise<void>;
}

export function startMysqlProxy(options: MysqlProxyOptions): Promise<MysqlProxy> {
  const { sessions, logger } = options;
  const secureContext = options.tls
    ? tls.createSecureContext({ key: options.tls.key, cert: options.tls.cert })
    : undefined;
  const connections = new Set<Connection>();
  /** Relayed connections by the id their client was greeted with, for a Ctrl-C's KILL. */
  const relayed = new Map<number, Killable>();
  let closing = false;

  /** Authorizes the code, asking a temporary authorization's password when needed. */
  async function authorize(login: ClientLogin, clientIp: string): Promise<AuthorizedDb> {
    const base = { code: login.username, clientIp, database: login.database };
    let outcome = await sessions.authorize('mysql', base);
    if (!outcome.ok && outcome.refusal.code === 'PasswordError') {
      // A temporary authorization: its one-time password, never in clear outside TLS.
      let password: string;
      try {
        password = await askPassword(login);
      } catch (err) {
        if (err instanceof ClearPasswordWithoutTls)
          throw new Refused(ER.ACCESS_DENIED, TLS_REQUIRED);
        throw err;
      }
      outcome = await sessions.authorize('mysql', { ...base, password });
    }
    if (!outcome.ok) {
      throw new Refused(ER.ACCESS_DENIED, refusalText(outcome.refusal));
    }
    return outcome;
  }

  async function targetLogin(
    login: ClientLogin,
    authorized: AuthorizedDb,
    clientIp: string,
  ): Promise<TargetLogin> {
    try {
      return await loginTarget({
        target: authorized.target,
        clientCaps: login.caps,
        maxPacket: login.maxPacket,
        collation: login.collation,
        database: login.database,
      });
    } catch (err) {
      const reason = err instanceof TargetLoginError ? err.message : 'the login failed';
      logger.warn(
        { ip: clientIp, resource_id: authorized.resolved.resource.id, reason },
        'mysql target login failed',
      );
      const refused = err instanceof TargetLoginError && err.refused;
      throw new Refused(
        refused ? ER.ACCESS_DENIED : ER.UNKNOWN,
        refused
          ? 'InvalidResource: The resource refused: the database refused the login credential'
          : `InvalidResource: The resource refused: ${reason}`,
      );
    }
  }

  /** A greeting id no live relayed connection has (a collision would misdirect a KILL). */
  function unusedConnectionId(): number {
    let id = randomConnectionId();
    while (relayed.has(id)) id = randomConnectionId();
    return id;
  }

  async function serve(conn: Connection): Promise<void> {
    const { socket } = conn;
    const clientIp = clientAddress(socket);
    let login: ClientLogin | undefined;
    const timer = setTimeout(() => {
      logger.info({ ip: clientIp }, 'mysql login timed out');
      refuse(conn, ER.READ_TIMEOUT, 'Portcullis: the login took too long', login);
    }, LOGIN_TIMEOUT_MS);
    try {
      login = await readClientLogin(socket, secureContext, unusedConnectionId());
      conn.stream = login.socket;
      const authorized = await authorize(login, clientIp);
      if (closing || conn.stream.destroyed) return;
      const target = await targetLogin(login, authorized, clientIp);
      conn.target = target.socket;
      if (closing || conn.stream.destroyed) return void target.socket.destroy();
      const held = holdTarget(target.socket);
      const begun = await authorized.begin();
      if (!begun.ok) {
        target.socket.destroy();
        throw new Refused(ER.ACCESS_DENIED, refusalText(begun.refusal));
      }
      const { session } = begun;
      conn.session = session;
      if (closing || conn.stream.destroyed) {
        target.socket.destroy();
        conn.ended = session.end();
        return;
      }
      // Killed while the session started (an administrator's KILL): the client hears so now.
      if (!held.release()) throw new Refused(ER.UNKNOWN, TARGET_CLOSED);
      clearTimeout(timer);
      // The target's own OK (its status flags) answers the client's login.
      conn.stream.write(frame(target.ok, login.seq + 1));
      const clientRest = login.reader.detach();
      logger.info(
        { ip: clientIp, connection_id: session.connectionId, tls: login.tls },
        'mysql session relayed',
      );
      const killable: Killable = {
        threadId: target.threadId,
        tunnelId: authorized.resolved.tunnel_id,
      };
      const greetedId = login.connectionId;
      relayed.set(greetedId, killable);
      new Relay({
        client: conn.stream,
        target: target.socket,
        clientRest,
        targetRest: target.rest,
        session,
        database: login.database,
        offered: offeredBy(authorized),
        targetThreadOf: (id) => {
          // Only connections of the same code: an id is not a key.
          const other = relayed.get(id);
          return other?.tunnelId === killable.tunnelId ? other.threadId : undefined;
        },
        logger: logger.child({ connection_id: session.connectionId }),
        onClosed: () => {
          if (relayed.get(greetedId) === killable) relayed.delete(greetedId);
          conn.ended ??= session.end();
          void conn.ended.finally(() => connections.delete(conn));
        },
      });
    } catch (err) {
      clearTimeout(timer);
      if (err instanceof Refused) {
        logger.info({ ip: clientIp, reason: err.message }, 'mysql login refused');
        refuse(conn, err.kind, err.message, login);
      } else if (err instanceof Malformed) {
        logger.info({ ip: clientIp, reason: err.message }, 'mysql client broke the protocol');
        refuse(conn, err.kind, `Portcullis: ${err.message}`, login);
      } else {
        // The client went away (or TLS failed): nobody to tell.
        drop(conn);
      }
    }
  }

  /** ERR_Packet to the client (numbered after its last packet), then the connection goes. */
  function refuse(
    conn: Connection,
    kind: ErrorKind,
    message: string,
    login: ClientLogin | undefined,
  ): void {
    const stream = conn.stream ?? conn.socket;
    if (!stream.destroyed && stream.writable) {
      stream.end(frame(errPayload(kind, message), login ? login.seq + 1 : 2));
    }
    setTimeout(() => drop(conn), 200).unref();
  }

  function drop(conn: Connection): void {
    conn.target?.destroy();
    conn.stream?.destroy();
    conn.socket.destroy();
    if (conn.session) conn.ended ??= conn.session.end();
    if (!conn.session || conn.ended) connections.delete(conn);
  }

  const server = net.createServer((socket) => {
    if (closing) return void socket.destroy();
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    const conn: Connection = { socket };
    connections.add(conn);
    socket.on('close', () => {
      if (!conn.session) connections.delete(conn);
    });
    serve(conn).catch((err: unknown) => {
      logger.error({ err }, 'mysql connection failed');
      drop(conn);
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      const port = (server.address() as net.AddressInfo).port;
      logger.info({ port, tls: Boolean(secureContext) }, 'mysql proxy listening');
      resolve({
        port,
        async close() {
          closing = true;
          const stopped = new Promise<void>((done) => server.close(() => done()));
          const ends: Promise<void>[] = [];
          for (const conn of connections) {
            drop(conn);
            if (conn.ended) ends.push(conn.ended);
          }
          await Promise.all([stopped, ...ends]);
        },
      });
    });
  });
}
