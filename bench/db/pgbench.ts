/**
 * `pgbench -S` (the built-in select-only script: one `SELECT abalance FROM pgbench_accounts
 * WHERE aid = :aid` per transaction) against each PostgreSQL path, in the simple, extended and
 * prepared protocols at 1 and 10 clients, and with `-C` (a new connection per transaction: the
 * cost of connection setup). TLS is off on every path (PGSSLMODE=disable) so that each path
 * carries the same bytes. The figure is pgbench's own "tps = N" line; a run that exits non-zero,
 * aborts or reports failed transactions throws instead of giving a figure.
 */
import { timed } from '../lib/proc';
import { BENCH_DB } from './data';

/** Where pgbench connects: one path to the same database. */
export interface PgEndpoint {
  port: number;
  user: string;
  /** '' for the gateway (the code needs no password). */
  password: string;
}

export interface PgbenchWorkload {
  key: string;
  mode: 'simple' | 'extended' | 'prepared';
  clients: number;
  connect: boolean;
}

export const PGBENCH_WORKLOADS: PgbenchWorkload[] = [
  ...(['simple', 'extended', 'prepared'] as const).flatMap((mode) =>
    [1, 10].map((clients) => ({ key: `${mode} c${clients}`, mode, clients, connect: false })),
  ),
  ...[1, 10].map((clients) => ({
    key: `-C c${clients}`,
    mode: 'simple' as const,
    clients,
    connect: true,
  })),
];

/** pgbench's arguments; `limit` is `-T seconds` or, for a smoke run, `-t transactions`. */
export function pgbenchArgs(
  e: PgEndpoint,
  w: PgbenchWorkload,
  limit: ['-T' | '-t', number],
): string[] {
  return [
    '-h',
    '127.0.0.1',
    '-p',
    String(e.port),
    '-U',
    e.user,
    '-n', // no vacuum first: select-only, and a relay may not allow it
    '-S',
    '-M',
    w.mode,
    '-c',
    String(w.clients),
    // pgbench threads: no more than the machine's 2 cores.
    '-j',
    String(Math.min(w.clients, 2)),
    ...(w.connect ? ['-C'] : []),
    limit[0],
    String(limit[1]),
    BENCH_DB,
  ];
}

/** The command as a reader would type it (password in the environment). */
export function pgbenchCommand(e: PgEndpoint, w: PgbenchWorkload, seconds: number): string {
  return `PGSSLMODE=disable pgbench ${pgbenchArgs(e, w, ['-T', seconds]).join(' ')}`;
}

/** Parses pgbench's report: transactions per second, or throws with what went wrong. */
export function parsePgbench(out: string): number {
  const tps = /^tps = ([\d.]+)/m.exec(out);
  const failed = /number of failed transactions: (\d+)/.exec(out);
  if (/aborted/i.test(out) || !tps) {
    throw new Error(out.trim().split('\n').slice(-3).join(' / ') || 'no output');
  }
  if (failed && Number(failed[1]) > 0) throw new Error(`${failed[1]} failed transactions`);
  return Number(tps[1]);
}

/** Runs pgbench once and returns its tps. */
export async function pgbench(
  e: PgEndpoint,
  w: PgbenchWorkload,
  limit: ['-T' | '-t', number],
): Promise<number> {
  const r = await timed('pgbench', pgbenchArgs(e, w, limit), {
    env: { PGPASSWORD: e.password, PGSSLMODE: 'disable', PGCONNECT_TIMEOUT: '10' },
    timeoutMs: (limit[0] === '-T' ? limit[1] : 30) * 1000 + 60_000,
  });
  const out = `${r.stdout.toString()}\n${r.stderr}`;
  if (r.code !== 0)
    throw new Error(`pgbench exited ${r.code}: ${out.trim().split('\n').slice(-2).join(' / ')}`);
  return parsePgbench(out);
}
