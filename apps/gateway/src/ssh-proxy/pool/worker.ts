/**
 * An SSH worker process: runs the SSH sessions the primary hands it (the same session code as
 * an in-process proxy, server.ts), with control calls and recording notices over IPC. Started
 * by the primary as its own entry file with {@link SSH_WORKER_FLAG}; it exits when the
 * primary goes.
 */
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createLogger, LOG_LEVELS, type LogLevel } from '../../core/logger';
import { createSpoolOnlyRecordings } from '../../recording';
import { createSshSessionServer, type SessionTraffic } from '../server';
import { LOAD_INTERVAL_MS, sendIpc, type FromWorker, type ToWorker } from './protocol';
import { createWorkerControl } from './worker-control';

/** The command-line flag that makes the gateway's entry file run as an SSH worker. */
export const SSH_WORKER_FLAG = '--ssh-worker';
/** What the primary passes in the environment. */
export const WORKER_DATA_DIR_ENV = 'PORTCULLIS_SSH_WORKER_DATA_DIR';
export const WORKER_LOG_LEVEL_ENV = 'PORTCULLIS_SSH_WORKER_LOG_LEVEL';

/**
 * The event loop's busy share that the sessions still open account for, reckoned by the bytes
 * each carried. A bulk download that just ended leaves its worker busy for the rest of the
 * report's interval; counted as load, it sent the next connection to the other worker, where
 * the interactive sessions were (a download looping beside a shell landed in the shell's
 * worker every other time).
 */
export function openSessionsBusy(
  utilization: number,
  traffic: SessionTraffic,
  openSessions: number,
): number {
  const all = traffic.open + traffic.closed;
  if (all > 0) return (utilization * traffic.open) / all;
  // Nothing carried: handshakes and key exchanges (load, when sessions are open), or the
  // clean-up after the last session closed (none).
  return openSessions > 0 ? utilization : 0;
}

export function runSshWorker(env: NodeJS.ProcessEnv = process.env): void {
  const dataDir = env[WORKER_DATA_DIR_ENV];
  if (!dataDir || !process.send) {
    process.stderr.write('portcullis-gateway: an SSH worker is started by the gateway only\n');
    process.exit(2);
  }
  const level = env[WORKER_LOG_LEVEL_ENV];
  const logger = createLogger({
    level: level && level in LOG_LEVELS ? (level as LogLevel) : 'info',
    bindings: { ssh_worker: process.pid },
  });
  // The primary may be gone (stopped, crashed) while the sessions close: such a send is dropped.
  const send = (message: FromWorker): void => sendIpc(process, message);
  const control = createWorkerControl(send);
  const recordings = createSpoolOnlyRecordings(dataDir, logger, (op, connectionId) =>
    send({ type: 'recording', op, connectionId }),
  );
  // The load is reported at once when a session closes (reportLoad, below): see openSessionsBusy.
  const sessions = createSshSessionServer({
    dataDir,
    control,
    logger,
    recordings,
    onSessionClosed: () => reportLoad(),
  });

  process.on('message', (message: ToWorker, handle?: unknown) => {
    if (message.type === 'connection') {
      if (handle) sessions.server.injectSocket(handle as Socket);
      return;
    }
    control.onMessage(message);
  });
  // A terminal's Ctrl-C or the service manager's stop reaches every process of the gateway: the
  // primary stops, and its disconnect is what ends the workers (after their sessions).
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  // The primary is gone (stopped or crashed): its sessions' control is gone with it.
  process.on('disconnect', () => {
    sessions.close();
    setTimeout(() => process.exit(0), 200).unref();
  });

  let last = performance.eventLoopUtilization();
  const reportLoad = (): void => {
    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const open = sessions.sessions();
    send({
      type: 'load',
      busy: openSessionsBusy(utilization, sessions.traffic(), open),
      sessions: open,
    });
  };
  setInterval(reportLoad, LOAD_INTERVAL_MS).unref();
  send({ type: 'ready' });
}
