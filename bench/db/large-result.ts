/**
 * A large result set streamed through the gateway by the stock command-line clients, output to
 * /dev/null, at a tenth of the size and at the full size, direct and through the gateway:
 *
 *   PostgreSQL  psql -X -At -c "SELECT repeat('x', 1000) FROM generate_series(1, N)"
 *               (psql itself collects the whole result before printing it: that is psql's
 *               memory, not the gateway's; FETCH_COUNT would turn it into a cursor, a
 *               different thing, so it is not used)
 *   MariaDB     mysql --quick -N -B -e "SELECT repeat('x', 1000) FROM seq_1_to_N" (the sequence
 *               engine; --quick prints each row as it comes)
 *
 * N rows of 1000 bytes each make the size. While each runs the gateway's resident set (its
 * process tree's VmRSS from /proc) is read every 50 ms; "flat" means the peak at the full size
 * is within {@link FLAT_MARGIN} of the peak at a tenth.
 */
import { rssBytes, say, timed } from '../lib/proc';
import type { Stack } from '../lib/stack';
import type { DbSettings } from './index';
import { firstLine, rotated } from './runner';
import { BENCH_DB } from './data';

export const ROW_BYTES = 1000;
export const FLAT_MARGIN = 64 * 2 ** 20;

export type Db = 'postgresql' | 'mysql';

export interface Endpoint {
  port: number;
  user: string;
  password: string;
}

export function largeResultCommand(db: Db, e: Endpoint, rows: number): string[] {
  const base = ['-h', '127.0.0.1'];
  return db === 'postgresql'
    ? [
        'psql',
        '-X',
        '-At',
        ...base,
        '-p',
        String(e.port),
        '-U',
        e.user,
        '-d',
        BENCH_DB,
        '-c',
        `SELECT repeat('x', ${ROW_BYTES}) FROM generate_series(1, ${rows})`,
      ]
    : [
        'mysql',
        ...base,
        '-P',
        String(e.port),
        '-u',
        e.user,
        '--skip-ssl',
        '--quick',
        '-N',
        '-B',
        '-e',
        `SELECT repeat('x', ${ROW_BYTES}) FROM seq_1_to_${rows}`,
        BENCH_DB,
      ];
}

/** The command as a shell would take it (arguments with spaces or quotes in single quotes). */
export function shellLine(args: string[]): string {
  return args
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

export interface LargeRun {
  seconds: number;
  /** The gateway's peak RSS during the run (bytes); undefined when no gateway pid is given. */
  peakRss?: number;
}

/** Runs the client once with its output to /dev/null; samples the gateway's RSS meanwhile. */
export async function streamLargeResult(
  db: Db,
  e: Endpoint,
  rows: number,
  gatewayPid?: number,
): Promise<LargeRun> {
  const [cmd, ...args] = largeResultCommand(db, e, rows);
  let peak = gatewayPid ? rssBytes(gatewayPid) : 0;
  const timer = gatewayPid
    ? setInterval(() => {
        peak = Math.max(peak, rssBytes(gatewayPid));
      }, 50)
    : undefined;
  try {
    const r = await timed(cmd!, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PGPASSWORD: e.password, PGSSLMODE: 'disable', MYSQL_PWD: e.password },
      timeoutMs: 1_800_000,
    });
    if (r.code !== 0) throw new Error(`${cmd} exited ${r.code}: ${r.stderr.trim()}`);
    return { seconds: r.seconds, ...(gatewayPid && { peakRss: peak }) };
  } finally {
    clearInterval(timer);
  }
}

export interface LargeResultSeries {
  db: Db;
  sizes: { bytes: number; direct: number[]; gateway: number[]; peakRss: number[] }[];
  /** The gateway's RSS before the first run (after a garbage collection). */
  rssBefore: number;
  commands: string[];
  error?: string;
}

/** Both sizes, direct and gateway taking turns, each repetition; a failure ends the series. */
export async function measureLargeResult(
  stack: Stack,
  db: Db,
  direct: Endpoint,
  gateway: Endpoint,
  settings: DbSettings,
): Promise<LargeResultSeries> {
  const full = Math.max(10, Math.round(settings.resultBytes / ROW_BYTES));
  const sizes = [Math.round(full / 10), full].map((rows) => ({
    rows,
    bytes: rows * ROW_BYTES,
    direct: [] as number[],
    gateway: [] as number[],
    peakRss: [] as number[],
  }));
  await stack.gatewayGc();
  const series: LargeResultSeries = {
    db,
    sizes,
    rssBefore: 0,
    commands: sizes.map((s) => shellLine(largeResultCommand(db, gateway, s.rows))),
  };
  series.rssBefore = rssBytes(stack.gatewayPid);
  try {
    for (let rep = 0; rep < settings.reps; rep++) {
      for (const s of sizes) {
        for (const which of rotated(['direct', 'gateway'] as const, rep)) {
          const run = await streamLargeResult(
            db,
            which === 'direct' ? direct : gateway,
            s.rows,
            which === 'gateway' ? stack.gatewayPid : undefined,
          );
          s[which].push(run.seconds);
          if (run.peakRss !== undefined) s.peakRss.push(run.peakRss);
          say(
            `db: large result ${db} ${(s.bytes / 1e6).toFixed(0)} MB ${which} rep ${rep + 1}: ${run.seconds.toFixed(2)} s` +
              (run.peakRss ? `, gateway peak RSS ${(run.peakRss / 2 ** 20).toFixed(0)} MiB` : ''),
          );
        }
      }
    }
  } catch (e) {
    series.error = firstLine(e);
    say(`db: large result ${db}: ${series.error}`);
  }
  return series;
}
