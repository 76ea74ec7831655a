/**
 * The scratch data every database path reads: a database `portcullis_bench` in the loopback
 * PostgreSQL (`pgbench -i -s 10`, 1,000,000 accounts) and in the loopback MariaDB (`sysbench
 * oltp_read_only prepare`, 4 tables of 100,000 rows), plus a MariaDB account for it. The
 * gateway's stored credential needs a password (the resource form requires one) and MariaDB's
 * root has none, so every MySQL path (direct, haproxy, gateway) logs in as that account alike.
 * Dropped again by the cleanup this returns.
 */
import { say, timed } from '../lib/proc';

export const BENCH_DB = 'portcullis_bench';
export const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', password: 'unused' };
export const MYSQL = { host: '127.0.0.1', port: 3306, user: 'portcullis_bench', password: 'bench' };
export const PGBENCH_SCALE = 10;
export const SYSBENCH_TABLES = 4;
export const SYSBENCH_TABLE_SIZE = 100_000;

/** The exact commands that made the data, for RESULTS.md. */
export const DATA_COMMANDS = [
  `pgbench -i -s ${PGBENCH_SCALE} -h 127.0.0.1 -U postgres ${BENCH_DB}`,
  `sysbench oltp_read_only --db-driver=mysql --mysql-host=127.0.0.1 --mysql-user=${MYSQL.user} --mysql-db=${BENCH_DB} --tables=${SYSBENCH_TABLES} --table-size=${SYSBENCH_TABLE_SIZE} prepare`,
];

/** Runs SQL as PostgreSQL's superuser over loopback (trust). */
export async function psqlAdmin(sql: string, database = 'postgres'): Promise<string> {
  const r = await timed('psql', [
    '-X',
    '-At',
    '-v',
    'ON_ERROR_STOP=1',
    '-h',
    PG.host,
    '-U',
    PG.user,
    '-d',
    database,
    '-c',
    sql,
  ]);
  if (r.code !== 0) throw new Error(`psql: ${r.stderr.trim()}`);
  return r.stdout.toString().trim();
}

/** Runs SQL as MariaDB's root over loopback. */
export async function mysqlAdmin(sql: string): Promise<string> {
  const r = await timed('mysql', ['-h', '127.0.0.1', '-P', '3306', '-u', 'root', '-N', '-e', sql]);
  if (r.code !== 0) throw new Error(`mysql: ${r.stderr.trim()}`);
  return r.stdout.toString().trim();
}

export async function preparePostgres(): Promise<void> {
  await psqlAdmin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await psqlAdmin(`CREATE DATABASE ${BENCH_DB}`);
  const r = await timed(
    'pgbench',
    ['-i', '-q', '-s', String(PGBENCH_SCALE), '-h', PG.host, '-U', PG.user, BENCH_DB],
    { timeoutMs: 600_000 },
  );
  if (r.code !== 0) throw new Error(`pgbench -i: ${r.stderr.trim()}`);
  say(`db: pgbench -i -s ${PGBENCH_SCALE} took ${r.seconds.toFixed(1)} s`);
}

export async function prepareMysql(): Promise<void> {
  await mysqlAdmin(
    [
      `DROP DATABASE IF EXISTS ${BENCH_DB}`,
      `CREATE DATABASE ${BENCH_DB}`,
      `DROP USER IF EXISTS '${MYSQL.user}'@'127.0.0.1'`,
      `CREATE USER '${MYSQL.user}'@'127.0.0.1' IDENTIFIED BY '${MYSQL.password}'`,
      `GRANT ALL ON ${BENCH_DB}.* TO '${MYSQL.user}'@'127.0.0.1'`,
    ].join('; '),
  );
  const r = await timed(
    'sysbench',
    [
      'oltp_read_only',
      '--db-driver=mysql',
      `--mysql-host=${MYSQL.host}`,
      `--mysql-port=${MYSQL.port}`,
      `--mysql-user=${MYSQL.user}`,
      `--mysql-password=${MYSQL.password}`,
      `--mysql-db=${BENCH_DB}`,
      `--tables=${SYSBENCH_TABLES}`,
      `--table-size=${SYSBENCH_TABLE_SIZE}`,
      'prepare',
    ],
    { timeoutMs: 600_000 },
  );
  if (r.code !== 0) throw new Error(`sysbench prepare: ${r.stdout.toString()} ${r.stderr.trim()}`);
  say(`db: sysbench prepare took ${r.seconds.toFixed(1)} s`);
}

/** Drops both scratch databases and the MariaDB account; errors are only logged. */
export async function dropData(): Promise<void> {
  await psqlAdmin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`).catch((e: unknown) =>
    say(`db: drop PostgreSQL database: ${String(e)}`),
  );
  await mysqlAdmin(
    `DROP DATABASE IF EXISTS ${BENCH_DB}; DROP USER IF EXISTS '${MYSQL.user}'@'127.0.0.1'`,
  ).catch((e: unknown) => say(`db: drop MariaDB database: ${String(e)}`));
}
