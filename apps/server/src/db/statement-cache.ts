/**
 * Kysely's SQLite driver prepares every query anew, and with better-sqlite3 the preparing
 * (SQLite compiling the statement) can cost as much as running it: a code check or a session
 * start runs a dozen small queries. This keeps compiled statements by their text, the most
 * recently used {@link STATEMENT_CACHE_MAX} of them (query texts vary with list lengths, so the
 * cache is bounded). A statement still stepping through rows (`iterate`) is not handed out
 * twice: the caller gets a fresh one.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export const STATEMENT_CACHE_MAX = 500;

export function withStatementCache(db: SQLite.Database, max = STATEMENT_CACHE_MAX): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      const kept = cache.get(sql);
      if (kept && !kept.busy) {
        // Map keeps insertion order: re-inserting marks it the most recently used.
        cache.delete(sql);
        cache.set(sql, kept);
        return kept;
      }
      const statement = db.prepare(sql);
      if (!kept) {
        cache.set(sql, statement);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}
