/**
 * The gateway under test, in a process of its own so that its CPU time and memory can be read
 * from /proc apart from the clients and the server. It is the shipped gateway (startGateway,
 * as apps/gateway/src/main.ts runs it) with two differences that only the bench needs: both
 * listeners bind 127.0.0.1 (main.ts binds every interface), and the parent can ask for a
 * garbage collection over IPC (node --expose-gc) before it reads the resident set size.
 *
 * Settings come from the environment: BENCH_GW_SERVER, BENCH_GW_KEY, BENCH_GW_DATA,
 * BENCH_GW_SSH_PORT, BENCH_GW_WEB_PORT, BENCH_GW_PG_PORT, BENCH_GW_MYSQL_PORT (the database
 * proxies), and BENCH_GW_SSH_WORKERS (SSH worker processes, as
 * main.ts's --ssh-workers: 0, sessions in this process, by default; the
 * workers run this same file with --ssh-worker). It prints "ready" on the IPC channel once
 * both listen.
 */
// First, as in main.ts: V8's settings apply to what is loaded after them.
import '../../apps/gateway/src/core/jit-tuning';
import { startGateway } from '../../apps/gateway/src/control/client';
import { createLogger } from '../../apps/gateway/src/core/logger';
import {
  isJudgeWorker,
  runJudgeWorker,
  useJudgeWorkerEntry,
} from '../../apps/gateway/src/sql-audit';
import { runSshWorker, SSH_WORKER_FLAG } from '../../apps/gateway/src/ssh-proxy/pool/worker';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

function startBenchGateway(): void {
  useJudgeWorkerEntry(process.argv[1]!);
  const dataDir = env('BENCH_GW_DATA');
  const workers = Number(process.env.BENCH_GW_SSH_WORKERS ?? 0);
  const gateway = startGateway({
    server: env('BENCH_GW_SERVER'),
    key: env('BENCH_GW_KEY'),
    host: '127.0.0.1',
    ports: {
      ssh_port: Number(env('BENCH_GW_SSH_PORT')),
      webssh_port: Number(env('BENCH_GW_WEB_PORT')),
      postgresql_port: Number(env('BENCH_GW_PG_PORT')),
      mysql_port: Number(env('BENCH_GW_MYSQL_PORT')),
    },
    logger: createLogger({ level: 'warn' }),
    sshProxy: {
      dataDir,
      listenHost: '127.0.0.1',
      ...(workers > 0 && {
        workers: {
          count: workers,
          entry: process.argv[1]!,
          execArgv: process.execArgv.filter((a) => !a.startsWith('--cpu-prof')),
          logLevel: 'warn' as const,
        },
      }),
    },
    webTerminal: { dataDir, listenHost: '127.0.0.1' },
    databaseProxies: { dataDir, listenHost: '127.0.0.1' },
  });

  const gc = (globalThis as { gc?: () => void }).gc;

  process.on('message', (message: unknown) => {
    if (message === 'gc') {
      gc?.();
      gc?.();
      process.send?.('gc-done');
    } else if (message === 'stop') {
      void gateway.stop().then(() => process.exit(0));
    }
  });

  void Promise.all([
    gateway.connected,
    gateway.sshProxy,
    gateway.webTerminal,
    gateway.databaseProxies,
  ]).then(
    () => process.send?.('ready'),
    (err: unknown) => {
      process.stderr.write(`bench gateway: ${String(err)}\n`);
      process.exit(1);
    },
  );
}

if (isJudgeWorker()) runJudgeWorker();
else if (process.argv[2] === SSH_WORKER_FLAG) runSshWorker();
else startBenchGateway();
