/**
 * The database part of the bench (issue 7, BENCH_ONLY=db): the gateway's PostgreSQL and MySQL
 * proxies against the same loopback databases reached directly and through other relays, in
 * one run, BENCH_REPS repetitions within which the paths take turns (rotating who goes first):
 *
 *   pgbench -S   direct, haproxy (TCP), pgbouncer (session), pgpool2 (raw), gateway
 *   sysbench     direct, haproxy (TCP), gateway with 0, 10 and 100 block rules
 *   latency      one Node client, point selects one at a time, direct and gateway
 *   large result psql / mysql --quick to /dev/null, a tenth and the full size, gateway RSS
 *
 * Every path is smoke-tested first; one that fails is reported with its error and left out of
 * the timing (never a silent zero). A tool that is missing (and could not be installed) makes
 * its part "not measured". Scratch data is made here and dropped at the end, and every process
 * started here is stopped, also when something fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Stack } from '../lib/stack';
import {
  DATA_COMMANDS,
  dropData,
  MYSQL,
  PG,
  PGBENCH_SCALE,
  prepareMysql,
  preparePostgres,
  SYSBENCH_TABLE_SIZE,
  SYSBENCH_TABLES,
} from './data';
import { gatewayCodes, RULE_COUNTS, type GatewayCodes, type RuleCount } from './gateway-codes';
import { measureLargeResult, type Db, type Endpoint, type LargeResultSeries } from './large-result';
import { measureLatency, type LatencyResult } from './latency';
import { ensureTools, type Tool } from './packages';
import { NODE_RELAY, startHaproxy, startNodeRelays, startPgbouncer, startPgpool } from './peers';
import { timed } from '../lib/proc';
import { Cleanup, firstLine, throughput, type DbPath, type Throughput } from './runner';
import {
  pgbench,
  pgbenchCommand,
  PGBENCH_WORKLOADS,
  type PgEndpoint,
  type PgbenchWorkload,
} from './pgbench';
import {
  sysbench,
  sysbenchCommand,
  SYSBENCH_WORKLOADS,
  type MysqlEndpoint,
  type SysbenchWorkload,
} from './sysbench';

export interface DbSettings {
  reps: number;
  /** Seconds per pgbench / sysbench run. */
  seconds: number;
  resultBytes: number;
  latencySamples: number;
}

export type { DbPath, Throughput, LatencyResult, LargeResultSeries };

export interface DbResult {
  settings: DbSettings;
  dataCommands: string[];
  pgbench?: Throughput;
  sysbench?: Throughput;
  latency: LatencyResult[];
  largeResult: LargeResultSeries[];
  /** Whole parts that were not measured, with why. */
  notMeasured: string[];
  notes: string[];
}

/** Runs the database part; the caller reports a throw as "db: not measured". */
export async function runDb(stack: Stack, settings: DbSettings): Promise<DbResult> {
  const result: DbResult = {
    settings,
    dataCommands: DATA_COMMANDS,
    latency: [],
    largeResult: [],
    notMeasured: [],
    notes: [],
  };
  result.notes.push(await gatewaySource());
  const missing = await ensureTools();
  const lacks = (...tools: Tool[]): string | undefined => {
    const why = tools.map((t) => missing.get(t)).filter(Boolean);
    return why.length ? why.join('; ') : undefined;
  };
  const dir = path.join(stack.dir, 'db');
  fs.mkdirSync(dir, { recursive: true });
  const cleanup = new Cleanup();
  try {
    // The data (without it the database's whole side is not measured).
    cleanup.add('scratch databases', dropData);
    let pgReady = lacks('psql', 'pgbench');
    if (!pgReady) {
      pgReady = await preparePostgres().then(
        () => undefined,
        (e: unknown) => firstLine(e),
      );
    }
    let myReady = lacks('mysql', 'sysbench');
    if (!myReady) {
      myReady = await prepareMysql().then(
        () => undefined,
        (e: unknown) => firstLine(e),
      );
    }
    if (pgReady) result.notMeasured.push(`PostgreSQL (everything): ${pgReady}`);
    if (myReady) result.notMeasured.push(`MySQL (everything): ${myReady}`);

    const codes: GatewayCodes = await gatewayCodes(stack);
    const haproxy = lacks('haproxy')
      ? { error: lacks('haproxy')! }
      : await startHaproxy(fs.mkdtempSync(path.join(dir, 'haproxy-'))).catch((e: unknown) => ({
          error: firstLine(e),
        }));
    if ('stop' in haproxy) cleanup.add('haproxy', haproxy.stop);
    // The floor under any Node.js proxy: the same bytes piped by a process that reads nothing.
    const nodeRelay = await startNodeRelays().catch((e: unknown) => ({
      error: firstLine(e),
    }));
    if ('stop' in nodeRelay) cleanup.add('node relay', nodeRelay.stop);
    const nodeRelayPath = <E>(
      db: 'pg' | 'mysql',
      endpoint: (port: number) => E,
    ): { path: DbPath; endpoint?: E } =>
      'error' in nodeRelay
        ? { path: { name: NODE_RELAY, describe: NODE_RELAY, error: nodeRelay.error } }
        : {
            path: { name: NODE_RELAY, describe: nodeRelay.describe },
            endpoint: endpoint(nodeRelay[db]),
          };

    if (!pgReady) {
      const bouncer = lacks('pgbouncer', 'runuser')
        ? { error: lacks('pgbouncer', 'runuser')! }
        : await startPgbouncer(stack.dir, fs.mkdtempSync(path.join(dir, 'pgbouncer-'))).catch(
            (e: unknown) => ({ error: firstLine(e) }),
          );
      if ('stop' in bouncer) cleanup.add('pgbouncer', bouncer.stop);
      const pool = lacks('pgpool')
        ? { error: lacks('pgpool')! }
        : await startPgpool(fs.mkdtempSync(path.join(dir, 'pgpool-'))).catch((e: unknown) => ({
            error: firstLine(e),
          }));
      if ('stop' in pool) cleanup.add('pgpool2', pool.stop);
      const asPg = (port: number): PgEndpoint => ({ port, user: PG.user, password: '' });
      result.pgbench = await throughput<PgbenchWorkload, PgEndpoint>(
        'pgbench',
        'tps',
        [
          {
            path: { name: 'direct', describe: `PostgreSQL 15 at 127.0.0.1:${PG.port}` },
            endpoint: asPg(PG.port),
          },
          'error' in haproxy
            ? { path: { name: 'haproxy', describe: 'haproxy', error: haproxy.error } }
            : {
                path: { name: 'haproxy', describe: haproxy.describe },
                endpoint: asPg(haproxy.pg),
              },
          'error' in bouncer
            ? { path: { name: 'pgbouncer', describe: 'pgbouncer', error: bouncer.error } }
            : {
                path: { name: 'pgbouncer', describe: bouncer.describe },
                endpoint: asPg(bouncer.port),
              },
          'error' in pool
            ? { path: { name: 'pgpool2', describe: 'pgpool2', error: pool.error } }
            : { path: { name: 'pgpool2', describe: pool.describe }, endpoint: asPg(pool.port) },
          nodeRelayPath('pg', asPg),
          {
            path: {
              name: 'gateway',
              describe: `the gateway's PostgreSQL proxy (user = the code, no password; statement log on; no rules)`,
            },
            endpoint: { port: stack.gatewayPgPort, user: codes.postgres, password: '' },
          },
        ],
        {
          workloads: PGBENCH_WORKLOADS,
          key: (w) => w.key,
          smoke: (e) => pgbench(e, PGBENCH_WORKLOADS[0]!, ['-t', 50]),
          run: (e, w) => pgbench(e, w, ['-T', settings.seconds]),
          command: (e, w) => pgbenchCommand(e, w, settings.seconds),
        },
        settings.reps,
      );
    }

    if (!myReady) {
      const mysqlGateway = (n: RuleCount): { path: DbPath; endpoint: MysqlEndpoint } => ({
        path: {
          name: `gateway ${n} rules`,
          describe: `the gateway's MySQL proxy (user = the code, no password; statement log on; ${n} block rules on tables not used)`,
        },
        endpoint: { port: stack.gatewayMysqlPort, user: codes.mysql[n], password: '' },
      });
      const asMy = (port: number): MysqlEndpoint => ({
        port,
        user: MYSQL.user,
        password: MYSQL.password,
      });
      result.sysbench = await throughput<SysbenchWorkload, MysqlEndpoint>(
        'sysbench',
        'qps',
        [
          {
            path: { name: 'direct', describe: `MariaDB at 127.0.0.1:${MYSQL.port}` },
            endpoint: asMy(MYSQL.port),
          },
          'error' in haproxy
            ? { path: { name: 'haproxy', describe: 'haproxy', error: haproxy.error } }
            : {
                path: { name: 'haproxy', describe: haproxy.describe },
                endpoint: asMy(haproxy.mysql),
              },
          nodeRelayPath('mysql', asMy),
          ...RULE_COUNTS.map(mysqlGateway),
        ],
        {
          workloads: SYSBENCH_WORKLOADS,
          key: (w) => w.key,
          smoke: (e) => sysbench(e, SYSBENCH_WORKLOADS[0]!, { seconds: 0, events: 200 }),
          run: (e, w) => sysbench(e, w, { seconds: settings.seconds }),
          command: (e, w) => sysbenchCommand(e, w, settings.seconds),
        },
        settings.reps,
      );
    }

    // Latency and the large result: direct and gateway per database.
    const pairs: { db: Db; direct: Endpoint; gateway: Endpoint }[] = [];
    if (!pgReady) {
      pairs.push({
        db: 'postgresql',
        direct: { port: PG.port, user: PG.user, password: '' },
        gateway: { port: stack.gatewayPgPort, user: codes.postgres, password: '' },
      });
    }
    if (!myReady) {
      pairs.push({
        db: 'mysql',
        direct: { port: MYSQL.port, user: MYSQL.user, password: MYSQL.password },
        gateway: { port: stack.gatewayMysqlPort, user: codes.mysql[0], password: '' },
      });
    }
    for (const p of pairs) {
      result.latency.push(
        await measureLatency(p.db, p.direct, p.gateway, settings).catch((e: unknown) => ({
          db: p.db,
          samples: settings.latencySamples,
          direct: [],
          gateway: [],
          error: firstLine(e),
        })),
      );
    }
    for (const p of pairs) {
      result.largeResult.push(await measureLargeResult(stack, p.db, p.direct, p.gateway, settings));
    }
    result.notes.push(
      `Data: PostgreSQL \`pgbench -i -s ${PGBENCH_SCALE}\` (${(PGBENCH_SCALE * 100_000).toLocaleString('en')} accounts); MariaDB sysbench ${SYSBENCH_TABLES} tables of ${SYSBENCH_TABLE_SIZE.toLocaleString('en')} rows (InnoDB); both fit in memory, so these are relay costs, not disk.`,
    );
  } finally {
    await cleanup.runAll();
  }
  return result;
}

/**
 * Which gateway was measured: the commit, and whether apps/gateway had changes not committed
 * (the bench gateway runs the working tree's source, loaded when the stack started).
 */
async function gatewaySource(): Promise<string> {
  const head = await timed('git', ['rev-parse', '--short', 'HEAD']);
  const dirty = await timed('git', ['status', '--porcelain', '--', 'apps/gateway', 'packages']);
  if (head.code !== 0) return 'Gateway source: not a git checkout.';
  const changed = dirty.stdout.toString().trim().split('\n').filter(Boolean).length;
  return `Gateway source: commit ${head.stdout.toString().trim()}${changed ? ` with ${changed} uncommitted file(s) under apps/gateway and packages (another engineer's work in progress)` : ', apps/gateway and packages clean'} at the start of the database part (the gateway process loaded its source earlier, when the stack started).`;
}
