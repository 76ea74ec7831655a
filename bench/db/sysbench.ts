/**
 * sysbench 1.0's `oltp_point_select` (one `SELECT c FROM sbtestN WHERE id=?` per transaction)
 * and `oltp_read_only` (BEGIN, 10 point selects, 4 range queries, COMMIT) against each MySQL
 * path, with server-side prepared statements (`--db-ps-mode=auto`) and without
 * (`--db-ps-mode=disable`), at 1, 4 and 16 threads. TLS is off (`--mysql-ssl=off`, sysbench's
 * default). The figure is sysbench's "queries: … (N per sec.)"; a run that exits non-zero or
 * reports errors throws instead.
 */
import { timed } from '../lib/proc';
import { BENCH_DB, SYSBENCH_TABLE_SIZE, SYSBENCH_TABLES } from './data';

export interface MysqlEndpoint {
  port: number;
  user: string;
  /** '' for the gateway (the code needs no password). */
  password: string;
}

export interface SysbenchWorkload {
  key: string;
  test: 'oltp_point_select' | 'oltp_read_only';
  prepared: boolean;
  threads: number;
}

export const SYSBENCH_THREADS = [1, 4, 16] as const;

export const SYSBENCH_WORKLOADS: SysbenchWorkload[] = (
  ['oltp_point_select', 'oltp_read_only'] as const
).flatMap((test) =>
  [true, false].flatMap((prepared) =>
    SYSBENCH_THREADS.map((threads) => ({
      key: `${test} ${prepared ? 'prepared' : 'unprepared'} t${threads}`,
      test,
      prepared,
      threads,
    })),
  ),
);

/** sysbench's arguments; `seconds` 0 with `events` set is a smoke run. */
export function sysbenchArgs(
  e: MysqlEndpoint,
  w: SysbenchWorkload,
  limit: { seconds: number; events?: number },
): string[] {
  return [
    w.test,
    '--db-driver=mysql',
    '--mysql-host=127.0.0.1',
    `--mysql-port=${e.port}`,
    `--mysql-user=${e.user}`,
    `--mysql-password=${e.password}`,
    `--mysql-db=${BENCH_DB}`,
    '--mysql-ssl=off',
    `--tables=${SYSBENCH_TABLES}`,
    `--table-size=${SYSBENCH_TABLE_SIZE}`,
    `--threads=${w.threads}`,
    `--db-ps-mode=${w.prepared ? 'auto' : 'disable'}`,
    `--time=${limit.seconds}`,
    ...(limit.events ? [`--events=${limit.events}`] : []),
    'run',
  ];
}

export function sysbenchCommand(e: MysqlEndpoint, w: SysbenchWorkload, seconds: number): string {
  return `sysbench ${sysbenchArgs(e, w, { seconds }).join(' ')}`;
}

/** Parses sysbench's report: queries per second, or throws with what went wrong. */
export function parseSysbench(out: string): number {
  const qps = /queries:\s+\d+\s+\(([\d.]+) per sec\.\)/.exec(out);
  const errors = /ignored errors:\s+(\d+)/.exec(out);
  if (!qps) throw new Error(out.trim().split('\n').slice(-3).join(' / ') || 'no output');
  if (errors && Number(errors[1]) > 0) throw new Error(`${errors[1]} ignored errors`);
  return Number(qps[1]);
}

export async function sysbench(
  e: MysqlEndpoint,
  w: SysbenchWorkload,
  limit: { seconds: number; events?: number },
): Promise<number> {
  const r = await timed('sysbench', sysbenchArgs(e, w, limit), {
    timeoutMs: (limit.seconds || 30) * 1000 + 60_000,
  });
  const out = `${r.stdout.toString()}\n${r.stderr}`;
  if (r.code !== 0) {
    // sysbench's last lines only say a thread failed; the FATAL lines before them say why.
    const fatal = out.split('\n').filter((l) => /FATAL|error/i.test(l));
    throw new Error(
      `sysbench exited ${r.code}: ${(fatal.length ? fatal : out.trim().split('\n').slice(-2)).join(' / ')}`,
    );
  }
  return parseSysbench(out);
}
