/**
 * The gateway's login to a MariaDB that offers TLS: a throwaway server (mariadb-install-db and
 * mariadbd as the mysql user, on a free loopback port, a self-signed certificate) with an
 * account that may log in only over TLS (REQUIRE SSL). The shared MariaDB at :3306 has no TLS
 * and covers the plain path.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import { loadProxyTls } from '../db-proxy/tls';
import { loadSqlParsers } from '../sql-audit';
import { freePort } from '../test/net';
import { frame, LoginReader } from './packets';
import { startMysqlProxy } from './server';
import { loginTarget, TargetLoginError } from './target-auth';
import { fakeSessions } from './testing';

const PASSWORD = 'Tls#Only5';

describe('logging in to a MariaDB that offers TLS', () => {
  let dir: string;
  let port: number;
  let server: ChildProcess | undefined;
  const socketFile = () => path.join(dir, 'mysqld.sock');
  const asRoot = (sql: string): string =>
    execFileSync('mariadb', ['--no-defaults', '-S', socketFile(), '-u', 'root', '-N', '-e', sql], {
      stdio: 'pipe',
    }).toString();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-mariadb-tls-'));
    fs.chmodSync(dir, 0o755);
    // The certificate the gateway makes for its own clients (db-tls/key.pem, cert.pem).
    await loadProxyTls(dir, silentLogger);
    execFileSync('chown', ['-R', 'mysql', dir]);
    execFileSync(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${path.join(dir, 'data')}`,
        '--user=mysql',
        '--auth-root-authentication-method=socket',
        '--skip-test-db',
      ],
      { stdio: 'pipe', timeout: 60_000 },
    );
    port = await freePort();
    server = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${path.join(dir, 'data')}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${socketFile()}`,
        '--user=mysql',
        `--ssl-cert=${path.join(dir, 'db-tls', 'cert.pem')}`,
        `--ssl-key=${path.join(dir, 'db-tls', 'key.pem')}`,
        '--skip-log-bin',
        '--innodb-buffer-pool-size=16M',
        `--log-error=${path.join(dir, 'error.log')}`,
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 150; i++) {
      try {
        if (asRoot('SELECT @@have_ssl').trim() === 'YES') break;
      } catch {
        // not up yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    asRoot(
      `CREATE USER tls_user@'127.0.0.1' IDENTIFIED BY '${PASSWORD}' REQUIRE SSL; ` +
        `GRANT SELECT ON mysql.* TO tls_user@'127.0.0.1'`,
    );
  }, 120_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const login = (password: string) =>
    loginTarget({
      target: { host: '127.0.0.1', port, username: 'tls_user', password },
      clientCaps: 0,
      maxPacket: 0,
      collation: 45,
      database: 'mysql',
    });

  it('logs in inside TLS (the account is refused without it) and queries over it', async () => {
    const done = await login(PASSWORD);
    expect(done.socket).toBeInstanceOf(tls.TLSSocket);
    // COM_QUERY over the same connection: the server says which cipher carries it.
    const reader = new LoginReader(done.socket);
    done.socket.write(frame(Buffer.from("\x03SHOW STATUS LIKE 'Ssl_cipher'", 'latin1'), 0));
    const packets: Buffer[] = [];
    for (let i = 0; i < 6; i++) packets.push((await reader.next()).payload);
    expect(Buffer.concat(packets).toString('latin1')).toMatch(/TLS_AES|ECDHE/);
    reader.detach();
    done.socket.destroy();
  });

  it('relays a member’s session through the proxy to it, logged statement by statement', async () => {
    await loadSqlParsers();
    const { sessions, started } = fakeSessions({
      tlscode: {
        target: { host: '127.0.0.1', port, username: 'tls_user', password: PASSWORD },
      },
    });
    const proxy = await startMysqlProxy({
      port: 0,
      host: '127.0.0.1',
      sessions,
      logger: silentLogger,
    });
    try {
      const conn = await mysql.createConnection({
        host: '127.0.0.1',
        port: proxy.port,
        user: 'tlscode',
        password: '',
        database: 'mysql',
      });
      const [cipher] = await conn.query<mysql.RowDataPacket[]>("SHOW STATUS LIKE 'Ssl_cipher'");
      expect(cipher[0]?.Value).toMatch(/TLS_AES|ECDHE/);
      // A result of many packets, read back whole.
      const [rows] = await conn.query<mysql.RowDataPacket[]>(
        'SELECT seq, REPEAT("x", 300) AS pad FROM seq_1_to_5000',
      );
      expect(rows).toHaveLength(5000);
      expect(rows.at(-1)?.seq).toBe(5000);
      await conn.end();
      expect(started[0]?.statements.map((s) => s.statement)).toEqual([
        "SHOW STATUS LIKE 'Ssl_cipher'",
        'SELECT seq, REPEAT("x", 300) AS pad FROM seq_1_to_5000',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('says why a wrong password is refused, over TLS too', async () => {
    const refused = await login('wrong').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TargetLoginError);
    expect((refused as TargetLoginError).refused).toBe(true);
    expect((refused as Error).message).toMatch(/Access denied/);
  });
});
