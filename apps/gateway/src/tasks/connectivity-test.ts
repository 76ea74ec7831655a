/**
 * Connectivity test (spec 2 §4): the gateway tries the resource the way a session will and
 * answers ok or a short reason word. SSH, MySQL and PostgreSQL really log in; SQL Server and
 * RDP are tested for TCP reachability of host:port only, because there is no pure-JavaScript
 * TDS login or RDP (CredSSP/NLA) client for Node 20 available to this project: an `ok` for
 * those kinds means "something accepts connections there", not "these credentials work".
 *
 * The credential lives in memory for this one call. It is never logged and never part of a
 * reason: reasons are fixed words (see reasons.ts), never a server's message text.
 *
 * MySQL and PostgreSQL log in with the sessions' own code (mysql-proxy/target-auth.ts,
 * postgres-proxy/target-login.ts), not a driver's, so the test meets what a session meets: the
 * same TLS (a database's `tls`, core/db-tls.ts: under require or verify, no TLS or a refused
 * certificate is `tls_failed`, found before any credential is sent), the same auth plugins
 * and methods (one sessions refuse is `auth_failed`), the same database (for PostgreSQL the
 * first listed, else `postgres`: see tryPostgres). The connection is
 * closed as soon as the login is through.
 */
import type net from 'node:net';
import ssh2, { type AnyAuthMethod } from 'ssh2';
import type { ConnectivityTarget } from '../control/protocol';
import { pinnedHostVerifier } from '../core/host-key-pin';
import type { DbTarget } from '../db-proxy/session';
import { DEFAULT_COLLATION, OFFERED_CAPS } from '../mysql-proxy/handshake';
import { frame } from '../mysql-proxy/packets';
import { loginTarget, TargetLoginError, type TargetLoginKind } from '../mysql-proxy/target-auth';
import { message } from '../postgres-proxy/messages';
import {
  loginToTarget,
  TargetAuthUnsupported,
  TargetRefused,
  TargetTlsFailed,
  TargetTlsRefused,
} from '../postgres-proxy/target-login';
import { networkReason, type FailureReason } from './reasons';
import { tcpProbe } from './tcp-probe';

// ssh2 is CommonJS; Node's ESM loader only sees its default export.
const { Client: SshClient, utils: sshUtils } = ssh2;

/** Every kind of test gives up after this long. */
export const CONNECTIVITY_TIMEOUT_MS = 10_000;

export interface ConnectivityResult {
  ok: boolean;
  /** '' when ok; otherwise one of the words of {@link FailureReason}. */
  reason: FailureReason | '';
}

export interface ConnectivityOptions {
  timeoutMs?: number;
}

type Attempt = (target: ConnectivityTarget, timeoutMs: number) => Promise<FailureReason | null>;

const ATTEMPTS: Record<ConnectivityTarget['kind'], Attempt> = {
  ssh: trySsh,
  mysql: tryMysql,
  postgresql: tryPostgres,
  mssql: tryTcp,
  rdp: tryTcp,
};

/** Runs one connectivity test; never rejects. */
export async function runConnectivityTest(
  target: ConnectivityTarget,
  options: ConnectivityOptions = {},
): Promise<ConnectivityResult> {
  const timeoutMs = options.timeoutMs ?? CONNECTIVITY_TIMEOUT_MS;
  try {
    const reason = await ATTEMPTS[target.kind](target, timeoutMs);
    return reason === null ? { ok: true, reason: '' } : { ok: false, reason };
  } catch (err) {
    return { ok: false, reason: networkReason(err) ?? 'error' };
  }
}

/**
 * The one database a test connects to: resources may list several separated by ';' or '*'
 * for all of them; the first named one is tried, none for '*' or an empty list.
 */
export function firstDatabase(database: string | undefined): string | undefined {
  const names = (database ?? '')
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== '*');
  return names[0];
}

/**
 * Resolves with the attempt's reason, or 'timeout' after `ms` (calling `onTimeout` to tear
 * the half-open client down).
 */
function withDeadline(
  attempt: Promise<FailureReason | null>,
  ms: number,
  onTimeout: () => void,
): Promise<FailureReason | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      onTimeout();
      resolve('timeout');
    }, ms);
    attempt.then(
      (reason) => {
        clearTimeout(timer);
        resolve(reason);
      },
      (err: unknown) => {
        clearTimeout(timer);
        resolve(networkReason(err) ?? 'error');
      },
    );
  });
}

async function tryTcp(
  target: ConnectivityTarget,
  timeoutMs: number,
): Promise<FailureReason | null> {
  const result = await tcpProbe(target.host, target.port, timeoutMs);
  return result.open ? null : result.reason;
}

function sshAuthMethods(target: ConnectivityTarget): AnyAuthMethod[] | FailureReason {
  const username = target.username;
  if (target.private_key !== undefined && target.private_key !== '') {
    // Key login: the password, when given with a key, is the key's passphrase.
    const parsed = sshUtils.parseKey(target.private_key, target.password);
    if (parsed instanceof Error) return 'bad_key';
    return [{ type: 'publickey', username, key: target.private_key, passphrase: target.password }];
  }
  const password = target.password ?? '';
  return [
    { type: 'password', username, password },
    // Servers that only offer PAM's keyboard-interactive get the password as every answer.
    {
      type: 'keyboard-interactive',
      username,
      prompt: (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => password)),
    },
  ];
}

/** SSH: success means the server accepted the credential (the 'ready' event). */
function trySsh(target: ConnectivityTarget, timeoutMs: number): Promise<FailureReason | null> {
  const methods = sshAuthMethods(target);
  if (typeof methods === 'string') return Promise.resolve(methods);
  const client = new SshClient();
  const attempt = new Promise<FailureReason | null>((resolve) => {
    client.on('ready', () => resolve(null));
    client.on('error', (err: Error & { level?: string }) => {
      if (err.level === 'client-authentication') resolve('auth_failed');
      else if (err.level === 'client-timeout') resolve('timeout');
      else resolve(networkReason(err) ?? 'protocol_error');
    });
    client.on('close', () => resolve('protocol_error'));
    client.connect({
      host: target.host,
      port: target.port,
      username: target.username,
      authHandler: methods,
      readyTimeout: timeoutMs + 1000,
      // A pinned key (the first session's) is checked before the credential is sent.
      hostVerifier: pinnedHostVerifier(target.host_key, (_seen, matches) => {
        if (!matches) resolve('host_key_changed');
      }),
    });
  });
  return withDeadline(attempt, timeoutMs, () => client.destroy()).finally(() => client.end());
}

/**
 * Runs a database login under the test's deadline: past it the login is given up (its
 * connection destroyed, not left to the login's own timer) and the test answers timeout. A
 * login that gets through is closed at once with `bye`, the protocol's own goodbye.
 */
function loginWithin<T extends { socket: net.Socket }>(
  timeoutMs: number,
  login: (signal: AbortSignal) => Promise<T>,
  bye: Buffer,
  reason: (err: unknown) => FailureReason,
): Promise<FailureReason | null> {
  const controller = new AbortController();
  const attempt = login(controller.signal).then(({ socket }) => {
    socket.on('error', () => undefined);
    socket.end(bye, () => socket.destroy());
    return null;
  }, reason);
  return withDeadline(attempt, timeoutMs, () => controller.abort());
}

/** MySQL error numbers (ERR_Packet) a test tells apart; any other is 'error'. */
const MYSQL_ERRNO_REASONS: Record<number, FailureReason> = {
  1045: 'auth_failed', // ER_ACCESS_DENIED_ERROR
  1044: 'auth_failed', // ER_DBACCESS_DENIED_ERROR
  1698: 'auth_failed', // ER_ACCESS_DENIED_NO_PASSWORD_ERROR
  1251: 'auth_failed', // ER_NOT_SUPPORTED_AUTH_MODE
  1049: 'bad_database', // ER_BAD_DB_ERROR
  1130: 'refused', // ER_HOST_NOT_PRIVILEGED
  1129: 'refused', // ER_HOST_IS_BLOCKED
  1040: 'refused', // ER_CON_COUNT_ERROR
  1203: 'refused', // ER_TOO_MANY_USER_CONNECTIONS
  1226: 'refused', // ER_USER_LIMIT_REACHED
  3118: 'auth_failed', // ER_ACCOUNT_HAS_BEEN_LOCKED
};

/** A failed MySQL login's reason when neither its error number nor Node's error says more. */
const MYSQL_KIND_REASONS: Record<TargetLoginKind, FailureReason> = {
  server: 'error',
  tls: 'tls_failed',
  // A plugin sessions refuse (sha256_password, ed25519, ...): every session fails there.
  auth_plugin: 'auth_failed',
  network: 'error',
  timeout: 'timeout',
  protocol: 'protocol_error',
};

function mysqlReason(err: unknown): FailureReason {
  if (!(err instanceof TargetLoginError)) return networkReason(err) ?? 'error';
  if (err.kind === 'tls') return 'tls_failed';
  return (
    (err.errno === undefined ? undefined : MYSQL_ERRNO_REASONS[err.errno]) ??
    networkReason(err.cause) ??
    MYSQL_KIND_REASONS[err.kind]
  );
}

/** The max_allowed_packet MySQL's own client sends (16 MiB). */
const MAX_PACKET = 0x1000000;
/** COM_QUIT, sent after a successful login as a client leaving does. */
const COM_QUIT = frame(Buffer.from([0x01]), 0);

/**
 * MySQL / MariaDB: the sessions' own login (mysql-proxy/target-auth.ts) as a client that
 * negotiated everything the gateway offers, with the first database listed: the same TLS,
 * auth plugins and refusals a session meets.
 */
function tryMysql(target: ConnectivityTarget, timeoutMs: number): Promise<FailureReason | null> {
  return loginWithin(
    timeoutMs,
    (signal) =>
      loginTarget({
        target: dbTarget(target),
        clientCaps: OFFERED_CAPS,
        maxPacket: MAX_PACKET,
        collation: DEFAULT_COLLATION,
        database: firstDatabase(target.database) ?? '',
        signal,
      }),
    COM_QUIT,
    mysqlReason,
  );
}

const POSTGRES_REASONS: Record<string, FailureReason> = {
  '28P01': 'auth_failed', // invalid_password
  '28000': 'auth_failed', // invalid_authorization_specification (no such role, pg_hba refusal)
  '3D000': 'bad_database', // invalid_catalog_name
  '57P03': 'refused', // cannot_connect_now (starting up, shutting down)
  '53300': 'refused', // too_many_connections
};

function postgresReason(err: unknown): FailureReason {
  if (err instanceof TargetTlsRefused || err instanceof TargetTlsFailed) return 'tls_failed';
  // A method sessions do not speak (GSSAPI, SSPI, SCRAM without SCRAM-SHA-256).
  if (err instanceof TargetAuthUnsupported) return 'auth_failed';
  if (!(err instanceof TargetRefused)) return networkReason(err) ?? 'error';
  if (err.sqlState !== undefined) return POSTGRES_REASONS[err.sqlState] ?? 'error';
  if (err.cause !== undefined) return networkReason(err.cause) ?? 'error';
  // Closed mid-login, answered oddly, a SCRAM exchange that did not add up.
  return 'protocol_error';
}

/** Terminate, sent after a successful login as a client leaving does. */
const TERMINATE = message('X');

/**
 * PostgreSQL: the sessions' own login (postgres-proxy/target-login.ts) up to ReadyForQuery,
 * which the server sends once the backend has started in the database: a query after it
 * would prove no more. The database is the first listed; with none listed, clients name their
 * own, which the test cannot know, so it asks for `postgres`, the maintenance database every
 * server has (a session of a client that names none gets the one named like the role).
 */
function tryPostgres(target: ConnectivityTarget, timeoutMs: number): Promise<FailureReason | null> {
  const database = firstDatabase(target.database) ?? 'postgres';
  return loginWithin(
    timeoutMs,
    (signal) =>
      loginToTarget({
        ...dbTarget(target),
        parameters: new Map([
          ['database', database],
          ['application_name', 'portcullis-gateway'],
        ]),
        signal,
      }),
    TERMINATE,
    postgresReason,
  );
}

/** The target as the database proxies' logins take it. */
function dbTarget(target: ConnectivityTarget): DbTarget {
  return {
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password ?? '',
    ...(target.tls && { tls: target.tls }),
  };
}
