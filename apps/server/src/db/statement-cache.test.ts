import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache';

interface Schema {
  item: { id: number; name: string };
}

/** An in-memory database whose prepare() calls are counted. */
function counted(): { db: SQLite.Database; compiled: () => number } {
  const db = new SQLite(':memory:');
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  let count = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    count++;
    return prepare(sql);
  }) as typeof db.prepare;
  return { db, compiled: () => count };
}

describe('withStatementCache', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('compiles a query once and runs it with each call’s parameters', async () => {
    const { db, compiled } = counted();
    const kysely = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: withStatementCache(db) }),
    });
    close = () => void kysely.destroy();
    for (const [id, name] of [
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ] as const) {
      await kysely.insertInto('item').values({ id, name }).execute();
    }
    const before = compiled();
    const names: string[] = [];
    for (const id of [3, 1, 2]) {
      const row = await kysely
        .selectFrom('item')
        .select('name')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      names.push(row.name);
    }
    expect(names).toEqual(['three', 'one', 'two']);
    expect(compiled() - before).toBe(1);
  });

  it('hands out a fresh statement while the kept one is still stepping through rows', () => {
    const { db } = counted();
    close = () => db.close();
    db.exec("INSERT INTO item (id, name) VALUES (1, 'a'), (2, 'b')");
    const cached = withStatementCache(db);
    const sql = 'SELECT name FROM item ORDER BY id';
    const first = cached.prepare(sql);
    const rows = first.iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    const second = cached.prepare(sql);
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(rows.next().value).toEqual({ name: 'b' });
    expect(rows.next().done).toBe(true);
  });

  it('keeps only the most recently used statements', () => {
    const { db, compiled } = counted();
    close = () => db.close();
    const cached = withStatementCache(db, 2);
    const a = 'SELECT 1';
    const b = 'SELECT 2';
    const c = 'SELECT 3';
    for (const sql of [a, b, a, c]) cached.prepare(sql); // c pushes out b, the least recent
    expect(compiled()).toBe(3);
    cached.prepare(a);
    expect(compiled()).toBe(3);
    cached.prepare(b);
    expect(compiled()).toBe(4);
  });
});
