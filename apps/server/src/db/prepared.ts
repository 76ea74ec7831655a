/**
 * Queries that run for every session (a code check, a session's start and end, a recording
 * chunk), built and compiled once and then run with new values. Kysely builds an operation
 * tree and compiles it to SQL on every call, and hands each query through a chain of promises
 * and a connection lock: on SQLite that costs more than running a small indexed look-up, and a
 * client that connects for one query costs a dozen of them (bench/RESULTS.md, `-C`).
 *
 * The builder gets a placeholder per named value; each run supplies the values by name and
 * they take the placeholders' places among the compiled parameters. Only for queries whose
 * shape does not depend on the values: no lists whose length varies, no value the builder
 * itself looks at or transforms (a placeholder that does not come out as a parameter is
 * refused when the query is first compiled).
 *
 * On SQLite (better-sqlite3 is synchronous), a run outside a transaction goes straight to the
 * compiled statement, as kysely's own driver would run it but without the promise chain;
 * inside a transaction (kysely's lock is held by it) it goes through kysely and waits its turn,
 * as every other query does.
 */
import type SQLite from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely, QueryResult, SqliteStatement } from 'kysely';
import type { Database } from './schema';

/** The SQLite file under a kysely handle, and its statement cache (statement-cache.ts). */
export interface SqliteHandle {
  database: Pick<SQLite.Database, 'inTransaction'>;
  prepare(sql: string): Pick<SqliteStatement, 'reader' | 'all' | 'run'>;
}

const sqliteHandles = new WeakMap<Kysely<Database>, SqliteHandle>();

/** Lets prepared queries on `db` run synchronously on its SQLite file (connect.ts). */
export function runPreparedOnSqlite(db: Kysely<Database>, handle: SqliteHandle): void {
  sqliteHandles.set(db, handle);
}

/**
 * What the builder puts where a value goes. Typed `never` so that it fits any column's type;
 * it is a marker string at run time, never a value of the query.
 */
export type Placeholders<Name extends string> = Record<Name, never>;

export interface PreparedQuery<Name extends string, Row> {
  execute(db: Kysely<Database>, values: Record<Name, unknown>): Promise<QueryResult<Row>>;
  /** The first row, if any (as executeTakeFirst). */
  first(db: Kysely<Database>, values: Record<Name, unknown>): Promise<Row | undefined>;
}

const MARK = '\u0000prepared:';

/** A compiled query's parameters: a value's name, or a constant the builder put there. */
type Slot = { name: string } | { constant: unknown };

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  slots: Slot[];
}

export function prepared<const Names extends readonly string[], Row>(
  names: Names,
  build: (db: Kysely<Database>, values: Placeholders<Names[number]>) => Compilable<Row>,
): PreparedQuery<Names[number], Row> {
  const placeholders = Object.fromEntries(names.map((n) => [n, `${MARK}${n}`])) as Placeholders<
    Names[number]
  >;
  // Per handle: the SQL text depends on the dialect (`?` or `$1`, quoting).
  const compiled = new WeakMap<Kysely<Database>, Compiled<Row>>();

  const compile = (db: Kysely<Database>): Compiled<Row> => {
    const query = build(db, placeholders).compile();
    const slots = query.parameters.map((p): Slot => {
      if (typeof p === 'string' && p.startsWith(MARK)) return { name: p.slice(MARK.length) };
      return { constant: p };
    });
    const used = new Set(slots.flatMap((s) => ('name' in s ? [s.name] : [])));
    const lost = names.filter((n) => !used.has(n));
    if (lost.length > 0) {
      throw new Error(`prepared query: ${lost.join(', ')} did not come out as parameters`);
    }
    return { query, slots };
  };

  const execute: PreparedQuery<Names[number], Row>['execute'] = (db, values) => {
    try {
      let c = compiled.get(db);
      if (!c) compiled.set(db, (c = compile(db)));
      const parameters = c.slots.map((s) =>
        'name' in s ? (values as Record<string, unknown>)[s.name] : s.constant,
      );
      const sqlite = sqliteHandles.get(db);
      if (sqlite && !sqlite.database.inTransaction) {
        return Promise.resolve(runOnSqlite<Row>(sqlite, c.query.sql, parameters));
      }
      return db.executeQuery<Row>({ ...c.query, parameters });
    } catch (error) {
      // As a query built anew fails: in the promise.
      return Promise.reject(error as Error);
    }
  };
  return { execute, first: async (db, values) => (await execute(db, values)).rows[0] };
}

/** As kysely's SQLite driver runs a query (sqlite-driver.js), synchronously. */
function runOnSqlite<Row>(
  handle: SqliteHandle,
  sql: string,
  parameters: unknown[],
): QueryResult<Row> {
  const statement = handle.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
