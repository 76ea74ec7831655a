// What the servers would have run: each evasion the judge refuses is run on the real server
// (MariaDB at 127.0.0.1:3306, PostgreSQL at 127.0.0.1:5432) to show it does what the judge
// feared, and each text the judge passes under a DELETE rule is run to show it deletes nothing.
// Each suite works in a scratch database or schema of its own, dropped afterwards.
import crypto from 'node:crypto';
import type { SqlPolicy } from '@portcullis/contract';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { judgeSql, loadSqlParsers } from './index';

const DELETE_ORDERS: SqlPolicy = {
  block: [{ op: 'delete', table: 'orders' }],
  notice: [],
  approval: false,
};
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
