/**
 * The relays the gateway's database proxies are compared with, each started by the bench on
 * 127.0.0.1 and a free port with its files in a folder of the stack's temporary folder:
 *
 *   haproxy    TCP mode (`mode tcp`), one listener for PostgreSQL and one for MariaDB: the
 *              cost of any relay, nothing parsed
 *   pgbouncer  session pooling (`pool_mode = session`, trust), run as the postgres user since
 *              it refuses root
 *   node relay a plain TCP relay in Node.js (bench/lib/tcp-relay.ts), one process per database:
 *              the floor under any proxy written in Node.js, the gateway's included
 *   pgpool2    raw mode (`backend_clustering_mode = 'raw'`, one backend, no load balancing, no
 *              health or replication checks): a relay that parses every statement
 *
 * Each returns its port(s), a line saying how it was set up, and stop() (SIGTERM, then SIGKILL
 * after 5 s), which the caller runs even when a later step fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { forkRelay, freePort } from '../lib/stack';
import { portOpen, sleep } from '../lib/proc';
import { BENCH_DB, MYSQL, PG } from './data';

export interface Peer {
  describe: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Daemons still running, by pid (the launcher and the pid file's): should the bench be stopped
 * by a signal (run.ts then exits without this part's cleanup), they are ended on the way out.
 */
const running = new Set<() => number[]>();
process.once('exit', () => {
  for (const pids of running) {
    for (const pid of pids()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
});

const pidsOf = (child: ChildProcess, pidFile?: string): number[] => {
  const pids = child.pid ? [child.pid] : [];
  if (pidFile && fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (pid > 0) pids.push(pid);
  }
  return pids;
};

/** Ends a child we started (by its pid), and any pid it wrote to a pid file. */
async function stopChild(child: ChildProcess, pidFile?: string): Promise<void> {
  const pids = pidsOf(child, pidFile);
  const signal = (s: NodeJS.Signals): void => {
    for (const pid of pids) {
      try {
        process.kill(pid, s);
      } catch {
        // already gone
      }
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) {
    signal('SIGTERM'); // a daemon that outlived its launcher
    return;
  }
  const exited = new Promise((r) => child.once('exit', r));
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Starts a server process and waits until every port answers; its output goes in the error. */
async function startDaemon(
  name: string,
  command: string,
  args: string[],
  ports: number[],
  pidFile?: string,
): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const pids = (): number[] => pidsOf(child, pidFile);
  running.add(pids);
  child.once('exit', () => running.delete(pids));
  let output = '';
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const end = Date.now() + 20_000;
  for (;;) {
    const open = await Promise.all(ports.map(portOpen));
    if (open.every(Boolean)) return child;
    if (child.exitCode !== null || Date.now() > end) {
      await stopChild(child, pidFile);
      throw new Error(`${name} did not start: ${output.trim().split('\n').slice(-3).join(' / ')}`);
    }
    await sleep(100);
  }
}

/** haproxy in TCP mode in front of both databases. */
export async function startHaproxy(
  dir: string,
): Promise<{ pg: number; mysql: number; describe: string; stop(): Promise<void> }> {
  const pg = await freePort();
  const mysql = await freePort();
  const cfg = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode tcp',
      '  timeout connect 5s',
      '  timeout client 1h',
      '  timeout server 1h',
      'listen pg',
      `  bind 127.0.0.1:${pg}`,
      `  server pg ${PG.host}:${PG.port}`,
      'listen mysql',
      `  bind 127.0.0.1:${mysql}`,
      `  server mysql ${MYSQL.host}:${MYSQL.port}`,
      '',
    ].join('\n'),
  );
  const child = await startDaemon('haproxy', 'haproxy', ['-db', '-f', cfg], [pg, mysql]);
  return {
    pg,
    mysql,
    describe:
      '`haproxy -db -f haproxy.cfg`: `mode tcp`, one `listen` per database, defaults otherwise',
    stop: () => stopChild(child),
  };
}

/** pgbouncer in session mode, as the postgres user (it will not run as root). */
export async function startPgbouncer(stackDir: string, dir: string): Promise<Peer> {
  // pgbouncer runs as postgres and must read its files: the stack's folder is root's 0700.
  fs.chmodSync(stackDir, 0o711);
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const pidFile = path.join(dir, 'pgbouncer.pid');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${PG.user}" ""\n`);
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `${BENCH_DB} = host=${PG.host} port=${PG.port} dbname=${BENCH_DB}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = session',
      'max_client_conn = 200',
      'default_pool_size = 20',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${pidFile}`,
      '',
    ].join('\n'),
  );
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o644);
  const child = await startDaemon(
    'pgbouncer',
    'runuser',
    ['-u', 'postgres', '--', 'pgbouncer', ini],
    [port],
    pidFile,
  );
  return {
    port,
    describe:
      '`runuser -u postgres -- pgbouncer pgbouncer.ini`: `pool_mode = session`, `auth_type = trust`, `default_pool_size = 20`',
    stop: () => stopChild(child, pidFile),
  };
}

/** pgpool2 in raw mode with the one backend. */
export async function startPgpool(dir: string): Promise<Peer> {
  const port = await freePort();
  const pcpPort = await freePort();
  const conf = path.join(dir, 'pgpool.conf');
  const pcp = path.join(dir, 'pcp.conf');
  const pidFile = path.join(dir, 'pgpool.pid');
  fs.writeFileSync(pcp, '');
  fs.writeFileSync(
    conf,
    [
      "backend_clustering_mode = 'raw'",
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      "pcp_listen_addresses = '127.0.0.1'",
      `pcp_port = ${pcpPort}`,
      `unix_socket_directories = '${dir}'`,
      `pcp_socket_dir = '${dir}'`,
      `wd_ipc_socket_dir = '${dir}'`,
      `backend_hostname0 = '${PG.host}'`,
      `backend_port0 = ${PG.port}`,
      'backend_weight0 = 1',
      'enable_pool_hba = off',
      "pool_passwd = ''",
      // Room for pgbench's 10 clients, with and without -C (a child serves one client).
      'num_init_children = 32',
      'max_pool = 1',
      'connection_cache = on',
      'load_balance_mode = off',
      'health_check_period = 0',
      'sr_check_period = 0',
      'use_watchdog = off',
      'memory_cache_enabled = off',
      'failover_on_backend_error = off',
      `pid_file_name = '${pidFile}'`,
      `logdir = '${dir}'`,
      "log_destination = 'stderr'",
      '',
    ].join('\n'),
  );
  const child = await startDaemon(
    'pgpool2',
    'pgpool',
    ['-n', '-D', '-f', conf, '-F', pcp],
    [port],
    pidFile,
  );
  return {
    port,
    describe:
      "`pgpool -n -D -f pgpool.conf -F pcp.conf`: `backend_clustering_mode = 'raw'`, one backend, `num_init_children = 32`, `max_pool = 1`, `connection_cache = on`, no load balancing, health or replication checks",
    stop: () => stopChild(child, pidFile),
  };
}

export const NODE_RELAY = 'node relay';

/** Plain TCP relays in Node.js (bench/lib/tcp-relay.ts) in front of both databases. */
export async function startNodeRelays(): Promise<{
  pg: number;
  mysql: number;
  describe: string;
  stop(): Promise<void>;
}> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const [pg, mysql] = [await freePort(), await freePort()];
  const relay = (port: number, target: number): Promise<ChildProcess> =>
    forkRelay(root, 'tcp-relay.ts', {
      TCP_RELAY_PORT: String(port),
      TCP_RELAY_TARGET_PORT: String(target),
    });
  const children = [await relay(pg, PG.port), await relay(mysql, MYSQL.port)];
  return {
    pg,
    mysql,
    describe:
      'bench/lib/tcp-relay.ts: Node.js `net` sockets piped both ways, nothing parsed (no code check, no statement log): what one Node.js process hop costs',
    stop: async () => {
      await Promise.all(children.map((c) => stopChild(c)));
    },
  };
}
