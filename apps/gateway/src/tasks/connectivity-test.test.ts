// Connectivity tests against the real peers on loopback: an sshd of this file's own
// (scripts/peers/sshd.mjs), MariaDB at 127.0.0.1:3306 and PostgreSQL at 127.0.0.1:5432.
import crypto from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshd, type SshdPeer } from '../../../../scripts/peers/sshd.mjs';
import type { ConnectivityTarget } from '../control/protocol';
import { freePort, silentServer, sleep, type SilentServer } from '../test/net';
import { firstDatabase, runConnectivityTest } from './connectivity-test';
import { newEd25519Key } from '../ssh-proxy/host-key';

const suffix = crypto.randomBytes(4).toString('hex');
const target = (
  t: Partial<ConnectivityTarget> & Pick<ConnectivityTarget, 'kind' | 'port'>,
): ConnectivityTarget => ({
  host: '127.0.0.1',
  username: '',
  ...t,
});

/** Polls `count` until it answers 0 or `ms` pass; its last answer. */
async function settlesAtZero(count: () => Promise<number>, ms = 3000): Promise<number> {
  let n = await count();
  for (const until = Date.now() + ms; n !== 0 && Date.now() < until; n = await count()) {
    await sleep(50);
  }
  return n;
}

let silent: SilentServer;
let closedPort: number;
beforeAll(async () => {
  silent = await silentServer();
  closedPort = await freePort();
});
afterAll(async () => {
  await silent?.close();
});

describe('ssh (real sshd)', () => {
  let sshd: SshdPeer;
  beforeAll(async () => {
    sshd = await startSshd();
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
  });

  it('logs in with the right password', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: sshd.port, username: sshd.user, password: sshd.password }),
    );
    expect(result).toEqual({ ok: true, reason: '' });
  });

  it('answers auth_failed for a wrong password', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: sshd.port, username: sshd.user, password: 'not-the-password' }),
    );
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
  });

  it('answers auth_failed for a user the server does not let in', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: sshd.port, username: 'root', password: sshd.password }),
    );
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
  });

  it('logs in with the private key', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: sshd.port, username: sshd.user, private_key: sshd.privateKey }),
    );
    expect(result).toEqual({ ok: true, reason: '' });
  });

  it('answers auth_failed for a key that is not authorized', async () => {
    const other = newEd25519Key();
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: sshd.port, username: sshd.user, private_key: other.private }),
    );
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
  });

  it('answers bad_key for text that is not a private key, without dialling', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: sshd.port, username: sshd.user, private_key: 'not a key' }),
    );
    expect(result).toEqual({ ok: false, reason: 'bad_key' });
  });

  it('answers refused for a closed port', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: closedPort, username: sshd.user, password: sshd.password }),
    );
    expect(result).toEqual({ ok: false, reason: 'refused' });
  });

  it('answers timeout when the peer never speaks SSH', async () => {
    const started = Date.now();
    const result = await runConnectivityTest(
      target({ kind: 'ssh', port: silent.port, username: 'u', password: 'p' }),
      { timeoutMs: 800 },
    );
    expect(result).toEqual({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('mysql (real MariaDB)', () => {
  const user = `pc_gw_${suffix}`;
  const password = crypto.randomBytes(12).toString('base64url');
  const database = `pc_gw_db_${suffix}`;
  let root: mysql.Connection;

  beforeAll(async () => {
    root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    await root.query(`CREATE DATABASE \`${database}\``);
    for (const host of ['127.0.0.1', 'localhost']) {
      await root.query(`CREATE USER ?@? IDENTIFIED BY ?`, [user, host, password]);
      await root.query(`GRANT ALL ON \`${database}\`.* TO ?@?`, [user, host]);
    }
  });
  afterAll(async () => {
    if (!root) return;
    for (const host of ['127.0.0.1', 'localhost']) {
      await root.query(`DROP USER IF EXISTS ?@?`, [user, host]);
    }
    await root.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await root.end();
  });

  it('logs in with the right user, password and database', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'mysql', port: 3306, username: user, password, database }),
    );
    expect(result).toEqual({ ok: true, reason: '' });
  });

  it('logs in with a database list or * (tries the first named one, or none)', async () => {
    const list = await runConnectivityTest(
      target({
        kind: 'mysql',
        port: 3306,
        username: user,
        password,
        database: ` ${database} ; other `,
      }),
    );
    const all = await runConnectivityTest(
      target({ kind: 'mysql', port: 3306, username: user, password, database: '*' }),
    );
    expect(list).toEqual({ ok: true, reason: '' });
    expect(all).toEqual({ ok: true, reason: '' });
  });

  it('answers auth_failed for a wrong password', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'mysql', port: 3306, username: user, password: 'wrong-password', database }),
    );
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
  });

  it('answers bad_database for a database that does not exist', async () => {
    // root may use any database, so MariaDB says it does not exist (ER_BAD_DB_ERROR).
    const result = await runConnectivityTest(
      target({ kind: 'mysql', port: 3306, username: 'root', database: `nodb_${suffix}` }),
    );
    expect(result).toEqual({ ok: false, reason: 'bad_database' });
  });

  it('answers auth_failed for a database the account may not use', async () => {
    // ER_DBACCESS_DENIED_ERROR: the account is granted its own database only.
    const result = await runConnectivityTest(
      target({ kind: 'mysql', port: 3306, username: user, password, database: 'mysql' }),
    );
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
  });

  it('leaves no connection open after the login', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'mysql', port: 3306, username: user, password, database }),
    );
    expect(result).toEqual({ ok: true, reason: '' });
    const open = await settlesAtZero(async () => {
      const [rows] = await root.query<mysql.RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ?',
        [user],
      );
      return Number(rows[0]?.n);
    });
    expect(open).toBe(0);
  });

  it('answers refused for a closed port and timeout for a silent one', async () => {
    const refused = await runConnectivityTest(
      target({ kind: 'mysql', port: closedPort, username: user, password }),
    );
    const timeout = await runConnectivityTest(
      target({ kind: 'mysql', port: silent.port, username: user, password }),
      {
        timeoutMs: 800,
      },
    );
    expect(refused).toEqual({ ok: false, reason: 'refused' });
    expect(timeout).toEqual({ ok: false, reason: 'timeout' });
  });
});

describe('postgresql (real PostgreSQL)', () => {
  // The local server uses trust authentication on loopback, so it accepts any password: a wrong
  // password cannot be told apart here (MariaDB covers that case); a missing role and a missing
  // database can.
  const role = `pc_gw_${suffix}`;
  const password = crypto.randomBytes(12).toString('base64url');
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      database: 'postgres',
    });
    await admin.connect();
    await admin.query(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`);
  });
  afterAll(async () => {
    if (!admin) return;
    await admin.query(`DROP ROLE IF EXISTS "${role}"`);
    await admin.end();
  });

  it('logs in (the backend started in the database: ReadyForQuery) and disconnects', async () => {
    const result = await runConnectivityTest(
      target({ kind: 'postgresql', port: 5432, username: role, password, database: 'postgres' }),
    );
    expect(result).toEqual({ ok: true, reason: '' });
    const open = await settlesAtZero(async () => {
      const { rows } = await admin.query<{ n: string }>(
        'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE usename = $1',
        [role],
      );
      return Number(rows[0]?.n);
    });
    expect(open).toBe(0);
  });

  it('without a database listed, tries postgres, which a role without a database of its own reaches', async () => {
    // Clients mostly name their database; the test cannot know which, so it asks for the
    // maintenance database every PostgreSQL has rather than report a usable resource failing.
    const result = await runConnectivityTest(
      target({ kind: 'postgresql', port: 5432, username: role, password }),
    );
    expect(result).toEqual({ ok: true, reason: '' });
  });

  it('answers auth_failed for a role that does not exist', async () => {
    const result = await runConnectivityTest(
      target({
        kind: 'postgresql',
        port: 5432,
        username: `${role}_missing`,
        password,
        database: 'postgres',
      }),
    );
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
  });

  it('answers bad_database for a database that does not exist', async () => {
    const result = await runConnectivityTest(
      target({
        kind: 'postgresql',
        port: 5432,
        username: role,
        password,
        database: `nodb_${suffix}`,
      }),
    );
    expect(result).toEqual({ ok: false, reason: 'bad_database' });
  });

  it('answers refused for a closed port and timeout for a silent one', async () => {
    const refused = await runConnectivityTest(
      target({ kind: 'postgresql', port: closedPort, username: role }),
    );
    const timeout = await runConnectivityTest(
      target({ kind: 'postgresql', port: silent.port, username: role }),
      {
        timeoutMs: 800,
      },
    );
    expect(refused).toEqual({ ok: false, reason: 'refused' });
    expect(timeout).toEqual({ ok: false, reason: 'timeout' });
  });
});

describe('mssql and rdp (TCP reachability only)', () => {
  it.each(['mssql', 'rdp'] as const)(
    '%s: ok when the port accepts, refused when closed',
    async (kind) => {
      expect(
        await runConnectivityTest(
          target({ kind, port: silent.port, username: 'sa', password: 'x' }),
        ),
      ).toEqual({
        ok: true,
        reason: '',
      });
      expect(await runConnectivityTest(target({ kind, port: closedPort }))).toEqual({
        ok: false,
        reason: 'refused',
      });
    },
  );
});

describe('firstDatabase', () => {
  it('takes the first named database of a list; none for * or empty', () => {
    expect(firstDatabase(undefined)).toBeUndefined();
    expect(firstDatabase('')).toBeUndefined();
    expect(firstDatabase('*')).toBeUndefined();
    expect(firstDatabase(' a ; b')).toBe('a');
    expect(firstDatabase(';;b')).toBe('b');
  });
});
