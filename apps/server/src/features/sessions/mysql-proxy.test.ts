/**
 * The MySQL proxy end to end: the real server resolves the member's code, the real gateway
 * (startGateway with its database proxies on free loopback ports) logs in to the real MariaDB
 * at 127.0.0.1:3306 as the resource's connect account, and the stock `mysql` client and the
 * `mysql2` driver are the clients. Rules are set through the API as an administrator would.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatError, type ErrorCode } from '@portcullis/contract';
import type { TestApp, TestClient } from '../../test/harness';
import {
  addMembersTo,
  addLinux,
  addResourcesTo,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import {
  alarmsOf,
  sessionsOf,
  setRules as setDatabaseRules,
  startDatabaseStack,
  statementLog as downloadStatementLog,
  until,
  type DatabaseStack,
} from './database-test-kit';

const run = promisify(execFile);

const SCRATCH = `portcullis_myproxy_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
const USER = `${SCRATCH}_app`.slice(0, 32);
const PASSWORD = 'My#Proxy-Secret9';

describe('the MySQL proxy with a real gateway and MariaDB', () => {
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let stack: DatabaseStack;
  let port: number;
  let dbId: number;
  let clusterId: number;
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
  /** The stock mysql client's arguments to reach the gateway as the member's code. */
  const mysqlAsCode = () => ['-h', '127.0.0.1', '-P', String(port), '-u', code];
  const connections = () => sessionsOf(t, erin.id, 'mysql');
  const statementLog = (connectionId: number) => downloadStatementLog(erin.client, connectionId);
  const count = async () =>
    (
      (await root.query(`SELECT count(*) AS n FROM ${SCRATCH}.orders`)) as [
        { n: number }[],
        unknown,
      ]
    )[0][0]!.n;

  beforeAll(async () => {
    root = await mysql.createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
    });
    await root.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
    await root.query(`CREATE DATABASE ${SCRATCH}`);
    await root.query(`CREATE TABLE ${SCRATCH}.orders (id int primary key, item text)`);
    await root.query(`INSERT INTO ${SCRATCH}.orders VALUES (1, 'apple'), (2, 'pear')`);
    await root.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await root.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${PASSWORD}'`);
    await root.query(`GRANT ALL ON ${SCRATCH}.* TO '${USER}'@'%'`);

    stack = await startDatabaseStack('mysql', {
      name: 'maria',
      port: 3306,
      username: USER,
      password: PASSWORD,
      databases: SCRATCH,
    });
    ({ t, admin, erin, port, code, resourceId: dbId, clusterId, workgroupId } = stack);
  });
  afterAll(async () => {
    await stack?.stop();
    await root?.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
    await root?.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await root?.end();
  });

  it('the mysql client connects by code as the connect account; online, then logged statement by statement', async () => {
    const { stdout } = await run('mysql', [
      ...mysqlAsCode(),
      '-N',
      '-B',
      SCRATCH,
      '-e',
      'SELECT item FROM orders ORDER BY id; SELECT current_user()',
    ]);
    expect(stdout.trim().split('\n')).toEqual(['apple', 'pear', `${USER}@%`]);
    const [row] = await connections();
    expect(row).toMatchObject({ way: 'mysql', client_ip: '127.0.0.1' });
    await until(async () => (await connections())[0]?.ended_at !== null);
    const log = await statementLog(row!.id);
    const texts = log.map((l) => l.statement);
    expect(texts).toContain('SELECT item FROM orders ORDER BY id');
    expect(log.find((l) => l.statement === 'SELECT item FROM orders ORDER BY id')).toMatchObject({
      rows: 2,
      database: SCRATCH,
    });
  });

  it('mysql2: prepared statements, a multi-statement batch, errors, and a transaction', async () => {
    const client = await connect(code, { multipleStatements: true });
    const [rows] = await client.execute('SELECT item FROM orders WHERE id = ?', [2]);
    expect(rows).toEqual([{ item: 'pear' }]);
    const [results] = await client.query('SELECT 1 AS a; SELECT 2 AS b');
    expect(results).toEqual([[{ a: 1 }], [{ b: 2 }]]);
    await expect(client.query('SELECT * FROM nowhere')).rejects.toThrow(/nowhere/);
    await client.beginTransaction();
    await client.query("INSERT INTO orders VALUES (3, 'plum')");
    await client.rollback();
    expect(await count()).toBe(2);
    await client.end();
    const [row] = await connections();
    await until(async () => (await connections())[0]?.ended_at !== null);
    const log = await statementLog(row!.id);
    expect(log.find((l) => l.statement.includes('WHERE id = ?'))).toMatchObject({ rows: 1 });
    expect(log.find((l) => l.statement.includes('nowhere'))?.error).toMatch(/nowhere/);
    expect(log.map((l) => l.statement)).toEqual(
      expect.arrayContaining(['SELECT 1 AS a', 'SELECT 2 AS b']),
    );
  });

  it('a Ctrl-C’s KILL QUERY through a second connection stops the member’s own statement, not another’s', async () => {
    const greetedId = (c: mysql.Connection) => (c as unknown as { threadId: number }).threadId;
    const sleeper = await connect();
    const slow = sleeper.query('SELECT SLEEP(30) AS s').then(
      ([rows]) => rows,
      (err: Error) => err,
    );
    // Another member of the workgroup, with her own code, cannot stop it by its id.
    const frank = await member(t, 'frank@demo.local');
    await addMembersTo(admin, workgroupId, [frank.id]);
    const made = await frank.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, workgroupId, dbId),
    });
    expect(made.statusCode, made.body).toBe(200);
    const other = await connect(made.json().code as string);
    await expect(other.query(`KILL QUERY ${greetedId(sleeper)}`)).rejects.toThrow(
      /Unknown thread id/,
    );
    await other.end();
    // The mysql client's Ctrl-C: a second connection with the same code, KILL QUERY <its id>.
    const killer = await connect();
    const at = Date.now();
    await killer.query(`KILL QUERY ${greetedId(sleeper)}`);
    const result = await slow;
    expect(Date.now() - at).toBeLessThan(5000);
    // MariaDB ends an interrupted SLEEP with 1, or with "Query execution was interrupted".
    if (result instanceof Error) expect(result.message).toMatch(/interrupted/);
    else expect(result).toEqual([{ s: 1 }]);
    expect((await sleeper.query('SELECT 1 AS one'))[0]).toEqual([{ one: 1 }]);
    await Promise.all([sleeper.end(), killer.end()]);
  });

  it('the stock mysql client’s Ctrl-C stops its statement on MariaDB through the gateway', async () => {
    const client = spawn('mysql', [...mysqlAsCode(), SCRATCH, '-e', 'SELECT SLEEP(30)']);
    let output = '';
    client.stdout.on('data', (d: Buffer) => (output += d.toString()));
    client.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((resolve) => client.on('exit', () => resolve()));
    await until(async () => (await connections()).some((c) => c.ended_at === null));
    await new Promise((r) => setTimeout(r, 300));
    const at = Date.now();
    client.kill('SIGINT');
    await exited;
    expect(Date.now() - at).toBeLessThan(5000);
    expect(output).toMatch(/Ctrl-C -- query killed/);
    expect(output).toMatch(/Query execution was interrupted/);
    await until(async () => (await connections()).every((c) => c.ended_at !== null));
    const [killer, sleeper] = await connections();
    const killed = await statementLog(killer!.id);
    expect(killed.map((l) => l.statement)).toEqual([expect.stringMatching(/^KILL QUERY \d+$/)]);
    expect(killed[0]!.error).toBeUndefined();
    expect((await statementLog(sleeper!.id)).map((l) => l.statement)).toContain('SELECT SLEEP(30)');
  });

  it('refuses a wrong code and a database the resource does not offer, with the protocol’s error', async () => {
    await expect(connect('nocode-1234')).rejects.toThrow(/TunnelNotFound/);
    await expect(connect(code, { database: 'mysql' })).rejects.toThrow(/DatabaseNotOffered/);
  });

  it('refuses an expired code, a client address the code does not allow, and a server’s code, each with its ERR packet', async () => {
    /** The ERR packet mysql2 shows for a refusal with this catalogue code. */
    const refusedWith = (errorCode: ErrorCode) => ({
      errno: 1045,
      sqlState: '28000',
      message: `Portcullis: ${formatError(errorCode, 'en_US')} (${errorCode})`,
    });
    const row = await t.ctx.db
      .selectFrom('tunnel')
      .selectAll()
      .where('account_id', '=', erin.id)
      .executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('tunnel').set({ expire_time: 1 }).where('id', '=', row.id).execute();
    await expect(connect()).rejects.toMatchObject(refusedWith('TunnelExpire'));
    await t.ctx.db
      .updateTable('tunnel')
      .set({ expire_time: row.expire_time, allow_ip: '10.1.2.3' })
      .where('id', '=', row.id)
      .execute();
    await expect(connect()).rejects.toMatchObject(refusedWith('IPNotInWhiteList'));
    // The stock client prints the same packet.
    const cli = await run('mysql', [...mysqlAsCode(), SCRATCH, '-e', 'SELECT 1']).catch(
      (err: { stderr: string }) => err,
    );
    expect('stderr' in cli && cli.stderr).toContain(
      `ERROR 1045 (28000): Portcullis: ${formatError('IPNotInWhiteList', 'en_US')} (IPNotInWhiteList)`,
    );
    await t.ctx.db
      .updateTable('tunnel')
      .set({ allow_ip: row.allow_ip })
      .where('id', '=', row.id)
      .execute();
    // A Linux server's code on the MySQL port.
    const server = await addLinux(admin, clusterId, 'a-server', '127.0.0.1');
    await addResourcesTo(admin, workgroupId, [server]);
    const serverCode = await erin.client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, workgroupId, server),
    });
    expect(serverCode.statusCode, serverCode.body).toBe(200);
    await expect(connect(serverCode.json().code as string)).rejects.toMatchObject(
      refusedWith('WrongResourceKind'),
    );
    // The code itself works again.
    const client = await connect();
    expect((await client.query('SELECT 1 AS one'))[0]).toEqual([{ one: 1 }]);
    await client.end();
  });

  it('block rules: the statement never reaches MariaDB, whatever hides it; the session goes on', async () => {
    await setRules({ block_pattern: [{ op: 'delete', table: 'orders' }] });
    const client = await connect(code, { multipleStatements: true });
    for (const attempt of [
      'DELETE FROM orders',
      '/* hi */ dElEtE FROM `orders` WHERE id = 1',
      `DELETE FROM ${SCRATCH}.orders`,
      'SELECT 1; DELETE FROM orders',
      '/*!50000 DELETE FROM orders */',
    ]) {
      await expect(client.query(attempt), attempt).rejects.toThrow(/Portcullis blocked/);
    }
    await expect(client.execute('DELETE FROM orders WHERE id = ?', [1])).rejects.toThrow(
      /Portcullis blocked/,
    );
    expect(await count()).toBe(2);
    const [rows] = await client.query('SELECT count(*) AS n FROM orders');
    expect(rows).toEqual([{ n: 2 }]);
    await client.end();
    await setRules({});
    const alarms = await alarmsOf(t, { way: 'mysql' }, 5);
    expect(alarms.length).toBeGreaterThanOrEqual(5);
    expect(alarms[0]).toMatchObject({ event: 'intercept', account: 'erin@demo.local' });
  });

  it('approval mode refuses changes and lets reads through; a cut from the console ends the session within a second', async () => {
    const approver = await member(t, 'approver@demo.local');
    await setRules({ status: 2, approve_accounts: [approver.id] });
    const client = await connect();
    await expect(client.query("UPDATE orders SET item = 'x'")).rejects.toThrow(/SQL application/);
    const [rows] = await client.query('SELECT count(*) AS n FROM orders');
    expect(rows).toEqual([{ n: 2 }]);
    const [row] = await connections();
    client.on('error', () => undefined);
    const at = Date.now();
    const cut = await admin.delete(`/api/tunnel_connection/${row!.id}`);
    expect(cut.statusCode, cut.body).toBe(200);
    // The connection is gone: the next query fails instead of answering.
    await until(
      () =>
        client.query('SELECT 1').then(
          () => false,
          () => true,
        ),
      2000,
    );
    expect(Date.now() - at).toBeLessThan(1000);
    await setRules({});
  });

  it('keeps an open session on the rules it started with, unless the save disconnects it', async () => {
    const open = await connect();
    // The gateway's error packet with the reason may come before any query (an error event).
    const told: unknown[] = [];
    open.on('error', (error) => told.push(error));
    const security = async () =>
      (await admin.get(`/api/v1/resource/${dbId}/security`)).json() as { online: number };
    await until(async () => (await security()).online === 1, 2000);
    // Saved without disconnecting: the open session goes on under its old rules (none).
    await setRules({ block_pattern: [{ op: 'select', table: 'orders' }] });
    const [rows] = await open.query('SELECT count(*) AS n FROM orders');
    expect(rows).toEqual([{ n: 2 }]);
    // Saved with cut_sessions: the open session ends, told why, within a second.
    const at = Date.now();
    await setRules({ block_pattern: [{ op: 'select', table: 'orders' }], cut_sessions: true });
    let failure: unknown;
    await until(
      () =>
        open.query('SELECT 1').then(
          () => false,
          (error: unknown) => {
            failure = error;
            return true;
          },
        ),
      2000,
    );
    // Within about a second of the save (the save itself is a transaction and a cut per session).
    expect(Date.now() - at).toBeLessThan(2000);
    // The member's client says why (the gateway's error packet carries the reason).
    expect([failure, ...told].map(String).join('\n')).toMatch(
      /security rules changed: connect again/,
    );
    expect((await security()).online).toBe(0);
    // The next session works under the new rules.
    const next = await connect();
    await expect(next.query('SELECT count(*) FROM orders')).rejects.toThrow(/Portcullis blocked/);
    await next.end();
    await setRules({});
  });

  it('masks password literals in the statement log, in the statement and the error it got', async () => {
    const client = await connect(code, { multipleStatements: true });
    // The connect account (made by this test) sets its own password to what it is already.
    await client.query(`SET PASSWORD = PASSWORD('${PASSWORD}'); SELECT 1`);
    // MariaDB reads a bare '…' here as the hash, so the password goes in PASSWORD("…").
    await client.query(`set password for current_user() = /* same */ password("${PASSWORD}")`);
    // Refused (no CREATE USER privilege) and a syntax error that quotes the text back: both
    // are logged with the error the server gave.
    const other = `${SCRATCH}_other`.slice(0, 32);
    await expect(
      client.query(`ALTER USER '${other}'@'%' IDENTIFIED BY '${PASSWORD}'`),
    ).rejects.toThrow(/denied/);
    await expect(
      client.query(`ALTER USERR '${other}'@'%' IDENTIFIED BY '${PASSWORD}'`),
    ).rejects.toThrow(/syntax/);
    await client.end();
    const [row] = await connections();
    await until(async () => (await connections())[0]?.ended_at !== null);
    const log = await downloadStatementLog(erin.client, row!.id, 5);
    expect(JSON.stringify(log)).not.toContain(PASSWORD);
    expect(log.map((l) => l.statement)).toEqual([
      "SET PASSWORD = PASSWORD('********')",
      'SELECT 1',
      "set password for current_user() = /* same */ password('********')",
      `ALTER USER '${other}'@'%' IDENTIFIED BY '********'`,
      `ALTER USERR '${other}'@'%' IDENTIFIED BY '********'`,
    ]);
    expect(log[4]!.error).toMatch(/syntax.*'\*{8}'/);
  });

  it('masks password literals in alarm rows (and so in notice mails), let through or blocked', async () => {
    const before = (await alarmsOf(t, { way: 'mysql' })).length;
    await setRules({
      block_pattern: [{ op: 'select', table: 'orders' }],
      notice_pattern: [{ op: 'select' }],
      notice_status: 1,
      notice_accounts: [erin.id],
    });
    const client = await connect();
    await client.query(`SELECT PASSWORD('${PASSWORD}') AS hash`);
    await expect(
      client.query(`SELECT item FROM orders WHERE PASSWORD('${PASSWORD}') <> ''`),
    ).rejects.toThrow(/Portcullis blocked/);
    await client.end();
    await setRules({});
    const alarms = await alarmsOf(t, { way: 'mysql' }, before + 2);
    expect(alarms.map((a) => [a.event, a.command])).toEqual(
      expect.arrayContaining([
        ['notice', "SELECT PASSWORD('********') AS hash"],
        ['intercept', "SELECT item FROM orders WHERE PASSWORD('********') <> ''"],
      ]),
    );
    expect(JSON.stringify(alarms)).not.toContain(PASSWORD);
    const [row] = await connections();
    await until(async () => (await connections())[0]?.ended_at !== null);
    expect(JSON.stringify(await downloadStatementLog(erin.client, row!.id, 2))).not.toContain(
      PASSWORD,
    );
  });
});
