/**
 * Turns one run's measurements into bench/RESULTS.md: medians of the repetitions, ratios to
 * the paths measured in the same run, and each target of issue 6 marked met or not met from
 * the figures themselves. Nothing here is a figure of its own.
 */
import type { ActionLogResult } from './actionlog';
import { bulkMedians, type BulkResult } from './bulk';
import type { DbResult } from './db/index';
import { dbSections } from './db/report';
import type { EchoResult, EchoStats } from './echo';
import type { MemoryPoint } from './memory';
import { median } from './lib/proc';
import { recordingMedians, type RecordingResult } from './recording';
import type { SetupResult } from './setup';
import { WEB_PEERS, type WebPeerName, type WebPeerResult, type WebTerminalResult } from './webterm';
import { f, mib, table, verdict } from './lib/markdown';

export interface Results {
  command: string;
  started: Date;
  finished?: Date;
  machine: {
    cores: number;
    cpu: string;
    memoryGiB: number;
    node: string;
    kernel: string;
    loadAtStart: number[];
    ssh?: string;
  };
  settings: {
    reps: number;
    bytes: number;
    echoSamples: number;
    sessions: number[];
    recordingBytes: number;
    logRows: number;
  };
  skipped: string[];
  /** Parts that failed, with their error: reported as not measured. */
  failed: string[];
  notes: string[];
  /** The gateway's log messages at warn or above during the run, with counts. */
  gatewayWarnings?: [string, number][];
  bulk?: BulkResult;
  echo?: EchoResult;
  setup?: SetupResult;
  recording?: RecordingResult;
  memory?: MemoryPoint[];
  actionLog?: ActionLogResult[];
  webTerminal?: WebTerminalResult;
  /** The database proxies (issue 7). */
  db?: DbResult;
}

function bulkSection(r: BulkResult, targets: string[]): string {
  const m = bulkMedians(r);
  const rows = (['download', 'upload'] as const).map((d) => [
    d,
    f(m[d].gw),
    f(m[d].direct),
    f(m[d].viajump),
    f(m[d].gw / m[d].direct, 2),
    f(m[d].gw / m[d].viajump, 2),
    f(median(r.gatewayCpuPerGiB[d])),
  ]);
  for (const d of ['download', 'upload'] as const) {
    const ratio = m[d].gw / m[d].viajump;
    targets.push(
      `| Bulk ${d}: gateway ≥ 0.8 × OpenSSH jump host | ${f(ratio, 2)} × | ${verdict(ratio >= 0.8)} |`,
    );
  }
  return [
    `## Bulk throughput (${mib(r.bytes)} per transfer, median of ${r.reps})`,
    '',
    'MB/s = 10^6 bytes per second of wall time, handshake included.',
    '',
    table(
      [
        'direction',
        'gateway MB/s',
        'direct MB/s',
        'jump host MB/s',
        'gateway / direct',
        'gateway / jump',
        'gateway CPU s per GiB',
      ],
      rows,
    ),
    '',
    'Every repetition (MB/s):',
    '',
    table(
      ['direction', 'path', 'runs'],
      (['download', 'upload'] as const).flatMap((d) =>
        (['gw', 'direct', 'viajump'] as const).map((p) => [
          d,
          p,
          r.runs[d][p].map((v) => f(v)).join(', '),
        ]),
      ),
    ),
  ].join('\n');
}

const ECHO_PATH_NAMES = {
  socat: 'plain TCP relay in C (socat)',
  noderelay: 'plain TCP relay in Node.js',
  viajump: 'OpenSSH jump host',
  bare: 'bare ssh2 relay',
  gw: 'gateway',
} as const;

const echoRow = (condition: string, name: string, p: EchoStats, direct: EchoStats): string[] => [
  condition,
  name,
  f(p.p50, 3),
  f(p.p50 - direct.p50, 3),
  f(p.p99, 3),
  f(p.p99 - direct.p99, 3),
];

function echoSection(r: EchoResult, targets: string[]): string {
  const rows = (['idle', 'loaded'] as const).map((k) => {
    const g = r[k].gw;
    const d = r[k].direct;
    return [
      k === 'idle' ? 'idle' : 'beside a bulk download on the same path',
      String(g.samples),
      f(d.p50, 3),
      f(g.p50, 3),
      f(g.p50 - d.p50, 3),
      f(d.p99, 3),
      f(g.p99, 3),
      f(g.p99 - d.p99, 3),
    ];
  });
  for (const k of ['idle', 'loaded'] as const) {
    const p50 = r[k].gw.p50 - r[k].direct.p50;
    const p99 = r[k].gw.p99 - r[k].direct.p99;
    targets.push(`| Echo ${k}: p50 added ≤ 0.3 ms | ${f(p50, 3)} ms | ${verdict(p50 <= 0.3)} |`);
    targets.push(`| Echo ${k}: p99 added ≤ 2 ms | ${f(p99, 3)} ms | ${verdict(p99 <= 2)} |`);
  }
  return [
    '## Keystroke echo latency (ms)',
    '',
    'Remote `stty raw -echo; cat` in a pty, one byte every 50 ms, time until it is back.',
    '',
    table(
      [
        'condition',
        'samples per path',
        'direct p50',
        'gateway p50',
        'added p50',
        'direct p99',
        'gateway p99',
        'added p99',
      ],
      rows,
    ),
    '',
    'For scale, in the same runs: OpenSSH itself as a jump host (`ssh -J` through a second sshd,',
    'C and a process per connection), a bare ssh2 relay in a process of its own',
    '(bench/lib/bare-relay.ts: ssh2 with nothing of the product around it; the floor under the',
    'gateway), and the direct SSH session passed through a plain TCP relay that does no SSH work',
    'at all, in Node.js (bench/lib/tcp-relay.ts: `net` sockets piped both ways) and in C (`socat`):',
    'what one process hop costs, the floor under any Node.js gateway and under any gateway.',
    'Idle: all side by side; loaded: each beside a bulk download through itself.',
    'The last row is the gateway beside a bulk download that does not pass through it',
    '(direct): the gateway has nothing else to do, the machine’s cores are as busy as in',
    'the loaded rows, and added is against direct beside the same download.',
    '',
    table(
      ['condition', 'path', 'p50', 'added p50', 'p99', 'added p99'],
      [
        ...(['idle', 'loaded'] as const).flatMap((k) =>
          (['socat', 'noderelay', 'viajump', 'bare', 'gw'] as const).map((p) =>
            echoRow(
              k === 'idle' ? 'idle' : 'beside a bulk download',
              ECHO_PATH_NAMES[p],
              r[k][p],
              r[k].direct,
            ),
          ),
        ),
        echoRow(
          'beside a bulk download that bypasses the gateway (direct)',
          'gateway',
          r.gatewayBesideDirect,
          r.loaded.direct,
        ),
      ],
    ),
  ].join('\n');
}

function setupSection(r: SetupResult, reps: number): string {
  const rows = (['gw', 'direct', 'viajump'] as const).map((p) => [
    p === 'gw' ? 'gateway' : p === 'direct' ? 'direct' : 'OpenSSH jump host',
    f(median(r.setupSeconds[p]) * 1000, 0),
    f(median(r.setupSeconds[p]) / median(r.setupSeconds.viajump), 2),
    f(median(r.perSecond[p])),
    f(median(r.perSecond[p]) / median(r.perSecond.viajump), 2),
  ]);
  return [
    `## Session setup (\`ssh -o BatchMode=yes … true\`, median of ${reps})`,
    '',
    `Setup: median of ${r.sequential} one after another per repetition. Connections per second: ${r.parallel} started at once.`,
    '',
    table(['path', 'setup ms', 'setup / jump', 'connections/s', 'conn/s / jump'], rows),
    '',
    `Key exchange negotiated (\`ssh -v\`): gateway ${r.kex.gw.join(', ') || 'unknown'}; direct ${r.kex.direct.join(', ') || 'unknown'}; jump host ${r.kex.viajump.join(', ') || 'unknown'}.`,
  ].join('\n');
}

function memorySection(points: MemoryPoint[], targets: string[]): string {
  const worst = (p: MemoryPoint): number => Math.max(p.perSessionBytes, p.perSessionFromFirst);
  for (const p of points) {
    targets.push(
      `| Memory with ${p.sessions} idle shells ≤ 1 MiB each | ${f(worst(p) / 1024, 0)} KiB | ${verdict(worst(p) <= 2 ** 20)} |`,
    );
  }
  return [
    '## Memory per open idle session (gateway RSS)',
    '',
    table(
      ['idle shells', 'RSS before', 'RSS with shells', 'per session', 'per session vs first RSS'],
      points.map((p) => [
        String(p.sessions),
        mib(p.baseline),
        mib(p.loaded),
        `${f(p.perSessionBytes / 1024, 0)} KiB`,
        `${f(p.perSessionFromFirst / 1024, 0)} KiB`,
      ]),
    ),
  ].join('\n');
}

function recordingSection(r: RecordingResult, targets: string[]): string {
  const m = recordingMedians(r);
  const asciinema = r.asciinemaBytes === null ? null : r.asciinemaBytes / r.outputBytes;
  targets.push(
    `| Recording ≤ 1.1 bytes stored per byte of terminal output | ${f(m.storedPerMB, 3)} | ${verdict(m.storedPerMB <= 1.1)} |`,
  );
  targets.push(
    asciinema === null
      ? '| Recording no larger than `asciinema rec` | asciinema not installed | not measured |'
      : `| Recording no larger than \`asciinema rec\` | ${f(m.storedPerMB, 3)} vs ${f(asciinema, 3)} | ${verdict(m.storedPerMB <= asciinema)} |`,
  );
  return [
    `## Recording size and cost (median of ${r.storedBytes.length})`,
    '',
    `Terminal output: ${f(r.outputBytes / 1e6, 2)} MB (log lines with colours, a progress bar, Chinese text) shown with \`ssh -tt … cat FILE\` through the gateway.`,
    '',
    table(
      ['measure', 'value'],
      [
        ['bytes stored per MB of terminal output (Portcullis)', f(m.storedPerMB * 1e6, 0)],
        [
          'bytes per MB, `asciinema rec -c "cat FILE"`',
          asciinema === null ? 'asciinema not installed' : f(asciinema * 1e6, 0),
        ],
        ['gateway CPU s per MB shown, recording on (end to end)', f(m.gatewayCpuPerMB, 4)],
        ['recorder alone, CPU s per MB (what recording off saves)', f(m.recorderCpuPerMB, 4)],
        [
          'gateway CPU s per MB, recording off (on minus the recorder; derived)',
          f(m.gatewayCpuPerMB - m.recorderCpuPerMB, 4),
        ],
      ],
    ),
  ].join('\n');
}

function actionLogSection(results: ActionLogResult[], targets: string[]): string {
  const parts: string[] = [
    '## Action-log search (`GET /api/search_tunnel`, pages of 25), and the dashboard’s statistics over the same rows',
    '',
  ];
  for (const r of results) {
    // The target is the search's; the dashboard's rows (no matches column) are shown beside.
    const worst = Math.max(
      ...r.queries.filter((q) => q.total !== undefined).map((q) => median(q.ms)),
    );
    targets.push(
      `| Action log, ${r.rows.toLocaleString('en')} entries on ${r.backend}: every filter well under a second (≤ 500 ms) | slowest median ${f(worst, 0)} ms | ${verdict(worst <= 500)} |`,
    );
    if (r.with014) {
      const worst014 = Math.max(...r.with014.map((q) => median(q.ms)));
      targets.push(
        `| … the same on ${r.backend} with migration 014 applied (not registered yet) | slowest median ${f(worst014, 0)} ms | ${verdict(worst014 <= 500)} |`,
      );
    }
    const after = new Map((r.with014 ?? []).map((q) => [q.name, q]));
    parts.push(
      `### ${r.backend}: ${r.rows.toLocaleString('en')} entries (seeded in ${f(r.seedSeconds)} s)`,
      '',
      table(
        [
          'filter',
          'query',
          'matches',
          'median ms',
          'max ms',
          ...(r.with014 ? ['median ms with 014', 'max ms with 014'] : []),
        ],
        r.queries.map((q) => {
          const a = after.get(q.name);
          return [
            q.name,
            `\`${q.query}\``,
            q.total === undefined ? '—' : q.total.toLocaleString('en'),
            f(median(q.ms)),
            f(Math.max(...q.ms)),
            ...(a ? [f(median(a.ms)), f(Math.max(...a.ms))] : []),
          ];
        }),
      ),
      '',
      'Indexes on tunnel_connection:',
      '',
      ...r.indexes.map((i) => `- \`${i}\``),
      '',
    );
  }
  return parts.join('\n');
}

function webTerminalSection(r: WebTerminalResult): string {
  const names = WEB_PEERS.filter((n) => r.peers[n]);
  const title: Record<WebPeerName, string> = {
    portcullis: 'Portcullis',
    wetty: 'WeTTY',
    shellinabox: 'shellinabox',
  };
  const row = (
    label: string,
    value: (p: WebPeerResult) => number | undefined,
    digits: number,
  ): string[] => [
    label,
    ...names.map((n) => {
      const v = value(r.peers[n]!);
      return v === undefined || !Number.isFinite(v) ? 'not measured' : f(v, digits);
    }),
  ];
  const reps = Math.max(0, ...names.map((n) => r.peers[n]!.throughput.length));
  return [
    '## Web terminal (Portcullis, WeTTY, shellinabox against the same target sshd)',
    '',
    'Each web terminal logs in to the same target sshd with a key; the browser is played by a client in the bench that speaks the terminal’s protocol and draws nothing (so these are upper bounds of what a browser would show). The throughput repetitions take turns among the terminals; the echo samples run one terminal after another.',
    '',
    table(
      ['measure', ...names.map((n) => title[n])],
      [
        row(
          `output throughput, MB/s (\`head -c ${r.bytes} /dev/urandom \\| base64\` in the shell; median of ${reps})`,
          (p) => (p.throughput.length ? median(p.throughput) : undefined),
          1,
        ),
        row(`echo p50 ms (${r.samples} samples, a byte every 50 ms)`, (p) => p.echo?.p50, 3),
        row('echo p99 ms', (p) => p.echo?.p99, 3),
      ],
    ),
    '',
    'Every repetition (MB/s):',
    '',
    table(
      ['terminal', 'runs'],
      names.map((n) => [title[n], r.peers[n]!.throughput.map((v) => f(v)).join(', ') || '—']),
    ),
    '',
    'How each was set up, and what did not work:',
    '',
    ...names.map(
      (n) =>
        `- **${title[n]}**: ${r.peers[n]!.setup || '(not started)'}` +
        (r.peers[n]!.error ? `. **Not measured / stopped**: ${r.peers[n]!.error}` : ''),
    ),
  ].join('\n');
}

export function writeResults(r: Results): string {
  const targets: string[] = [];
  const sections: string[] = [];
  if (r.bulk) sections.push(bulkSection(r.bulk, targets));
  if (r.echo) sections.push(echoSection(r.echo, targets));
  if (r.setup) sections.push(setupSection(r.setup, r.settings.reps));
  if (r.memory) sections.push(memorySection(r.memory, targets));
  if (r.recording) sections.push(recordingSection(r.recording, targets));
  if (r.actionLog) sections.push(actionLogSection(r.actionLog, targets));
  if (r.webTerminal) sections.push(webTerminalSection(r.webTerminal));
  if (r.db) sections.push(...dbSections(r.db, targets));
  const minutes = r.finished ? (r.finished.getTime() - r.started.getTime()) / 60_000 : NaN;
  return [
    '# Benchmark results',
    '',
    'Written by `bench/run.ts`; do not edit by hand. Every figure below was measured in this one run.',
    '',
    `- Command: \`${r.command}\``,
    `- Date: ${r.started.toISOString()} (took ${f(minutes)} min)`,
    `- Machine: ${r.machine.cores} cores (${r.machine.cpu}), ${f(r.machine.memoryGiB)} GiB, ${r.machine.kernel}, load average at start ${r.machine.loadAtStart.map((l) => f(l, 2)).join(' / ')} (shared with other work)`,
    `- Node ${r.machine.node}; ${r.machine.ssh ?? 'ssh version unknown'}`,
    `- Settings: ${r.settings.reps} repetitions; bulk ${mib(r.settings.bytes)}; echo ${r.settings.echoSamples} samples; idle shells ${r.settings.sessions.join(', ')}; recording ${mib(r.settings.recordingBytes)}; action log ${r.settings.logRows.toLocaleString('en')} rows`,
    `- Paths: **gateway** = \`ssh -p <ssh proxy> CODE@127.0.0.1\` through the Portcullis gateway (its own process) to the target sshd; **direct** = \`ssh\` to the target sshd; **jump host** = \`ssh -J\` (ProxyJump) through a second sshd. Client hops pinned to \`aes128-gcm@openssh.com\`, ed25519 keys; the gateway's hop to the target is ssh2's first choice, also aes128-gcm@openssh.com on a CPU with AES-NI.`,
    ...(r.db
      ? [
          `- Databases: ${r.db.settings.seconds} s per pgbench / sysbench run; latency ${r.db.settings.latencySamples} samples per path and repetition; large result ${mib(r.db.settings.resultBytes)} (and a tenth of it)`,
        ]
      : []),
    ...(r.skipped.length ? [`- Not run this time (BENCH_ONLY): ${r.skipped.join(', ')}`] : []),
    ...r.failed.map((e) => `- **Not measured (failed in this run)**: ${e}`),
    ...(r.settings.bytes < 2 ** 30 && !r.skipped.includes('bulk')
      ? [
          `- Bulk transfers are ${mib(r.settings.bytes)} each, not the issue's 1 GiB: 5 repetitions × 3 paths × 2 directions of 1 GiB take most of an hour on this shared 2-core machine. \`BENCH_BYTES=1073741824\` runs the full size.`,
        ]
      : []),
    '',
    r.db ? '## Targets (issue 6; the database rows: issue 7)' : '## Targets (issue 6)',
    '',
    '| target | measured | verdict |',
    '|---|---|---|',
    ...targets,
    '',
    ...sections.flatMap((s) => [s, '']),
    ...(r.gatewayWarnings?.length
      ? [
          '## What the gateway logged (warn and above)',
          '',
          table(
            ['message', 'times'],
            r.gatewayWarnings.map(([m, n]) => [m, String(n)]),
          ),
          '',
        ]
      : []),
    ...(r.notes.length ? ['## Notes', '', ...r.notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}
