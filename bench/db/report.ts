/**
 * The database part's sections of RESULTS.md (issue 7): medians of the repetitions per
 * workload and path, ratios between paths measured in the same run, the targets marked met or
 * not met from those figures, and every command that was run. Nothing here is a figure of its
 * own; a path or part that failed says so with its error.
 */
import { median } from '../lib/proc';
import type { DbResult, LargeResultSeries, LatencyResult, Throughput } from './index';
import { FLAT_MARGIN } from './large-result';
import { withoutCodes } from './runner';
import { f, mib, table, verdict } from '../lib/markdown';

const notMeasured = '**not measured**';

/** Median of a workload on a path; NaN when it was not measured. */
const med = (t: Throughput, workload: string, pathName: string): number =>
  median(t.runs[workload]?.[pathName] ?? []);

function pathsList(t: Throughput): string[] {
  return t.paths.map(
    (p) => `- **${p.name}**: ${p.describe}` + (p.error ? `. ${notMeasured}: ${p.error}` : ''),
  );
}

function commandsBlock(title: string, commands: string[]): string[] {
  return [
    '<details><summary>' + title + '</summary>',
    '',
    '```sh',
    ...commands.map(withoutCodes),
    '```',
    '',
    '</details>',
  ];
}

/** Medians table: a row per workload, a column per path, then the given ratios. */
function throughputTable(t: Throughput, ratios: [string, string, string][]): string {
  return table(
    ['workload', ...t.paths.map((p) => p.name), ...ratios.map(([label]) => label)],
    t.workloads.map((w) => [
      w,
      ...t.paths.map((p) => f(med(t, w, p.name), 0)),
      ...ratios.map(([, a, b]) => f(med(t, w, a) / med(t, w, b), 2)),
    ]),
  );
}

function everyRun(t: Throughput): string[] {
  const live = t.paths.filter((p) => !p.error);
  return [
    '<details><summary>Every repetition</summary>',
    '',
    table(
      ['workload', ...live.map((p) => p.name)],
      t.workloads.map((w) => [
        w,
        ...live.map((p) => (t.runs[w]?.[p.name] ?? []).map((v) => f(v, 0)).join(', ')),
      ]),
    ),
    '',
    '</details>',
  ];
}

const NODE_RELAY_NOTE =
  'The **node relay** reads nothing and logs nothing: it is the ceiling of any proxy written in Node.js on this machine (one process hop: the event loop wakes, reads, writes), the gateway included.';

function pgbenchSection(r: DbResult, t: Throughput, targets: string[]): string {
  for (const w of t.workloads) {
    const gw = med(t, w, 'gateway');
    const pool = med(t, w, 'pgpool2');
    targets.push(
      Number.isFinite(gw) && Number.isFinite(pool)
        ? `| PostgreSQL \`pgbench -S\` ${w}: gateway ≥ pgpool2 | ${f(gw, 0)} vs ${f(pool, 0)} tps (${f(gw / pool, 2)} ×) | ${verdict(gw >= pool)} |`
        : `| PostgreSQL \`pgbench -S\` ${w}: gateway ≥ pgpool2 | — | ${notMeasured} |`,
    );
  }
  return [
    `## PostgreSQL (pgbench)`,
    '',
    `\`pgbench -S\` (select-only built-in script), ${r.settings.seconds} s per run, median tps of ${r.settings.reps} repetitions. Workloads: \`-M simple|extended|prepared\` at \`-c 1\` and \`-c 10\` (\`-j\` 1 and 2), and \`-C\` (a new connection per transaction, simple protocol). TLS off on every path (\`PGSSLMODE=disable\`).`,
    '',
    ...pathsList(t),
    '',
    throughputTable(t, [
      ['gateway / direct', 'gateway', 'direct'],
      ['gateway / haproxy', 'gateway', 'haproxy'],
      ['gateway / pgbouncer', 'gateway', 'pgbouncer'],
      ['gateway / pgpool2', 'gateway', 'pgpool2'],
      ['node relay / pgpool2', 'node relay', 'pgpool2'],
    ]),
    '',
    NODE_RELAY_NOTE,
    '',
    'With `-C` each transaction opens and closes a client connection. pgbouncer, pgpool2 and the gateway keep their connections to PostgreSQL open across client connections (the gateway resets one with `DISCARD ALL` before the next session of the same login takes it), so their `-C` figures leave out PostgreSQL’s own backend start after the first; direct and haproxy start a PostgreSQL backend per connection. The gateway also has each connection’s code checked by the server (one round trip, which brings the credential) and a session opened and logged (a second), and writes a statement log for each, which the poolers do not.',
    '',
    ...t.runErrors.map((e) => `- Run failed: ${e}`),
    ...(t.runErrors.length ? [''] : []),
    ...everyRun(t),
    '',
    ...commandsBlock('Commands (PGPASSWORD empty)', t.commands),
  ].join('\n');
}

function sysbenchSection(r: DbResult, t: Throughput, targets: string[]): string {
  const gateways = t.paths.filter((p) => p.name.startsWith('gateway'));
  for (const w of t.workloads.filter((k) => k.endsWith(' t16'))) {
    const haproxy = med(t, w, 'haproxy');
    const ratios = gateways.map((g) => med(t, w, g.name) / haproxy);
    const worst = Math.min(...ratios);
    targets.push(
      ratios.some((x) => !Number.isFinite(x))
        ? `| MySQL sysbench ${w}: gateway (auditing on, 0/10/100 rules) ≥ 0.7 × haproxy | — | ${notMeasured} |`
        : `| MySQL sysbench ${w}: gateway (auditing on, 0/10/100 rules) ≥ 0.7 × haproxy | ${ratios.map((x) => f(x, 2)).join(' / ')} × | ${verdict(worst >= 0.7)} |`,
    );
  }
  return [
    `## MySQL (sysbench)`,
    '',
    `sysbench 1.0 \`oltp_point_select\` and \`oltp_read_only\`, prepared (\`--db-ps-mode=auto\`: server-side prepared statements) and unprepared (\`--db-ps-mode=disable\`), at 1, 4 and 16 threads; ${r.settings.seconds} s per run, median queries per second of ${r.settings.reps} repetitions. TLS off.`,
    '',
    ...pathsList(t),
    '',
    throughputTable(t, [
      ['gateway 0 / direct', 'gateway 0 rules', 'direct'],
      ...gateways.map((g): [string, string, string] => [
        `${g.name.replace(' rules', '')} / haproxy`,
        g.name,
        'haproxy',
      ]),
      ['node relay / haproxy', 'node relay', 'haproxy'],
    ]),
    '',
    NODE_RELAY_NOTE,
    '',
    ...t.runErrors.map((e) => `- Run failed: ${e}`),
    ...(t.runErrors.length ? [''] : []),
    ...everyRun(t),
    '',
    ...commandsBlock('Commands', t.commands),
  ].join('\n');
}

function latencySection(list: LatencyResult[]): string {
  const m = (points: { p50: number; p99: number }[], k: 'p50' | 'p99'): number =>
    median(points.map((p) => p[k]));
  return [
    '## Database latency',
    '',
    'One Node client, point selects one at a time (PostgreSQL: `pg`, `SELECT abalance FROM pgbench_accounts WHERE aid = $1`; MariaDB: `mysql2` `query`, `SELECT c FROM sbtest1 WHERE id = ?`), 100 warm-up queries not counted. ms; median over the repetitions of each repetition’s percentile.',
    '',
    table(
      [
        'database',
        'samples per path and rep',
        'direct p50',
        'gateway p50',
        'added p50',
        'direct p99',
        'gateway p99',
        'added p99',
      ],
      list.map((l) =>
        l.error
          ? [l.db, String(l.samples), `${notMeasured}: ${l.error}`, '', '', '', '', '']
          : [
              l.db,
              String(l.samples),
              f(m(l.direct, 'p50'), 3),
              f(m(l.gateway, 'p50'), 3),
              f(m(l.gateway, 'p50') - m(l.direct, 'p50'), 3),
              f(m(l.direct, 'p99'), 3),
              f(m(l.gateway, 'p99'), 3),
              f(m(l.gateway, 'p99') - m(l.direct, 'p99'), 3),
            ],
      ),
    ),
  ].join('\n');
}

function largeResultSection(list: LargeResultSeries[], targets: string[]): string {
  const rows: string[][] = [];
  for (const s of list) {
    for (const size of s.sizes) {
      const d = median(size.direct);
      const g = median(size.gateway);
      rows.push([
        s.db,
        `${f(size.bytes / 1e6, 0)} MB`,
        f(d, 2),
        f(size.bytes / 1e6 / d, 0),
        f(g, 2),
        f(size.bytes / 1e6 / g, 0),
        size.peakRss.length ? mib(Math.max(...size.peakRss)) : 'n/a',
      ]);
    }
    const [tenth, full] = s.sizes;
    const grew =
      tenth?.peakRss.length && full?.peakRss.length
        ? Math.max(...full.peakRss) - Math.max(...tenth.peakRss)
        : NaN;
    targets.push(
      Number.isFinite(grew)
        ? `| Large result (${s.db}): gateway peak RSS flat in the result's size (full − tenth ≤ ${mib(FLAT_MARGIN)}) | ${grew >= 0 ? '+' : ''}${f(grew / 2 ** 20, 0)} MiB | ${verdict(grew <= FLAT_MARGIN)} |`
        : `| Large result (${s.db}): gateway peak RSS flat in the result's size | ${s.error ?? '—'} | ${notMeasured} |`,
    );
  }
  return [
    '## Large result',
    '',
    'Rows of 1000 bytes, read by the stock client with its output to /dev/null: `psql -X -At -c "SELECT repeat(\'x\', 1000) FROM generate_series(1, N)"` (psql collects the whole result in its own memory before printing; no FETCH_COUNT, which would make it a cursor) and `mysql --quick -N -B -e "SELECT repeat(\'x\', 1000) FROM seq_1_to_N"` (MariaDB’s sequence engine; --quick prints rows as they come). Seconds are wall time, connection included; MB/s counts the row data only. The gateway’s RSS (its process tree, /proc VmRSS) is read every 50 ms during each gateway run; the peak is the highest over the repetitions.',
    '',
    table(
      [
        'database',
        'result',
        'direct s',
        'direct MB/s',
        'gateway s',
        'gateway MB/s',
        'gateway peak RSS',
      ],
      rows,
    ),
    '',
    ...list.map(
      (s) =>
        `- ${s.db}: gateway RSS before the first run ${mib(s.rssBefore)}` +
        (s.error ? `. ${notMeasured} (failed): ${s.error}` : ''),
    ),
    '',
    ...commandsBlock(
      'Commands (through the gateway; direct the same with the database’s port and user)',
      list.flatMap((s) => s.commands),
    ),
  ].join('\n');
}

/** The database sections, in order; their targets are appended to `targets`. */
export function dbSections(r: DbResult, targets: string[]): string[] {
  const sections: string[] = [];
  const head = [
    `## Databases (issue 7): setup`,
    '',
    `${r.settings.reps} repetitions; the paths take turns within each (who goes first rotates). Every path was smoke-tested before timing; one that failed is listed with its error and has no figures. The statement log is on for every gateway session (it cannot be turned off).`,
    '',
    'Data, made at the start and dropped at the end (scratch database `portcullis_bench` on each server):',
    '',
    ...r.dataCommands.map((c) => `- \`${c}\``),
    ...r.notes.map((n) => `- ${n}`),
    ...r.notMeasured.map((n) => `- ${notMeasured}: ${n}`),
  ];
  sections.push(head.join('\n'));
  if (r.pgbench) sections.push(pgbenchSection(r, r.pgbench, targets));
  if (r.sysbench) sections.push(sysbenchSection(r, r.sysbench, targets));
  if (r.latency.length) sections.push(latencySection(r.latency));
  if (r.largeResult.length) sections.push(largeResultSection(r.largeResult, targets));
  return sections;
}
