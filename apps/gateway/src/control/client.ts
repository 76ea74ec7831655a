/**
 * The gateway's control client: keeps one control-channel connection to the server alive for
 * as long as the gateway runs, and runs the tasks the server sends.
 *
 * - Network failures (refused, reset, DNS, a 5xx on upgrade, a silent server) are retried
 *   forever with capped exponential backoff; the backoff resets once a server has welcomed us.
 * - A refused cluster key (close code 1008, or HTTP 401/403 on upgrade) and `update_required`
 *   end the gateway: retrying cannot help, and the exit reason tells the operator why.
 * - A task never brings the gateway down: a failure to run becomes `task_result.error`.
 *   Results that finish while disconnected are sent after the next welcome (bounded).
 */
import os from 'node:os';
import { compareVersions } from '@portcullis/contract';
import { silentLogger, type Logger } from '../core/logger';
import { DEFAULT_PORTS } from '../core/ports';
import { GATEWAY_VERSION } from '../core/version';
import { createRecordings, type Recordings } from '../recording';
import { startSshProxy, type SshProxy } from '../ssh-proxy/server';
import { startSshProxyPool, type SshWorkersOptions } from '../ssh-proxy/pool/primary';
import { startWebTerminal, type WebTerminal } from '../web-terminal/server';
import { startDatabaseProxies, type DatabaseProxies } from '../db-proxy/start';
import { runTask, type TaskContext } from '../tasks';
import { taskErrorText } from '../tasks/errors';
import { backoffDelay, type BackoffOptions } from './backoff';
import { CLOSE_BAD_HELLO, openConnection, type Connection, type ConnectionEnd } from './connection';
import {
  CONTROL_PROTOCOL,
  type GatewayMessage,
  type GatewayPorts,
  type ServerMessage,
} from './protocol';
import { createSessionRequests, type SessionControlApi } from './session-requests';
import { controlUrl } from './url';

/** What this build can do (reported in hello); the session proxies come later. */
export const IMPLEMENTED_FEATURES = [
  'connectivity_test',
  'scan',
  'key_upload',
  'key_test',
  'host_key_pin',
  'db_tls',
] as const;

export interface GatewayOptions {
  /** The server's address, `http(s)://host[:port][/prefix]`. */
  server: string;
  /** The cluster key. */
  key: string;
  /** The host name clients use to reach this gateway (default: this machine's host name). */
  host?: string;
  ports?: Partial<GatewayPorts>;
  logger?: Logger;
  backoff?: BackoffOptions;
  /** Time allowed for the handshake and for welcome after it (default 15 s). */
  welcomeTimeoutMs?: number;
  /** Tasks run at once; more are answered with error 'busy' (default 16). */
  maxConcurrentTasks?: number;
  /** Overrides for task timeouts (tests use shorter ones). */
  tasks?: Omit<TaskContext, 'signal'>;
  /** Extra CA certificates (PEM) trusted for an https server. */
  ca?: string | Buffer;
  /**
   * Runs the SSH proxy on ports.ssh_port (default 9998), its host key kept in `dataDir`.
   * Without it this gateway carries no SSH sessions (and does not report the `ssh` feature).
   */
  sshProxy?: {
    dataDir: string;
    listenHost?: string;
    /** Run the sessions in worker processes (ssh-proxy/pool); in this process without it. */
    workers?: SshWorkersOptions;
  };
  /**
   * Runs the web terminal on ports.webssh_port (default 8889); recordings are spooled in
   * `dataDir` (the SSH proxy's when both run). Reports the `webssh` feature.
   */
  webTerminal?: { dataDir: string; listenHost?: string };
  /**
   * Runs the PostgreSQL and MySQL proxies on ports.postgresql_port (default 9432) and
   * ports.mysql_port (9696); statement logs are spooled in `dataDir`, where the proxies' TLS
   * certificate is kept too. Reports `postgresql` and `mysql`.
   */
  databaseProxies?: {
    dataDir: string;
    listenHost?: string;
    /** Seconds an idle PostgreSQL connection is kept for the next session (default 30; 0: none). */
    pgKeepIdleSeconds?: number;
  };
}

export type GatewayExitReason = 'stopped' | 'key_rejected' | 'update_required';

export interface GatewayExit {
  reason: GatewayExitReason;
  /** Set for update_required: the version the server publishes. */
  latestVersion?: string;
}

/** Rejects `connected` when the gateway ends before a server ever welcomed it. */
export class GatewayExitError extends Error {
  override readonly name = 'GatewayExitError';
  constructor(readonly exit: GatewayExit) {
    super(`gateway ended: ${exit.reason}`);
  }
}

export interface Gateway {
  /** Resolves at the first welcome; rejects with GatewayExitError if the gateway ends first. */
  readonly connected: Promise<void>;
  /** Resolves when the gateway has ended, with the reason. */
  readonly done: Promise<GatewayExit>;
  /** Closes the channel, cancels running tasks, and resolves once everything is down. */
  stop(): Promise<void>;
  /** The session requests to the server (used by the session proxies). */
  readonly sessions: SessionControlApi;
  /** Resolves once the SSH proxy listens (with its port), or null when it is not run. */
  readonly sshProxy: Promise<{ port: number } | null>;
  /** Resolves once the web terminal listens (with its port), or null when it is not run. */
  readonly webTerminal: Promise<{ port: number } | null>;
  /** The database proxies' ports, once listening (null when not run). */
  readonly databaseProxies: Promise<DatabaseProxies | null>;
  /** Terminal recordings (with the SSH proxy), or null. */
  readonly recordings: Recordings | null;
}

const MAX_PENDING_RESULTS = 100;
const PENDING_RESULT_TTL_MS = 5 * 60_000;

type TaskResultMessage = Extract<GatewayMessage, { type: 'task_result' }>;
type TaskMessage = Extract<ServerMessage, { type: 'task' }>;

/** Starts the gateway's control client. Throws at once for an unusable server address or key. */
export function startGateway(options: GatewayOptions): Gateway {
  const url = controlUrl(options.server);
  if (!/^[\x21-\x7e]{1,512}$/.test(options.key)) {
    throw new TypeError('the cluster key must be 1-512 printable characters without spaces');
  }
  const logger = options.logger ?? silentLogger;
  const hello: Extract<GatewayMessage, { type: 'hello' }> = {
    v: CONTROL_PROTOCOL,
    type: 'hello',
    version: GATEWAY_VERSION,
    host: (options.host ?? os.hostname()).slice(0, 255),
    ports: { ...DEFAULT_PORTS, ...options.ports },
    features: [
      ...IMPLEMENTED_FEATURES,
      ...(options.sshProxy ? ['ssh'] : []),
      ...(options.webTerminal ? ['webssh'] : []),
      ...(options.databaseProxies ? ['postgresql', 'mysql'] : []),
    ],
  };

  let stopping = false;
  let connection: Connection | undefined;
  let wakeFromBackoff: (() => void) | undefined;
  const running = new Map<string, AbortController>();
  let pending: { message: TaskResultMessage; at: number }[] = [];
  let welcomedOnce = false;

  let resolveConnected!: () => void;
  let rejectConnected!: (err: Error) => void;
  const connected = new Promise<void>((resolve, reject) => {
    resolveConnected = resolve;
    rejectConnected = reject;
  });
  connected.catch(() => undefined); // a caller that never awaits it must not see a rejection

  const sessions = createSessionRequests((message) => connection?.send(message) ?? false);
  let proxy: SshProxy | null = null;
  const recordingDir = (options.sshProxy ?? options.webTerminal ?? options.databaseProxies)
    ?.dataDir;
  const recordings = recordingDir
    ? createRecordings(recordingDir, (chunk) => connection?.sendChunk(chunk) ?? false, logger)
    : null;
  const proxyOptions = options.sshProxy && {
    port: hello.ports.ssh_port,
    host: options.sshProxy.listenHost,
    dataDir: options.sshProxy.dataDir,
    control: sessions,
    logger,
    ...(recordings && { recordings }),
  };
  const workers = options.sshProxy?.workers;
  const sshProxy: Promise<{ port: number } | null> = proxyOptions
    ? (workers && workers.count > 0
        ? startSshProxyPool({ ...proxyOptions, workers })
        : startSshProxy(proxyOptions)
      ).then((started) => {
        proxy = started;
        return { port: started.port };
      })
    : Promise.resolve(null);
  sshProxy.catch((err: unknown) => logger.error({ err }, 'the ssh proxy could not start'));
  let terminal: WebTerminal | null = null;
  const webTerminal: Promise<{ port: number } | null> = options.webTerminal
    ? startWebTerminal({
        port: hello.ports.webssh_port,
        host: options.webTerminal.listenHost,
        control: sessions,
        logger,
        ...(recordings && { recordings }),
      }).then((started) => {
        terminal = started;
        return { port: started.port };
      })
    : Promise.resolve(null);
  webTerminal.catch((err: unknown) => logger.error({ err }, 'the web terminal could not start'));

  const databaseProxies = options.databaseProxies
    ? startDatabaseProxies({
        ...options.databaseProxies,
        ports: hello.ports,
        control: sessions,
        logger,
        recordings: recordings!,
      })
    : Promise.resolve(null);
  databaseProxies.catch((err: unknown) =>
    logger.error({ err }, 'the database proxies could not start'),
  );

  const deliver = (message: TaskResultMessage): void => {
    if (connection?.send(message)) return;
    pending.push({ message, at: Date.now() });
    if (pending.length > MAX_PENDING_RESULTS) pending.shift();
  };

  const onWelcome = (message: Extract<ServerMessage, { type: 'welcome' }>): void => {
    logger.info(
      { cluster_id: message.cluster_id, heartbeat_seconds: message.heartbeat_seconds },
      'welcomed by the server',
    );
    if (compareVersions(message.latest_version, GATEWAY_VERSION) > 0) {
      logger.info(
        { latest_version: message.latest_version, version: GATEWAY_VERSION },
        'a newer gateway is published',
      );
    }
    welcomedOnce = true;
    resolveConnected();
    const now = Date.now();
    const waiting = pending.filter((p) => now - p.at < PENDING_RESULT_TTL_MS);
    pending = [];
    for (const p of waiting) deliver(p.message);
    recordings?.onConnected();
  };

  const onTask = (message: TaskMessage): void => {
    const { task_id: taskId, task } = message;
    const reply = (body: Omit<TaskResultMessage, 'v' | 'type' | 'task_id'>): void =>
      deliver({ v: CONTROL_PROTOCOL, type: 'task_result', task_id: taskId, ...body });
    if (running.has(taskId)) {
      logger.warn({ task_id: taskId }, 'task already running; ignoring the repeat');
      return;
    }
    if (running.size >= (options.maxConcurrentTasks ?? 16)) {
      logger.warn({ task_id: taskId, kind: task.kind }, 'too many tasks running; refusing');
      reply({ error: 'busy' });
      return;
    }
    const controller = new AbortController();
    running.set(taskId, controller);
    const started = Date.now();
    // Where the task points, never its credential.
    const where =
      task.kind === 'scan'
        ? { cidr: task.cidr, port: task.port }
        : {
            target_kind: task.kind === 'connectivity_test' ? task.target.kind : 'ssh',
            host: task.target.host,
            port: task.target.port,
          };
    logger.info({ task_id: taskId, kind: task.kind, ...where }, 'task started');
    runTask(task, { ...options.tasks, signal: controller.signal })
      .then(
        (result) => {
          const summary =
            result.kind === 'scan'
              ? { open: result.open.length }
              : { ok: result.ok, reason: result.reason };
          logger.info(
            { task_id: taskId, kind: task.kind, ms: Date.now() - started, ...summary },
            'task done',
          );
          reply({ result });
        },
        (err: unknown) => {
          const error = taskErrorText(err);
          logger.warn({ task_id: taskId, kind: task.kind, error, err }, 'task could not run');
          reply({ error });
        },
      )
      .catch((err: unknown) => logger.error({ task_id: taskId, err }, 'could not reply to a task'))
      .finally(() => running.delete(taskId));
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeFromBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const describe = (end: Extract<ConnectionEnd, { kind: 'closed' }>): Record<string, unknown> => ({
    code: end.code,
    ...(end.status !== undefined ? { http_status: end.status } : {}),
    ...(end.error !== undefined ? { err: end.error } : {}),
  });

  const loop = async (): Promise<GatewayExit> => {
    let attempt = 0;
    while (!stopping) {
      logger.debug({ url: url.origin, attempt }, 'dialling the server');
      try {
        connection = openConnection({
          url,
          key: options.key,
          hello,
          logger,
          welcomeTimeoutMs: options.welcomeTimeoutMs ?? 15_000,
          ca: options.ca,
          onWelcome,
          onTask,
          onReply: (message) => sessions.onReply(message),
          onCut: (message) =>
            sessions.onCutMessage(message.connection_id, message.reason, message.reason_code),
          onRecordingAck: (message) => recordings?.onAck(message),
        });
      } catch (err) {
        logger.error({ err }, 'could not dial the server');
        connection = undefined;
      }
      const end: ConnectionEnd = connection
        ? await connection.ended
        : { kind: 'closed', welcomed: false };
      connection = undefined;
      sessions.failAll();
      if (end.kind === 'key_rejected') {
        logger.fatal(
          { code: end.code, http_status: end.status },
          'the server refused the cluster key',
        );
        return { reason: 'key_rejected' };
      }
      if (end.kind === 'update_required') {
        logger.fatal(
          {
            version: GATEWAY_VERSION,
            latest_version: end.latestVersion,
            min_protocol: end.minProtocol,
          },
          'the server requires a newer gateway; update it',
        );
        return end.latestVersion
          ? { reason: 'update_required', latestVersion: end.latestVersion }
          : { reason: 'update_required' };
      }
      if (stopping) break;
      if (end.code === CLOSE_BAD_HELLO) {
        logger.error({ version: GATEWAY_VERSION }, 'the server could not read our hello');
      }
      if (end.welcomed) attempt = 0;
      const delay = backoffDelay(attempt++, options.backoff);
      logger.warn({ ...describe(end), retry_in_ms: delay }, 'control channel down; will retry');
      await sleep(delay);
    }
    return { reason: 'stopped' };
  };

  const done = loop().then((exit) => {
    for (const controller of running.values()) controller.abort();
    if (!welcomedOnce) rejectConnected(new GatewayExitError(exit));
    return exit;
  });

  return {
    connected,
    done,
    stop: async () => {
      stopping = true;
      for (const controller of running.values()) controller.abort();
      connection?.close(1000, 'gateway stopping');
      wakeFromBackoff?.();
      await done;
      await sshProxy.catch(() => null);
      await (proxy as SshProxy | null)?.close();
      await webTerminal.catch(() => null);
      await (terminal as WebTerminal | null)?.close();
      await (await databaseProxies.catch(() => null))?.close();
      recordings?.stop();
    },
    sessions,
    sshProxy,
    webTerminal,
    databaseProxies,
    recordings,
  };
}
