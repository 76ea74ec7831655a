/**
 * The MySQL proxy at its edges, against the real MariaDB through the real gateway: rule and
 * approval evasions (versioned comments, GBK, SET PASSWORD, sequences, USE, a raw kill), the
 * statement log of batches (CALL, USE), large statements and results, and the binary protocol's
 * rarer commands. Most of these were found by a review of the proxy and failed before their
 * fixes.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { frame } from '../../../../gateway/src/mysql-proxy/packets';
import { rawLogin } from '../../../../gateway/src/mysql-proxy/testing';
import type { TestApp, TestClient } from '../../test/harness';
import { addMembersTo, member, projectResourceId } from '../workgroups/test-fixtures';
import {
  sessionsOf,
  setRules as setDatabaseRules,
  startDatabaseStack,
  statementLog as downloadStatementLog,
  until,
  type DatabaseStack,
} from './database-test-kit';

const run = promisify(execFile);

const SCRATCH = `pc_edges_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
const OTHER = `${SCRATCH}_b`;
const USER = `${SCRATCH}_u`.slice(0, 32);
const PASSWORD = 'Review#Secret9';

describe('the MySQL proxy at its edges (real gateway, real MariaDB)', () => {
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let stack: DatabaseStack;
  let port: number;
  let dbId: number;
  let workgroupId: number;
  let code: string;
  let root: mysql.Connection;

  const connect = (user = code, extra: mysql.ConnectionOptions = {}) =>
    mysql.createConnection({
      host: '127.0.0.1',
      port,
      user,
      password: '',
      database: SCRATCH,
      ...extra,
    });
  const setRules = (body: Record<string, unknown>) => setDatabaseRules(admin, dbId, body);
  const connections = () => sessionsOf(t, erin.id, 'mysql');
  /** The statement log of erin's newest session, once it has ended. */
  const lastLog = async (atLeast = 1) => {
    const [row] = await connections();
    await until(async () => (await connections())[0]?.ended_at !== null);
    return downloadStatementLog(erin.client, row!.id, atLeast);
  };
  const count = async () =>
    (
      (await root.query(`SELECT count(*) AS n FROM ${SCRATCH}.orders`)) as [
        { n: number }[],
        unknown,
      ]
    )[0][0]!.n;
  const items = async () =>
    (
      (await root.query(`SELECT item FROM ${SCRATCH}.orders ORDER BY id`)) as [
        { item: string }[],
        unknown,
      ]
    )[0].map((r) => r.item);

  beforeAll(async () => {
    root = await mysql.createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      multipleStatements: true,
    });
    for (const db of [SCRATCH, OTHER]) {
      await root.query(`DROP DATABASE IF EXISTS ${db}`);
      await root.query(`CREATE DATABASE ${db}`);
    }
    await root.query(`CREATE TABLE ${SCRATCH}.orders (id int primary key, item text)`);
    await root.query(`CREATE TABLE ${OTHER}.things (id int primary key)`);
    await root.query(`INSERT INTO ${OTHER}.things VALUES (1), (2), (3)`);
    // A procedure with two result sets: 5 rows, then 7 rows.
    await root.query(
      `CREATE PROCEDURE ${SCRATCH}.two_sets() BEGIN ` +
        `SELECT seq FROM seq_1_to_5; SELECT seq FROM seq_1_to_7; END`,
    );
    await root.query(`CREATE SEQUENCE ${SCRATCH}.ticket`);
    await root.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await root.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${PASSWORD}'`);
    await root.query(`GRANT ALL ON ${SCRATCH}.* TO '${USER}'@'%'`);
    await root.query(`GRANT ALL ON ${OTHER}.* TO '${USER}'@'%'`);
    await root.query(`GRANT PROCESS ON *.* TO '${USER}'@'%'`);

    stack = await startDatabaseStack('mysql', {
      name: 'maria',
      port: 3306,
      username: USER,
      password: PASSWORD,
      databases: `${SCRATCH};${OTHER}`,
    });
    ({ t, admin, erin, port, code, resourceId: dbId, workgroupId } = stack);
  });
  beforeEach(async () => {
    await root.query(`DELETE FROM ${SCRATCH}.orders`);
    await root.query(`INSERT INTO ${SCRATCH}.orders VALUES (1, 'apple'), (2, 'pear')`);
    await setRules({});
  });
  afterAll(async () => {
    await stack?.stop();
    await root?.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
    await root?.query(`DROP DATABASE IF EXISTS ${OTHER}`);
    await root?.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await root?.end();
  });

  // ---- rule evasions ----

  it('refuses a DELETE between versioned comments a server reads some as code and some not', async () => {
    await setRules({ block_pattern: [{ op: 'delete', table: 'orders' }] });
    const client = await connect(code, { multipleStatements: true });
    // MariaDB skips /*!999999 ... */ (a future version) and runs /*!50000 ... */, so it runs
    // DELETE FROM orders. The judge reads every versioned comment as code (then it sees one
    // string literal: a SELECT) or every one as a comment (then it sees nothing).
    const single = "/*!999999 SELECT ' */ /*!50000 DELETE FROM orders */ /*!999999 ' */";
    const batch = "SELECT /*!999999 ' */ 1 /*!50000 ; DELETE FROM orders */ /*!999999 ' */";
    // MariaDB also skips MySQL-5.7-range versions (50700-99999) that the judge reads as code.
    const mysql57 = "/*!50700 SELECT ' */ /*!50000 DELETE FROM orders */ /*!50700 ' */";
    const outcomes: string[] = [];
    for (const attempt of [single, batch, mysql57]) {
      outcomes.push(
        await client.query(attempt).then(
          () => 'ran',
          (err: Error) => err.message,
        ),
      );
    }
    await client.end();
    expect(await count()).toBe(2);
    for (const outcome of outcomes) expect(outcome).toMatch(/Portcullis blocked/);
  });

  it('refuses in approval mode an UPDATE hidden the same way', async () => {
    const approver = await member(t, 'approver@demo.local');
    await setRules({ status: 2, approve_accounts: [approver.id] });
    const client = await connect();
    const outcome = await client
      .query(
        "/*!999999 SELECT ' */ /*!50000 UPDATE orders SET item = UPPER(item) */ /*!999999 ' */",
      )
      .then(
        () => 'ran',
        (err: Error) => err.message,
      );
    await client.end();
    expect(await items()).toEqual(['apple', 'pear']);
    expect(outcome).toMatch(/SQL application|Portcullis blocked/);
  });

  it('refuses a DELETE hidden on a GBK connection by a character whose second byte is a backtick', async () => {
    await setRules({ block_pattern: [{ op: 'delete', table: 'orders' }] });
    const client = await connect(code, { multipleStatements: true, charset: 'GBK_CHINESE_CI' });
    // U+7E1B is 0xBF 0x60 in GBK. MariaDB reads three statements:
    //   SELECT 1 AS `x縛, 2 AS ` ; DELETE FROM orders ; SELECT 3 AS ` FROM t縛z`
    // The judge reads 0xBF as U+FFFD and 0x60 as a backtick, so one statement:
    //   SELECT 1 AS `x�`, 2 AS `; DELETE FROM orders; SELECT 3 AS ` FROM t� `z`
    const gbk = '\u7e1b';
    const text = `SELECT 1 AS \`x${gbk}, 2 AS \`; DELETE FROM orders; SELECT 3 AS \` FROM t${gbk}z\``;
    const outcome = await client.query(text).then(
      () => 'ran',
      (err: Error) => err.message,
    );
    await client.end();
    expect(await count()).toBe(2);
    expect(outcome).toMatch(/Portcullis blocked/);
  });

  it('refuses SET PASSWORD in approval mode (the shared connect account’s password)', async () => {
    const approver = await member(t, 'approver2@demo.local');
    await setRules({ status: 2, approve_accounts: [approver.id] });
    const client = await connect();
    try {
      const outcome = await client.query("SET PASSWORD = PASSWORD('taken-over')").then(
        () => 'ran',
        (err: Error) => err.message,
      );
      await client.end();
      // What the gateway itself now meets when it logs in with the stored credential:
      const next = await connect().then(
        async (c) => {
          await c.end();
          return 'connected';
        },
        (err: Error) => err.message,
      );
      expect(next).toBe('connected');
      expect(outcome).toMatch(/SQL application/);
    } finally {
      await root.query(`SET PASSWORD FOR '${USER}'@'%' = PASSWORD('${PASSWORD}')`);
    }
  });

  it('refuses in approval mode a SELECT that moves a sequence (SETVAL)', async () => {
    const approver = await member(t, 'approver3@demo.local');
    await setRules({ status: 2, approve_accounts: [approver.id] });
    const client = await connect();
    const outcome = await client.query('SELECT SETVAL(ticket, 5000)').then(
      () => 'ran',
      (err: Error) => err.message,
    );
    await client.end();
    const [rows] = (await root.query(`SELECT NEXTVAL(${SCRATCH}.ticket) AS next`)) as [
      { next: number }[],
      unknown,
    ];
    expect(rows[0]?.next).toBeLessThan(5000);
    expect(outcome).toMatch(/SQL application/);
  });

  it('refuses a USE of a database the resource does not offer, behind a comment or without a space', async () => {
    const client = await connect(code, { multipleStatements: true });
    // The plain form is refused, as COM_INIT_DB is:
    // (information_schema: every account may USE it, so only the gateway can refuse it.)
    await expect(client.query('USE information_schema')).rejects.toThrow(/DatabaseNotOffered/);
    const landed: string[] = [];
    for (const attempt of [
      '/* x */ USE information_schema',
      'USE`information_schema`',
      '/*!USE information_schema*/',
    ]) {
      await client.query(`USE ${SCRATCH}`);
      const outcome = await client.query(attempt).then(
        async () => {
          const [[row]] = (await client.query('SELECT DATABASE() AS db')) as [
            { db: string }[],
            unknown,
          ];
          return row!.db;
        },
        (err: Error) => err.message,
      );
      landed.push(outcome);
    }
    await client.end();
    for (const outcome of landed) expect(outcome).toMatch(/DatabaseNotOffered/);
  });

  it('refuses under rules a COM_PROCESS_KILL of a thread id read from the process list (another member’s connection)', async () => {
    // Rules apply: the SQL form (KILL <id>) is refused as unreadable.
    await setRules({ block_pattern: [{ op: 'delete', table: 'orders' }] });
    const victim = await connect();
    const marker = `victim_${SCRATCH}`;
    const slow = victim.query(`SELECT SLEEP(5) AS ${marker}`).then(
      () => 'finished',
      (err: Error) => err.message,
    );
    // Another member, with her own code for the same database.
    const frank = await member(t, 'frank-edges@demo.local');
    await addMembersTo(admin, workgroupId, [frank.id]);
    const made = await frank.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, workgroupId, dbId),
    });
    expect(made.statusCode, made.body).toBe(200);
    const frankCode = made.json().code as string;
    // Frank reads the thread id through the gateway (a plain, readable SELECT) ...
    const spy = await connect(frankCode);
    let threadId: number | undefined;
    await until(async () => {
      const [rows] = (await spy.query(
        `SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE '%AS ${marker}'`,
      )) as [{ id: number }[], unknown];
      threadId = rows[0]?.id;
      return threadId !== undefined;
    });
    await expect(spy.query(`KILL ${threadId}`)).rejects.toThrow(/Portcullis blocked/);
    await spy.end();
    // ... and kills it with the protocol's own command.
    const raw = await rawLogin(port, frankCode);
    expect(raw.ok.payload[0]).toBe(0x00);
    const kill = Buffer.alloc(5);
    kill[0] = 0x0c;
    kill.writeUInt32LE(threadId!, 1);
    raw.socket.write(frame(kill, 0));
    const answer = await raw.reader.next();
    raw.socket.destroy();
    const outcome = await Promise.race([
      slow,
      new Promise<string>((r) => setTimeout(() => r('still running'), 3000)),
    ]);
    victim.on('error', () => undefined);
    await victim.end().catch(() => undefined);
    // Expected: refused (0xff) and the victim's statement untouched.
    expect(answer.payload[0]).toBe(0xff);
    expect(outcome).toBe('still running');
  });

  // ---- the statement log ----

  it('logs a CALL with two result sets before another statement with the rows of each', async () => {
    const client = await connect(code, { multipleStatements: true });
    const [results] = (await client.query('CALL two_sets(); SELECT 42 AS answer')) as [
      unknown[],
      unknown,
    ];
    // The client gets: 5 rows, 7 rows, the CALL's OK, then 1 row.
    expect((results[0] as unknown[]).length).toBe(5);
    expect((results[1] as unknown[]).length).toBe(7);
    expect(results[3]).toEqual([{ answer: 42 }]);
    await client.end();
    const log = await lastLog(2);
    const call = log.find((l) => l.statement === 'CALL two_sets()');
    const select = log.find((l) => l.statement === 'SELECT 42 AS answer');
    expect(select?.rows).toBe(1);
    expect(call?.rows).toBe(12);
  });

  it('logs the statements after a USE in the same batch under its database', async () => {
    const client = await connect(code, { multipleStatements: true });
    await client.query(`USE ${OTHER}; SELECT count(*) AS n FROM things`);
    await client.end();
    const log = await lastLog(2);
    expect(log.find((l) => l.statement === 'SELECT count(*) AS n FROM things')).toMatchObject({
      database: OTHER,
      rows: 1,
    });
  });

  it('keeps the database of a USE that succeeded in a batch whose later statement failed', async () => {
    const client = await connect(code, { multipleStatements: true });
    await expect(client.query(`USE ${OTHER}; SELECT * FROM nowhere`)).rejects.toThrow(/nowhere/);
    const [[row]] = (await client.query('SELECT DATABASE() AS db')) as [{ db: string }[], unknown];
    expect(row!.db).toBe(OTHER); // the server did switch
    await client.end();
    const log = await lastLog(3);
    expect(log.find((l) => l.statement === 'SELECT DATABASE() AS db')?.database).toBe(OTHER);
  });

  // ---- what works ----

  it('relays prepared statements and an error in the middle of a batch, refuses LOCAL INFILE, and the session goes on', async () => {
    await setRules({ block_pattern: [{ op: 'delete', table: 'orders' }] });
    const client = await connect(code, { multipleStatements: true });
    const [rows] = await client.execute('SELECT item FROM orders WHERE id = ?', [1]);
    expect(rows).toEqual([{ item: 'apple' }]);
    const [empty] = await client.execute('SELECT item FROM orders WHERE id = ?', [99]);
    expect(empty).toEqual([]);
    await expect(client.query('SELECT 1; SELECT * FROM nowhere; SELECT 3')).rejects.toThrow(
      /nowhere/,
    );
    await expect(
      client.query(`LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE orders`),
    ).rejects.toThrow();
    const [again] = await client.query('SELECT count(*) AS n FROM orders');
    expect(again).toEqual([{ n: 2 }]);
    await client.end();
    const log = await lastLog(6);
    expect(log.find((l) => l.statement === 'SELECT * FROM nowhere')?.error).toMatch(/nowhere/);
    expect(log.find((l) => l.statement === 'SELECT 3')?.error).toMatch(/not run/);
  });

  it('streams a 60 MB result and relays a 15 MB statement', async () => {
    const client = await connect();
    const [rows] = (await client.query("SELECT REPEAT('x', 1000) AS v FROM seq_1_to_60000")) as [
      { v: string }[],
      unknown,
    ];
    expect(rows.length).toBe(60000);
    const big = 'x'.repeat(15 * 1024 * 1024);
    const [[r]] = (await client.query(`SELECT LENGTH('${big}') AS n`)) as [
      { n: number }[],
      unknown,
    ];
    expect(r!.n).toBe(big.length);
    await client.end();
  });

  it('carries the stock mysql client’s DELIMITER-defined procedure and a CALL (no rules)', async () => {
    const { stdout } = await run('mysql', [
      '-h',
      '127.0.0.1',
      '-P',
      String(port),
      '-u',
      code,
      '-N',
      '-B',
      SCRATCH,
      '-e',
      'DELIMITER //\nCREATE PROCEDURE cli_made() BEGIN SELECT 7; SELECT 8; END//\nDELIMITER ;\nCALL cli_made();',
    ]);
    expect(stdout.trim().split('\n')).toEqual(['7', '8']);
  });

  it('judges a 12 MB INSERT under rules without holding up another session’s SELECT 1', async () => {
    await root.query(`CREATE TABLE IF NOT EXISTS ${SCRATCH}.bulk (id int, item text)`);
    await setRules({ block_pattern: [{ op: 'delete', table: 'orders' }] });
    // The other member's client runs in its own process (the gateway runs in this one): it
    // sends SELECT 1 every 20 ms for 6 s and reports the longest wait.
    const pinger = spawn(
      process.execPath,
      [
        '-e',
        `const mysql = require('mysql2/promise');
        (async () => {
          const c = await mysql.createConnection({ host: '127.0.0.1', port: ${port}, user: '${code}', password: '' });
          console.log('ready');
          let max = 0;
          const end = Date.now() + 6000;
          while (Date.now() < end) {
            const at = Date.now();
            await c.query('SELECT 1');
            max = Math.max(max, Date.now() - at);
            await new Promise((r) => setTimeout(r, 20));
          }
          console.log('max ' + max);
          await c.end();
        })();`,
      ],
      { cwd: process.cwd() },
    );
    let out = '';
    pinger.stdout.on('data', (d: Buffer) => (out += d.toString()));
    pinger.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((r) => pinger.on('exit', () => r()));
    await until(() => out.includes('ready') || out.includes('Error'));
    // A mysqldump-style extended INSERT of about 12 MB (under max_allowed_packet), loaded by
    // the stock mysql client (also in its own process).
    const values = Array.from({ length: 400_000 }, (_, i) => `(${i},'item number ${i}')`);
    const file = path.join(os.tmpdir(), `${SCRATCH}.sql`);
    fs.writeFileSync(file, `INSERT INTO bulk VALUES ${values.join(',')};\n`);
    await new Promise((r) => setTimeout(r, 300));
    try {
      await run('sh', [
        '-c',
        `mysql -h 127.0.0.1 -P ${port} -u ${code} --max-allowed-packet=64M ${SCRATCH} < ${file}`,
      ]);
    } finally {
      fs.rmSync(file, { force: true });
    }
    await exited;
    const max = Number(/max (\d+)/.exec(out)?.[1]);
    expect(out).toMatch(/max \d+/);
    expect(max).toBeLessThan(1000);
  }, 60_000);

  it('relays COM_STMT_SEND_LONG_DATA, a cursor (COM_STMT_EXECUTE with CURSOR_TYPE_READ_ONLY, COM_STMT_FETCH) and COM_STMT_RESET', async () => {
    const raw = await rawLogin(port, code);
    expect(raw.ok.payload[0]).toBe(0x00);
    const send = (payload: Buffer) => raw.socket.write(frame(payload, 0));
    const next = () => raw.reader.next();
    send(
      Buffer.concat([
        Buffer.from([0x16]),
        Buffer.from(`SELECT id FROM ${SCRATCH}.orders WHERE item <> ? ORDER BY id`),
      ]),
    );
    const prepared = (await next()).payload;
    expect(prepared[0]).toBe(0x00);
    const id = prepared.readUInt32LE(1);
    // 1 parameter definition + EOF, 1 column definition + EOF.
    for (let i = 0; i < 4; i++) await next();
    // The parameter's value as long data: 'apple'.
    const longData = Buffer.alloc(7);
    longData[0] = 0x18;
    longData.writeUInt32LE(id, 1);
    longData.writeUInt16LE(0, 5);
    send(Buffer.concat([longData, Buffer.from('apple')]));
    // Execute with a read-only cursor: null bitmap 0, new params bound, type VAR_STRING.
    const execute = Buffer.alloc(14);
    execute[0] = 0x17;
    execute.writeUInt32LE(id, 1);
    execute[5] = 0x01;
    execute.writeUInt32LE(1, 6);
    execute[10] = 0;
    execute[11] = 1;
    execute[12] = 0xfd;
    execute[13] = 0;
    send(execute);
    const head: Buffer[] = [];
    for (let i = 0; i < 3; i++) head.push((await next()).payload);
    expect(head[0]![0]).toBe(1); // one column
    expect(head[2]![0]).toBe(0xfe);
    expect(head[2]!.readUInt16LE(3) & 0x40).toBe(0x40); // SERVER_STATUS_CURSOR_EXISTS
    const fetch = Buffer.alloc(9);
    fetch[0] = 0x1c;
    fetch.writeUInt32LE(id, 1);
    fetch.writeUInt32LE(10, 5);
    send(fetch);
    const fetched: Buffer[] = [];
    for (;;) {
      const p = (await next()).payload;
      fetched.push(p);
      if (p[0] === 0xfe && p.length < 9) break;
    }
    expect(fetched.length).toBe(2); // the one row (pear, id 2) and EOF
    expect(fetched[0]!.readInt32LE(2)).toBe(2);
    const reset = Buffer.alloc(5);
    reset[0] = 0x1a;
    reset.writeUInt32LE(id, 1);
    send(reset);
    expect((await next()).payload[0]).toBe(0x00);
    send(Buffer.from([0x03, ...Buffer.from('SELECT 1')]));
    const answer: number[] = [];
    for (let i = 0; i < 5; i++) answer.push((await next()).payload[0]!);
    expect(answer).toEqual([1, 3, 0xfe, 1, 0xfe]);
    send(Buffer.from([0x01]));
    raw.socket.destroy();
  });

  it('relays a prepared CALL with two result sets (binary protocol, more results)', async () => {
    const client = await connect();
    const [results] = (await client.execute('CALL two_sets()')) as [unknown[], unknown];
    expect((results[0] as unknown[]).length).toBe(5);
    expect((results[1] as unknown[]).length).toBe(7);
    const [rows] = await client.execute('SELECT item FROM orders WHERE id = ?', [2]);
    expect(rows).toEqual([{ item: 'pear' }]);
    await client.end();
  });
});
