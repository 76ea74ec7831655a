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
 * A database's `tls` (core/db-tls.ts) is honoured as a session would: under require or verify,
 * no TLS or a refused certificate is `tls_failed`, and the drivers stop before the login. Without
 * it the drivers connect as they always did here.
 */
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import ssh2, { type AnyAuthMethod } from 'ssh2';
import type { ConnectivityTarget } from '../control/protocol';
import { isCertificateError, targetTlsOptions } from '../core/db-tls';
import { pinnedHostVerifier } from '../core/host-key-pin';
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

const MYSQL_REASONS: Record<string, FailureReason> = {
  ER_ACCESS_DENIED_ERROR: 'auth_failed',
  ER_DBACCESS_DENIED_ERROR: 'auth_failed',
  ER_ACCESS_DENIED_NO_PASSWORD_ERROR: 'auth_failed',
  ER_NOT_SUPPORTED_AUTH_MODE: 'auth_failed',
  ER_BAD_DB_ERROR: 'bad_database',
  ER_HOST_NOT_PRIVILEGED: 'refused',
  ER_HOST_IS_BLOCKED: 'refused',
  PROTOCOL_CONNECTION_LOST: 'protocol_error',
  // Only with `ssl` set (a resource's tls): no CLIENT_SSL in the greeting, or the TLS handshake
  // (the certificate included) failed.
  HANDSHAKE_NO_SSL_SUPPORT: 'tls_failed',
  HANDSHAKE_SSL_ERROR: 'tls_failed',
};

/**
 * mysql2's `ssl` for a resource's tls, in its own names. It sends SNI only for a host name,
 * and checks the certificate's names (an IP address's too) only when asked (verifyIdentity).
 */
function mysqlSsl(target: ConnectivityTarget): mysql.SslOptions | undefined {
  if (!target.tls) return undefined;
  // The proxies' own rules (core/db-tls.ts): checked, with the resource's CAs, only under verify.
  const { rejectUnauthorized: verify, ca } = targetTlsOptions(target.host, target.tls);
  return {
    rejectUnauthorized: verify,
    verifyIdentity: verify,
    ...(typeof ca === 'string' && { ca }),
  };
}

/**
 * mysql2 gives Node no host to check a certificate's names against when it dials an IP
 * address (no SNI, rightly, and no `host` either), so Node falls back to the socket's `_host`,
 * which net sets for host names only, and then to 'localhost': a certificate for the address
 * would always be refused. So under verify the socket is made here and told its host. Were
 * Node to stop reading `_host`, such certificates would be refused, never let through.
 */
function mysqlStream(target: ConnectivityTarget): (() => net.Socket) | undefined {
  if (target.tls?.mode !== 'verify' || net.isIP(target.host) === 0) return undefined;
  return () => {
    const socket = net.connect({ host: target.host, port: target.port });
    socket.setNoDelay(true);
    // A private field of Node's (see above), which @types/node does not declare.
    (socket as net.Socket & { _host?: string })._host = target.host;
    return socket;
  };
}

/** MySQL / MariaDB: a full handshake with the user, password and database. */
function tryMysql(target: ConnectivityTarget, timeoutMs: number): Promise<FailureReason | null> {
  let connection: mysql.Connection | undefined;
  let timedOut = false;
  const attempt = (async (): Promise<FailureReason | null> => {
    try {
      connection = await mysql.createConnection({
        host: target.host,
        port: target.port,
        user: target.username,
        password: target.password ?? '',
        database: firstDatabase(target.database),
        connectTimeout: timeoutMs + 1000,
        ssl: mysqlSsl(target),
        stream: mysqlStream(target),
      });
      connection.on('error', () => undefined);
      if (timedOut) connection.destroy();
      return null;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      return (
        (typeof code === 'string' ? MYSQL_REASONS[code] : undefined) ??
        networkReason(err) ??
        'error'
      );
    }
  })();
  return withDeadline(attempt, timeoutMs, () => {
    timedOut = true;
    connection?.destroy();
  }).finally(() => {
    connection?.end().catch(() => connection?.destroy());
  });
}

const POSTGRES_REASONS: Record<string, FailureReason> = {
  '28P01': 'auth_failed', // invalid_password
  '28000': 'auth_failed', // invalid_authorization_specification (no such role, pg_hba refusal)
  '3D000': 'bad_database', // invalid_catalog_name
  '57P03': 'refused', // cannot_connect_now (starting up, shutting down)
  '53300': 'refused', // too_many_connections
};

/**
 * pg's words when a server answers the SSLRequest with 'N', or with anything but 'S': it gives
 * them no code, so they are matched as written (node-postgres lib/connection.js).
 */
const PG_NO_TLS = new Set([
  'The server does not support SSL connections',
  'There was an error establishing an SSL connection',
]);

/** Whether pg failed on the resource's TLS: none offered, or the certificate refused. */
const pgTlsFailed = (err: unknown): boolean =>
  isCertificateError(err) || (err instanceof Error && PG_NO_TLS.has(err.message));

/** PostgreSQL: connect (authentication) and `select 1`. */
function tryPostgres(target: ConnectivityTarget, timeoutMs: number): Promise<FailureReason | null> {
  const client = new pg.Client({
    host: target.host,
    port: target.port,
    user: target.username,
    password: target.password ?? '',
    database: firstDatabase(target.database) ?? 'postgres',
    connectionTimeoutMillis: timeoutMs + 1000,
    query_timeout: timeoutMs,
    application_name: 'portcullis-gateway',
    // pg sends `host` and SNI by the same rules (SNI only for a host name).
    ...(target.tls && { ssl: targetTlsOptions(target.host, target.tls) }),
  });
  client.on('error', () => undefined);
  const attempt = (async (): Promise<FailureReason | null> => {
    try {
      await client.connect();
      await client.query('select 1');
      return null;
    } catch (err) {
      if (target.tls && pgTlsFailed(err)) return 'tls_failed';
      const code = (err as { code?: unknown }).code;
      return (
        (typeof code === 'string' ? POSTGRES_REASONS[code] : undefined) ??
        networkReason(err) ??
        'error'
      );
    }
  })();
  return withDeadline(attempt, timeoutMs, () => {
    client.end().catch(() => undefined);
  }).finally(() => {
    client.end().catch(() => undefined);
  });
}
