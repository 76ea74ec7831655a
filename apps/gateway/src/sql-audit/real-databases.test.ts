// What the servers would have run: each evasion the judge refuses is run on the real server
// (MariaDB at 127.0.0.1:3306, PostgreSQL at 127.0.0.1:5432) to show it does what the judge
// feared, and each text the judge passes under a DELETE rule is run to show it deletes nothing.
// Each suite works in a scratch database or schema of its own, dropped afterwards.
import crypto from 'node:crypto';
import type { SqlPolicy, SqlRule } from '@portcullis/contract';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { judgeSql, loadSqlParsers } from './index';

const DELETE_ORDERS: SqlPolicy = {
  block: [{ op: 'delete', table: 'orders' }],
  notice: [],
  approval: false,
};
const APPROVAL: SqlPolicy = { block: [], notice: [], approval: true };
const scratch = `sql_audit_${crypto.randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  await loadSqlParsers();
});

describe('MariaDB', () => {
  let db: mysql.Connection;
  const count = async (): Promise<number> => {
    const [rows] = await db.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM orders');
    return Number(rows[0]?.n);
  };

  beforeAll(async () => {
    db = await mysql.createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      multipleStatements: true,
    });
    await db.query(`CREATE DATABASE ${scratch}`);
    await db.query(`USE ${scratch}`);
    await db.query('CREATE TABLE orders (id int PRIMARY KEY)');
  });
  afterAll(async () => {
    await db?.query(`DROP DATABASE IF EXISTS ${scratch}`);
    await db?.end();
  });
  beforeEach(async () => {
    await db.query('SET sql_mode = DEFAULT');
    await db.query('DELETE FROM orders; INSERT INTO orders VALUES (1), (2), (3)');
  });

  it('executes a versioned comment: the judge must (and does) see the DELETE in it', async () => {
    const sql = '/*!50000 DELETE FROM orders */';
    expect(judgeSql('mysql', sql, DELETE_ORDERS)).toMatchObject({
      action: 'block',
      reason: 'rule',
    });
    await db.query(sql);
    expect(await count()).toBe(0);
  });

  it('refuses a ; inside a versioned comment (and so does the judge, which reads it as code)', async () => {
    const sql = 'SELECT 1 /*!50000 ; DELETE FROM orders */';
    expect(judgeSql('mysql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    await expect(db.query(sql)).rejects.toMatchObject({ code: 'ER_PARSE_ERROR' });
    expect(await count()).toBe(3);
  });

  it('under NO_BACKSLASH_ESCAPES runs a DELETE the default reading sees as a string', async () => {
    const sql = "SELECT '\\'; DELETE FROM orders; -- '";
    expect(judgeSql('mysql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    await db.query(sql); // default mode: one string, nothing deleted
    expect(await count()).toBe(3);
    await db.query("SET sql_mode = 'NO_BACKSLASH_ESCAPES'");
    await db.query(sql);
    expect(await count()).toBe(0);
  });

  it('under ANSI_QUOTES runs a DELETE that the readings with one escape rule for both quotes miss', async () => {
    const sql = `SELECT 1 AS "\\" , '\\' ' ; DELETE FROM orders; -- "`;
    expect(judgeSql('mysql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    expect(judgeSql('mysql', sql, APPROVAL)).toMatchObject({ action: 'block' });
    await db.query(sql); // default mode: one string, nothing deleted
    await db.query("SET sql_mode = 'NO_BACKSLASH_ESCAPES'");
    await db.query(sql).catch(() => undefined); // a string left open: refused
    expect(await count()).toBe(3);
    await db.query("SET sql_mode = 'ANSI_QUOTES'");
    await db.query(sql);
    expect(await count()).toBe(0);
  });

  it('refuses a statement that ends inside a string in every mode (the judge drops such a reading)', async () => {
    const sql = `SELECT 'it\\'s', "it\\"s"`;
    expect(judgeSql('mysql', sql, DELETE_ORDERS).action).toBe('pass');
    for (const mode of ['NO_BACKSLASH_ESCAPES', 'ANSI_QUOTES']) {
      await db.query(`SET sql_mode = '${mode}'`);
      await expect(db.query(sql)).rejects.toMatchObject({ code: 'ER_PARSE_ERROR' });
    }
  });

  it.each([
    'DELETE o FROM (SELECT 1) s RIGHT JOIN orders o ON 1=0',
    'DELETE s, orders FROM s RIGHT JOIN orders ON 1=0',
  ])('deletes from the targets of a multi-table DELETE, not its first table: %j', async (sql) => {
    await db.query('CREATE TABLE IF NOT EXISTS s (x int)');
    expect(judgeSql('mysql', sql, DELETE_ORDERS)).toMatchObject({
      action: 'block',
      reason: 'rule',
    });
    await db.query(sql);
    expect(await count()).toBe(0);
  });

  it('deletes nothing from a table a multi-table DELETE only reads, which the judge passes', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS a (id int)');
    await db.query('DELETE FROM a; INSERT INTO a VALUES (1), (2)');
    const sql = 'DELETE a FROM orders JOIN a ON a.id = orders.id';
    expect(judgeSql('mysql', sql, DELETE_ORDERS).action).toBe('pass');
    await db.query(sql);
    expect(await count()).toBe(3);
    const [rows] = await db.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM a');
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('runs the rest of a SET NAMES list (a GLOBAL there would change the server)', async () => {
    const sql = 'SET NAMES utf8mb4, @portcullis_probe = 7';
    expect(judgeSql('mysql', sql, APPROVAL)).toMatchObject({ action: 'block' });
    expect(judgeSql('mysql', 'SET NAMES utf8mb4, GLOBAL general_log = 0', APPROVAL)).toMatchObject({
      action: 'block',
    });
    await db.query(sql);
    const [rows] = await db.query<mysql.RowDataPacket[]>('SELECT @portcullis_probe AS v');
    expect(Number(rows[0]?.v)).toBe(7);
  });

  it('sets the password of the account with PASSWORD later in a SET list', async () => {
    const user = `${scratch}_u`;
    await db.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'before'`);
    try {
      const sql = "SET @x = 1, PASSWORD = PASSWORD('after')";
      expect(judgeSql('mysql', sql, APPROVAL)).toMatchObject({ action: 'block' });
      const login = (password: string) =>
        mysql.createConnection({ host: '127.0.0.1', port: 3306, user, password });
      const account = await login('before');
      await account.query(sql);
      await account.end();
      await (await login('after')).end();
    } finally {
      await db.query(`DROP USER '${user}'@'%'`);
    }
  });

  it('deletes from a table renamed away from its rule (the judge refuses the rename)', async () => {
    const sql = 'RENAME TABLE orders TO o2; DELETE FROM o2; RENAME TABLE o2 TO orders';
    expect(judgeSql('mysql', sql, DELETE_ORDERS)).toMatchObject({
      action: 'block',
      reason: 'rule',
    });
    await db.query(sql);
    expect(await count()).toBe(0);
  });

  it('does not take "--1" for a comment: the server runs what follows it', async () => {
    const [rows] = await db.query<mysql.RowDataPacket[]>('SELECT 1 --1 AS n');
    expect(Number(rows[0]?.n)).toBe(2);
  });

  it('fails DEL/**/ETE as a syntax error (it is not a DELETE)', async () => {
    await expect(db.query('DEL/**/ETE FROM orders')).rejects.toMatchObject({
      code: 'ER_PARSE_ERROR',
    });
    expect(await count()).toBe(3);
  });

  it.each([
    "SELECT 'DELETE FROM orders'",
    "SELECT 'x; DELETE FROM orders'",
    'SELECT 1 /* ; DELETE FROM orders */',
    'SELECT 1 # ; DELETE FROM orders',
    "SELECT * FROM orders WHERE 'it\\'s' = 'x'",
    '/*!40101 SET NAMES utf8mb4 */',
    "SELECT * FROM `orders` WHERE id = 1; SELECT 'DELETE'",
  ])('deletes nothing for a text the judge passes: %j', async (sql) => {
    expect(judgeSql('mysql', sql, DELETE_ORDERS).action).toBe('pass');
    await db.query(sql);
    expect(await count()).toBe(3);
  });
});

describe('PostgreSQL', () => {
  let db: pg.Client;
  const count = async (table: string): Promise<number> => {
    const result = await db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`);
    return Number(result.rows[0]?.n);
  };

  beforeAll(async () => {
    db = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
    await db.connect();
    await db.query(`CREATE SCHEMA ${scratch}; SET search_path = ${scratch}`);
    await db.query('CREATE TABLE orders (id int); CREATE TABLE "Orders" (id int)');
  });
  afterAll(async () => {
    await db?.query(`DROP SCHEMA IF EXISTS ${scratch} CASCADE`);
    await db?.end();
  });
  beforeEach(async () => {
    await db.query('SET standard_conforming_strings = on');
    await db.query('TRUNCATE orders, "Orders"');
    await db.query('INSERT INTO orders VALUES (1), (2); INSERT INTO "Orders" VALUES (1), (2)');
  });

  it('keeps the case of a quoted name: "Orders" is another table, and the rule still matches it', async () => {
    const sql = 'DELETE FROM "Orders"';
    expect(judgeSql('postgresql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    await db.query(sql);
    expect(await count('"Orders"')).toBe(0);
    expect(await count('orders')).toBe(2);
    // ...while an unquoted ORDERS folds to orders.
    const upper = `DELETE FROM ${scratch}.ORDERS`;
    expect(judgeSql('postgresql', upper, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    await db.query(upper);
    expect(await count('orders')).toBe(0);
  });

  it('with standard_conforming_strings off runs a DELETE the default reading sees as a string', async () => {
    const sql = "SELECT '\\'' ; DELETE FROM orders; -- '";
    expect(judgeSql('postgresql', sql, undefined)).toMatchObject({
      statements: [{ text: sql, op: 'select' }],
    });
    expect(judgeSql('postgresql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    await db.query(sql); // default: one string
    expect(await count('orders')).toBe(2);
    await db.query('SET standard_conforming_strings = off');
    await db.query(sql);
    expect(await count('orders')).toBe(0);
  });

  it('runs the DELETE of a data-modifying CTE inside a SELECT', async () => {
    const sql = 'WITH d AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM d';
    expect(judgeSql('postgresql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
    await db.query(sql);
    expect(await count('orders')).toBe(0);
  });

  it('empties a table referencing one truncated with CASCADE, and drops a column with a domain', async () => {
    await db.query(
      'CREATE TABLE kin (id int PRIMARY KEY); CREATE TABLE kids (k int REFERENCES kin)',
    );
    await db.query('INSERT INTO kin VALUES (1); INSERT INTO kids VALUES (1)');
    const truncate = 'TRUNCATE kin CASCADE';
    const rule = (op: SqlRule['op']): SqlPolicy => ({
      block: [{ op, table: 'kids' }],
      notice: [],
      approval: false,
    });
    expect(judgeSql('postgresql', truncate, rule('truncate'))).toMatchObject({ action: 'block' });
    await db.query(truncate);
    expect(await count('kids')).toBe(0);
    await db.query('CREATE DOMAIN dd AS int; ALTER TABLE kids ADD COLUMN d dd');
    const drop = 'DROP DOMAIN dd CASCADE';
    expect(judgeSql('postgresql', drop, rule('drop'))).toMatchObject({ action: 'block' });
    await db.query(drop);
    const columns = await db.query(
      "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'kids' AND column_name = 'd'",
    );
    expect(columns.rowCount).toBe(0);
    await db.query('DROP TABLE kids, kin');
  });

  it('deletes from a table renamed or moved away from its rule (the judge refuses the move)', async () => {
    await db.query(`CREATE SCHEMA ${scratch}_other`);
    try {
      for (const sql of [
        'ALTER TABLE orders RENAME TO o2; DELETE FROM o2; ALTER TABLE o2 RENAME TO orders',
        `ALTER TABLE orders SET SCHEMA ${scratch}_other; DELETE FROM ${scratch}_other.orders; ALTER TABLE ${scratch}_other.orders SET SCHEMA ${scratch}`,
      ]) {
        const shopOrders: SqlPolicy = {
          block: [{ op: 'delete', table: `${scratch}.orders` }],
          notice: [],
          approval: false,
        };
        expect(judgeSql('postgresql', sql, DELETE_ORDERS)).toMatchObject({ action: 'block' });
        expect(judgeSql('postgresql', sql, shopOrders)).toMatchObject({ action: 'block' });
        await db.query(sql);
        expect(await count('orders')).toBe(0);
        await db.query('INSERT INTO orders VALUES (1)');
      }
    } finally {
      await db.query(`DROP SCHEMA ${scratch}_other CASCADE`);
    }
  });

  it('moves a sequence from a function named in Unicode escapes', async () => {
    await db.query('CREATE SEQUENCE tickets');
    const sql = `SELECT U&"\\006Eextval"('tickets')`;
    expect(judgeSql('postgresql', sql, APPROVAL)).toMatchObject({
      action: 'block',
      reason: 'approval',
    });
    const result = await db.query<{ v: string }>(`${sql} AS v`);
    expect(Number(result.rows[0]?.v)).toBe(1);
    await db.query('DROP SEQUENCE tickets');
  });

  it('fails DEL/**/ETE as a syntax error (it is not a DELETE)', async () => {
    await expect(db.query('DEL/**/ETE FROM orders')).rejects.toMatchObject({ code: '42601' });
    expect(await count('orders')).toBe(2);
  });

  it.each([
    "SELECT 'DELETE FROM orders'",
    'SELECT $$ ; DELETE FROM orders $$',
    'SELECT 1 /* a /* nested */ ; DELETE FROM orders */',
    "SELECT E'it\\'s; DELETE FROM orders'",
    'EXPLAIN DELETE FROM "Orders"',
    'SELECT * FROM orders FOR UPDATE',
  ])('deletes nothing for a text the judge passes: %j', async (sql) => {
    const verdict = judgeSql('postgresql', sql, DELETE_ORDERS);
    if (verdict.action === 'pass') {
      await db.query(sql);
      expect(await count('orders')).toBe(2);
      expect(await count('"Orders"')).toBe(2);
    } else {
      // EXPLAIN is judged as what it explains: refusing a plain EXPLAIN DELETE is the price.
      expect(sql).toMatch(/^EXPLAIN/);
    }
  });
});
