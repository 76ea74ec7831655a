/**
 * The SSH proxy spread over worker processes (one per core by default): the primary accepts
 * each connection and hands the socket to the worker that is least loaded (open sessions, and
 * how busy its event loop was over the last 100 ms), so that a bulk transfer in one worker
 * does not hold up keystrokes in another (as sshd's process per connection does not). The
 * primary keeps what is shared: the control channel (workers' calls are relayed to it, cuts
 * are sent to every worker), the recording upload, and the host key, made before the workers
 * start so that they never race to create it. A worker that dies is started again; its
 * sessions end with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { SessionControlApi } from '../../control/session-requests';
import type { Logger, LogLevel } from '../../core/logger';
import type { Recordings } from '../../recording';
import { loadHostKey } from '../host-key';
import type { SshProxy } from '../server';
import { callControl, sendIpc, type FromWorker, type ToWorker } from './protocol';
import { SSH_WORKER_FLAG, WORKER_DATA_DIR_ENV, WORKER_LOG_LEVEL_ENV } from './worker';

/** How to start a worker: the gateway's own entry file, run with {@link SSH_WORKER_FLAG}. */
export interface SshWorkersOptions {
  count: number;
  /** The entry file (main.ts, or the bundle) and the Node options to run it with. */
  entry: string;
  execArgv?: string[];
  logLevel?: LogLevel;
}

export interface SshProxyPoolOptions {
  port: number;
  host?: string;
  dataDir: string;
  control: SessionControlApi;
  logger: Logger;
  recordings?: Pick<Recordings, 'track' | 'finish'>;
  workers: SshWorkersOptions;
}

/** A worker's load counts this much more than one open session per unit of busy share. */
const BUSY_WEIGHT = 10;
const RESTART_DELAY_MS = 1000;
const CALL_FAILED = {
  code: 'AgentError',
  message: 'The gateway could not ask the Portcullis server; try again later',
};

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  busy: number;
  sessions: number;
  /** Connections handed over since its last load report. */
  handed: number;
  /** Its sessions the server has started and not yet heard the end of. */
  live: Set<number>;
  /** Its recordings being spooled (tracked, not yet finished). */
  recording: Set<number>;
}

/** The worker a new connection goes to: fewest sessions, counting a busy event loop as many. */
export function leastLoaded<
  W extends { busy: number; sessions: number; handed: number; child: { connected: boolean } },
>(workers: readonly W[]): W | undefined {
  let best: W | undefined;
  let bestScore = Infinity;
  for (const worker of workers) {
    if (!worker.child.connected) continue;
    const score = worker.sessions + worker.handed + BUSY_WEIGHT * worker.busy;
    if (score < bestScore) {
      best = worker;
      bestScore = score;
    }
  }
  return best;
}

export async function startSshProxyPool(options: SshProxyPoolOptions): Promise<SshProxy> {
  const { control, logger, workers: spec } = options;
  loadHostKey(options.dataDir);
  let closing = false;
  const workers: Worker[] = [];

  const send = (worker: Worker, message: ToWorker): void => sendIpc(worker.child, message);

  const onMessage = (worker: Worker, message: FromWorker): void => {
    switch (message.type) {
      case 'rpc':
        void Promise.resolve(callControl(control, message.method, message.args))
          .catch((err: unknown) => {
            logger.error({ err, method: message.method }, 'a worker’s control call failed');
            return { ok: false, refusal: CALL_FAILED };
          })
          .then((result) => {
            const started = result as { ok?: boolean; connectionId?: number };
            if (message.method === 'start' && started.ok && started.connectionId !== undefined) {
              worker.live.add(started.connectionId);
            }
            send(worker, { type: 'rpc-reply', id: message.id, result });
          });
        return;
      case 'report':
        if (message.method === 'end') worker.live.delete(message.args[0] as number);
        callControl(control, message.method, message.args);
        return;
      case 'recording':
        if (message.op === 'track') {
          worker.recording.add(message.connectionId);
          options.recordings?.track(message.connectionId);
        } else {
          worker.recording.delete(message.connectionId);
          options.recordings?.finish(message.connectionId);
        }
        return;
      case 'load':
        worker.busy = message.busy;
        worker.sessions = message.sessions;
        worker.handed = 0;
        return;
      case 'ready':
        return;
    }
  };

  const spawnWorker = (slot: number): Worker => {
    const child = fork(spec.entry, [SSH_WORKER_FLAG], {
      execArgv: spec.execArgv ?? [],
      env: {
        ...process.env,
        [WORKER_DATA_DIR_ENV]: options.dataDir,
        [WORKER_LOG_LEVEL_ENV]: spec.logLevel ?? 'info',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let onReady: () => void = () => undefined;
    const worker: Worker = {
      child,
      ready: new Promise<void>((resolve) => (onReady = resolve)),
      busy: 0,
      sessions: 0,
      handed: 0,
      live: new Set(),
      recording: new Set(),
    };
    child.on('message', (message: FromWorker) => {
      if (message.type === 'ready') onReady();
      onMessage(worker, message);
    });
    child.once('exit', (code, signal) => {
      // Its sessions ended with it: the server hears so (they would stay online), and what its
      // recordings spooled is uploaded and the files deleted (they would wait for ever).
      for (const connectionId of worker.live) control.end(connectionId);
      for (const connectionId of worker.recording) options.recordings?.finish(connectionId);
      worker.live.clear();
      worker.recording.clear();
      if (closing) return;
      logger.error({ pid: child.pid, code, signal }, 'an SSH worker ended; starting another');
      setTimeout(() => {
        if (!closing) workers[slot] = spawnWorker(slot);
      }, RESTART_DELAY_MS).unref();
    });
    return worker;
  };
  for (let slot = 0; slot < spec.count; slot++) workers.push(spawnWorker(slot));
  await Promise.all(workers.map((w) => w.ready));

  // A cut reaches whichever worker holds the session.
  const stopCuts = control.onAnyCut((connectionId, reason, code) => {
    const cut = { type: 'cut' as const, connectionId, reason, ...(code !== undefined && { code }) };
    for (const worker of workers) send(worker, cut);
  });

  const listener = net.createServer({ pauseOnConnect: true, noDelay: true }, (socket) => {
    const worker = leastLoaded(workers);
    if (!worker) return void socket.destroy();
    worker.handed++;
    // A worker that dies with the socket on its way closes it (Node, when the channel closes).
    sendIpc(worker.child, { type: 'connection' }, socket, () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host ?? '0.0.0.0', () => {
      listener.removeListener('error', reject);
      resolve();
    });
  });
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port, workers: spec.count }, 'ssh proxy listening');

  return {
    port,
    close: async () => {
      closing = true;
      stopCuts();
      // Stops accepting. Its callback is not waited for: it waits until every connection ever
      // handed over is closed, and one whose worker was killed with it is never reported so
      // (stopping the gateway hung); the workers' own ends are waited for below.
      listener.close();
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.child.exitCode !== null || worker.child.signalCode !== null)
                return resolve();
              worker.child.once('exit', () => resolve());
              // Disconnecting tells the worker to end its sessions and exit.
              if (worker.child.connected) worker.child.disconnect();
              setTimeout(() => worker.child.kill('SIGKILL'), 5000).unref();
            }),
        ),
      );
    },
  };
}
