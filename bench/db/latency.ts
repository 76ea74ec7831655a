/**
 * Latency one query at a time: one Node client (`pg` for PostgreSQL, `mysql2` for MariaDB, the
 * gateway's own dependencies) sends point selects one after another, each waiting for the
 * last, and the time of each round trip is kept. Direct and through the gateway take turns
 * within each repetition; the added latency is gateway minus direct, per percentile.
 *
 *   PostgreSQL  `SELECT abalance FROM pgbench_accounts WHERE aid = $1` (extended protocol)
 *   MariaDB     `SELECT c FROM sbtest1 WHERE id = ?` (`query`: text protocol, escaped by the
 *               client)
 *
 * The first 100 queries of each client are a warm-up and not kept.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { quantile, say } from '../lib/proc';
import type { DbSettings } from './index';
import type { Db } from './large-result';
import { rotated } from './runner';
import { BENCH_DB, PGBENCH_SCALE, SYSBENCH_TABLE_SIZE } from './data';
import type { MysqlEndpoint } from './sysbench';
import type { PgEndpoint } from './pgbench';

const WARM_UP = 100;

export interface LatencyPoint {
  p50: number;
  p99: number;
}

/** Milliseconds of each query after the warm-up. */
async function sample(query: (i: number) => Promise<unknown>, samples: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < WARM_UP + samples; i++) {
    const start = process.hrtime.bigint();
    await query(i);
    if (i >= WARM_UP) ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return ms;
}

const point = (ms: number[]): LatencyPoint => ({ p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) });
const aid = (i: number, rows: number): number => ((i * 7919) % rows) + 1;

export async function pgLatency(e: PgEndpoint, samples: number): Promise<LatencyPoint> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: e.port,
    user: e.user,
    password: e.password,
    database: BENCH_DB,
    ssl: false,
  });
  await client.connect();
  try {
    const rows = PGBENCH_SCALE * 100_000;
    return point(
      await sample(
        (i) => client.query('SELECT abalance FROM pgbench_accounts WHERE aid = $1', [aid(i, rows)]),
        samples,
      ),
    );
  } finally {
    await client.end();
  }
}

export async function mysqlLatency(e: MysqlEndpoint, samples: number): Promise<LatencyPoint> {
  const conn = await mysql.createConnection({
    host: '127.0.0.1',
    port: e.port,
    user: e.user,
    password: e.password,
    database: BENCH_DB,
  });
  try {
    return point(
      await sample(
        (i) => conn.query('SELECT c FROM sbtest1 WHERE id = ?', [aid(i, SYSBENCH_TABLE_SIZE)]),
        samples,
      ),
    );
  } finally {
    await conn.end();
  }
}

export interface LatencyResult {
  db: Db;
  samples: number;
  direct: LatencyPoint[];
  gateway: LatencyPoint[];
  error?: string;
}

/** Direct and gateway one after the other (who goes first rotates), each repetition. */
export async function measureLatency(
  db: Db,
  direct: PgEndpoint,
  gateway: PgEndpoint,
  settings: DbSettings,
): Promise<LatencyResult> {
  const measure = db === 'postgresql' ? pgLatency : mysqlLatency;
  const r: LatencyResult = { db, samples: settings.latencySamples, direct: [], gateway: [] };
  for (let rep = 0; rep < settings.reps; rep++) {
    for (const which of rotated(['direct', 'gateway'] as const, rep)) {
      const point = await measure(which === 'direct' ? direct : gateway, settings.latencySamples);
      r[which].push(point);
      say(
        `db: latency ${db} rep ${rep + 1} ${which}: p50 ${point.p50.toFixed(3)} ms, p99 ${point.p99.toFixed(3)} ms`,
      );
    }
  }
  return r;
}
