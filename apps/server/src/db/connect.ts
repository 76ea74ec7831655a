/**
 * Opens the database (SQLite file by default, PostgreSQL for a postgres:// URL) and brings its
 * schema up to date.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import type { Database } from './schema';
import { migrationsFor, type Dialect } from './migrations/index';
import { runPreparedOnSqlite } from './prepared';
import { withStatementCache } from './statement-cache';
import type { SqliteSynchronous } from '../config';

// PostgreSQL returns int8 as text; our int8 columns are epoch seconds, well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** See AppConfig.sqliteSynchronous; `normal` when not given. */
  sqliteSynchronous?: SqliteSynchronous;
  onPoolError?: (error: Error) => void;
}): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Dialect;
  if (options.databaseUrl) {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection ended by the server (restart, admin kill) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => options.onPoolError?.(error));
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    dialect = 'sqlite';
    // The file holds every team's sealed credentials and the audit trail: its owner's alone (a
    // new data folder 0700, the file 0600, which SQLite gives its -wal and -shm files too).
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const location = path.join(options.dataDir, 'portcullis.db');
    fs.closeSync(fs.openSync(location, 'a', 0o600));
    fs.chmodSync(location, 0o600);
    const file = new SQLite(location);
    file.pragma('journal_mode = WAL');
    // NORMAL: a commit is not synced to the disk while the event loop waits (config.ts).
    file.pragma(`synchronous = ${options.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    file.pragma('foreign_keys = ON');
    file.pragma('busy_timeout = 5000');
    // The default page cache (2 MB) holds little of a large action log; 64 MiB and a memory map
    // keep the indexes a search walks in memory (bench/RESULTS.md). Both are upper bounds.
    file.pragma('cache_size = -65536');
    file.pragma('mmap_size = 268435456');
    const cached = withStatementCache(file);
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
    runPreparedOnSqlite(kysely, { database: file, prepare: (sql) => cached.prepare(sql) });
  }
  await migrate(kysely, dialect);
  return { kysely, dialect };
}

async function migrate(kysely: Kysely<Database>, dialect: Dialect): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  const { error, results } = await new Migrator({
    db: kysely,
    provider,
    // Features add migrations in parallel; one numbered before another that already ran must still run.
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, {
      cause: error,
    });
  }
}
