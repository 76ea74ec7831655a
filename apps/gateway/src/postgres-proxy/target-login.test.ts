/**
 * The gateway's own login to PostgreSQL by every password method a server may ask for:
 * a throwaway cluster (initdb as the postgres user, on a free loopback port, TLS on with a
 * self-signed certificate) whose pg_hba.conf asks one role for a cleartext password, one for
 * MD5 and the rest for SCRAM-SHA-256, and lets one role in only over TLS. The shared
 * PostgreSQL at :5432 trusts loopback, asks for no password and has no TLS (the plain path).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import { loadProxyTls } from '../db-proxy/tls';
// The MySQL proxy's stand-in for the server answers any database proxy's questions.
import { fakeSessions } from '../mysql-proxy/testing';
import { loadSqlParsers } from '../sql-audit';
import { freePort } from '../test/net';
import { serveScripted } from '../test/tls-databases';
import { startPostgresProxy } from './server';
import { loginToTarget, TargetRefused, TargetTlsFailed } from './target-login';

const BIN = fs.existsSync('/usr/lib/postgresql')
  ? path.join(
      '/usr/lib/postgresql',
      fs.readdirSync('/usr/lib/postgresql').sort().pop() ?? '15',
      'bin',
    )
  : '';
const PASSWORD = 'Target#Secret5';
/** A soft hyphen and a no-break space: PostgreSQL's SASLprep drops the one, spaces the other. */
const UNUSUAL_PASSWORD = 'Tar\u00adget\u00a0Secret\u2168';

describe('logging in to the target PostgreSQL', () => {
  let dir: string;
  let port: number;
  const asPostgres = (cmd: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, cmd), ...args], {
      stdio: 'pipe',
      timeout: 60_000,
    });

  /** psql as the cluster's superuser over its socket folder; what it printed. */
  const psqlAsSuperuser = (args: string[]): string => {
    const connect = ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres'];
    const argv = ['-u', 'postgres', '--', 'psql', ...connect, ...args];
    return execFileSync('runuser', argv, { stdio: 'pipe' }).toString();
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-pg-auth-'));
    fs.chmodSync(dir, 0o755);
    const data = path.join(dir, 'data');
    fs.writeFileSync(path.join(dir, 'pw'), `${PASSWORD}\n`);
    execFileSync('chown', ['-R', 'postgres', dir]);
    asPostgres('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'scram-sha-256',
      `--pwfile=${path.join(dir, 'pw')}`,
    ]);
    // A self-signed certificate: the gateway does not verify it (no CA names it), but the
    // bytes on the wire are encrypted all the same.
    const made = (await loadProxyTls(dir, silentLogger))!;
    fs.writeFileSync(path.join(data, 'server.key'), made.key);
    fs.writeFileSync(path.join(data, 'server.crt'), made.cert);
    fs.chmodSync(path.join(data, 'server.key'), 0o600);
    execFileSync('chown', [
      'postgres',
      path.join(data, 'server.key'),
      path.join(data, 'server.crt'),
    ]);
    fs.writeFileSync(
      path.join(data, 'pg_hba.conf'),
      [
        // A cleartext password that only ever travels inside TLS.
        'hostnossl all tls_only_user 127.0.0.1/32 reject',
        'hostssl all tls_only_user 127.0.0.1/32 password',
        'host all clear_user 127.0.0.1/32 password',
        'host all md5_user 127.0.0.1/32 md5',
        'host all all 127.0.0.1/32 scram-sha-256',
        'local all postgres trust',
        '',
      ].join('\n'),
    );
    port = await freePort();
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      path.join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c ssl=on`,
      'start',
    ]);
    const sql = [
      `CREATE ROLE clear_user LOGIN PASSWORD '${PASSWORD}'`,
      `CREATE ROLE tls_only_user LOGIN PASSWORD '${PASSWORD}'`,
      `CREATE ROLE scram_user LOGIN PASSWORD '${PASSWORD}'`,
      `CREATE ROLE scram_unusual LOGIN PASSWORD '${UNUSUAL_PASSWORD}'`,
      "SET password_encryption = 'md5'",
      `CREATE ROLE md5_user LOGIN PASSWORD '${PASSWORD}'`,
    ];
    for (const statement of sql) psqlAsSuperuser(['-c', statement]);
  }, 120_000);
  afterAll(() => {
    try {
      asPostgres('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const login = (username: string, password = PASSWORD) =>
    loginToTarget({
      host: '127.0.0.1',
      port,
      username,
      password,
      parameters: new Map([['database', 'postgres']]),
    });

  for (const user of ['clear_user', 'md5_user', 'scram_user']) {
    it(`logs in when the server asks ${user.split('_')[0]} and hands back the server's parameters`, async () => {
      const done = await login(user);
      expect(done.backendKey?.pid).toBeGreaterThan(0);
      expect(done.parameterStatus.length).toBeGreaterThan(3);
      expect(String.fromCharCode(done.status)).toBe('I');
      done.socket.destroy();
    });
    it(`says why when the password is wrong (${user})`, async () => {
      const refused = await login(user, 'wrong').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TargetRefused);
      expect((refused as TargetRefused).sqlState).toBe('28P01');
    });
  }

  it('prepares a non-ASCII password for SCRAM as PostgreSQL does (SASLprep)', async () => {
    const done = await login('scram_unusual', UNUSUAL_PASSWORD);
    expect(String.fromCharCode(done.status)).toBe('I');
    done.socket.destroy();
  });

  /** Whether the server's backend `pid` talks TLS, as pg_stat_ssl says. */
  const backendUsesTls = (pid: number): string =>
    psqlAsSuperuser(['-Atc', `SELECT ssl FROM pg_stat_ssl WHERE pid = ${pid}`]).trim();

  it('logs in over TLS when the server offers it, so a cleartext password is not on the wire', async () => {
    // The role's pg_hba.conf line refuses it without TLS: this login proves TLS was used.
    const done = await login('tls_only_user');
    expect(String.fromCharCode(done.status)).toBe('I');
    expect(backendUsesTls(done.backendKey!.pid)).toBe('t');
    // Queries go over the same TLS connection.
    const query = Buffer.from('SELECT 42\0');
    const length = Buffer.alloc(4);
    length.writeInt32BE(query.length + 4, 0);
    done.socket.write(Buffer.concat([Buffer.from('Q'), length, query]));
    let answer = Buffer.alloc(0);
    await new Promise<void>((resolve) => {
      const read = (chunk: Buffer) => {
        answer = Buffer.concat([answer, chunk]);
        // ReadyForQuery ends the answer.
        if (answer.includes(Buffer.from([0x5a, 0, 0, 0, 5]))) {
          done.socket.off('data', read);
          resolve();
        }
      };
      done.socket.on('data', read);
    });
    expect(answer.includes(Buffer.from('42'))).toBe(true);
    done.socket.destroy();
  });

  it('relays a member’s session through the proxy to it over TLS, kept connection too', async () => {
    await loadSqlParsers();
    const { sessions, started } = fakeSessions({
      tlscode: {
        target: { host: '127.0.0.1', port, username: 'tls_only_user', password: PASSWORD },
      },
    });
    const proxy = await startPostgresProxy({
      port: 0,
      host: '127.0.0.1',
      sessions,
      logger: silentLogger,
    });
    try {
      // Twice: the second session takes the connection the first one left (DISCARD ALL).
      for (let round = 0; round < 2; round++) {
        const client = new pg.Client({
          host: '127.0.0.1',
          port: proxy.port,
          user: 'tlscode',
          database: 'postgres',
          ssl: false,
        });
        await client.connect();
        const tls = await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
        expect(tls.rows).toEqual([{ ssl: true }]);
        const many = await client.query(
          "SELECT g, repeat('x', 300) AS pad FROM generate_series(1, 5000) g",
        );
        expect(many.rows).toHaveLength(5000);
        await client.end();
      }
      expect(started.map((s) => s.statements.length)).toEqual([2, 2]);
    } finally {
      await proxy.close();
    }
  });

  it('passes on the error a server answers the TLS request with (its text and SQLSTATE)', async () => {
    // A postmaster out of connection slots answers an SSLRequest with an ErrorResponse, sent in
    // two pieces here; the proxy needs its SQLSTATE (53300) to tell a full server from others.
    const fields = Buffer.from('SFATAL\0C53300\0Msorry, too many clients already\0\0');
    const length = Buffer.alloc(4);
    length.writeInt32BE(fields.length + 4, 0);
    const error = Buffer.concat([Buffer.from('E'), length, fields]);
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write(error.subarray(0, 7));
        setTimeout(() => socket.end(error.subarray(7)), 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const refused = await loginToTarget({
        host: '127.0.0.1',
        port: (server.address() as net.AddressInfo).port,
        username: 'x',
        password: 'y',
        parameters: new Map(),
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TargetRefused);
      expect((refused as TargetRefused).message).toBe('sorry, too many clients already');
      expect((refused as TargetRefused).sqlState).toBe('53300');
    } finally {
      server.close();
    }
  });

  it('says so when the database cannot be reached', async () => {
    const closed = await freePort();
    const refused = await loginToTarget({
      host: '127.0.0.1',
      port: closed,
      username: 'x',
      password: 'y',
      parameters: new Map(),
    }).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/cannot be reached \(ECONNREFUSED\)/);
  });

  it('says TLS failed (not that the database cannot be reached) when its handshake fails', async () => {
    // 'S' to the SSLRequest, then plain bytes where the ServerHello should be.
    const db = await serveScripted((socket) => {
      socket.once('data', () => {
        socket.write('S');
        socket.once('data', () => socket.write('this is not TLS\r\n'));
      });
    });
    try {
      const failed = await loginToTarget({
        host: '127.0.0.1',
        port: db.port,
        username: 'x',
        password: 'y',
        parameters: new Map(),
      }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(TargetTlsFailed);
      expect((failed as Error).message).toMatch(/^TLS with the database failed \(/);
    } finally {
      await db.close();
    }
  });
});
