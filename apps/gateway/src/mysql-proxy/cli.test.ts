// The stock `mysql` command-line client (MariaDB's, as installed) through the proxy: plain,
// over TLS with a self-signed certificate, a temporary authorization's password (with no
// option, with and without TLS), and a refusal's text on its standard error.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProxyTls } from '../db-proxy/tls';
import { loadSqlParsers } from '../sql-audit';
import { collectLogs } from '../test/logs';
import { startMysqlProxy, type MysqlProxy } from './server';
import { dropDatabase, fakeSessions, scratchDatabase } from './testing';

const run = promisify(execFile);
let db: string;
let dir: string;
let plain: MysqlProxy;
let secured: MysqlProxy;
const logs = collectLogs();
const fake = fakeSessions({
  clicode: {},
  clitmp: { password: 'pw-for-cli' },
  gone: { refuse: { code: 'TunnelExpire', message: 'The code has expired' } },
  guarded: { policy: { block: [{ op: 'drop' }], notice: [], approval: false } },
});

const mysqlCli = (port: number, user: string, args: string[]) =>
  run('mysql', ['-h', '127.0.0.1', '-P', String(port), '-u', user, '-pX', '--batch', ...args], {
    timeout: 20_000,
  });

beforeAll(async () => {
  await loadSqlParsers();
  db = await scratchDatabase('mysqlcli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-mysql-tls-'));
  // The certificate the gateway makes for itself (db-proxy/tls.ts), under dir/db-tls.
  const tls = await loadProxyTls(dir, logs.logger);
  if (!tls) throw new Error('no certificate for the proxy (is openssl installed?)');
  plain = await startMysqlProxy({
    port: 0,
    host: '127.0.0.1',
    sessions: fake.sessions,
    logger: logs.logger,
  });
  secured = await startMysqlProxy({
    port: 0,
    host: '127.0.0.1',
    sessions: fake.sessions,
    logger: logs.logger,
    tls,
  });
});

afterAll(async () => {
  await plain?.close();
  await secured?.close();
  if (db) await dropDatabase(db);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const relayed = () =>
  logs.records().filter((r) => r.msg === 'mysql session relayed') as { tls?: boolean }[];

describe('mysql proxy with the mysql CLI', () => {
  it('runs a query without TLS', async () => {
    const { stdout } = await mysqlCli(plain.port, 'clicode', [
      '--skip-ssl',
      '-e',
      'select 1+1 as two',
    ]);
    expect(stdout).toBe('two\n2\n');
    expect(relayed().at(-1)?.tls).toBe(false);
  });

  it('runs a query over TLS, and USE switches the logged database', async () => {
    const { stdout } = await mysqlCli(secured.port, 'clicode', [
      '--ssl',
      '-D',
      db,
      '-e',
      `select database() as d; use mysql; select 5 as n`,
    ]);
    expect(stdout).toBe(`d\n${db}\nn\n5\n`);
    expect(relayed().at(-1)?.tls).toBe(true);
    const session = fake.started.filter((s) => s.code === 'clicode').at(-1);
    expect(session?.statements.map((e) => [e.statement, e.database])).toContainEqual([
      'select 5 as n',
      'mysql',
    ]);
  });

  /** The client as a member runs it for a temporary authorization: user, password, a query. */
  const asTemporary = (port: number, password: string, args: string[]) =>
    run(
      'mysql',
      [
        ...['-h', '127.0.0.1', '-P', String(port), ...args],
        ...['-u', 'clitmp', `-p${password}`, '--batch', '-e', 'select 3 as n'],
      ],
      { timeout: 20_000 },
    );
  const failure = (err: { stderr?: string }) => ({ stderr: err.stderr ?? String(err) });
  const passwordsSince = (seen: number) =>
    fake.authorized.slice(seen).map((a) => [a.code, a.password]);
  /** The gateway logged its logins and refusals, and never a temporary password. */
  const expectNoPasswordLogged = () => {
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const secret of ['pw-for-cli', 'not-the-password']) {
      expect(logs.lines.join('\n')).not.toContain(secret);
    }
  };

  it('takes a temporary authorization’s password with no option, without TLS and over TLS', async () => {
    // As the member runs it, with no option (MariaDB's client asks for TLS by default); then
    // without TLS, to a gateway with no certificate at all and to one that has one: the
    // password comes encrypted with the gateway's RSA key; then inside TLS asked for.
    const runs: [MysqlProxy, string[], boolean | undefined][] = [
      [secured, [], undefined],
      [plain, ['--skip-ssl'], false],
      [secured, ['--skip-ssl'], false],
      [secured, ['--ssl'], true],
    ];
    for (const [proxy, args, tls] of runs) {
      const { stdout } = await asTemporary(proxy.port, 'pw-for-cli', args);
      expect(stdout).toMatch(/(^|\n)n\n3\n$/);
      if (tls !== undefined) expect(relayed().at(-1)?.tls).toBe(tls);
    }
    // MariaDB's client with its default TLS setting, to a gateway that offers no TLS, goes on
    // without it yet sends the password in clear (it trusts its setting, not the connection):
    // refused, and the password is not used.
    const seen = fake.authorized.length;
    const refused = await asTemporary(plain.port, 'pw-for-cli', []).catch(failure);
    expect(refused.stderr).toMatch(/ERROR 1045 \(28000\): Portcullis: .*\(TlsRequired\)/);
    expect(passwordsSince(seen)).toEqual([['clitmp', undefined]]);
    // A client set to begin with caching_sha2_password: MariaDB's sends no reply to a nonce
    // made for another plugin, and is switched like the others.
    for (const tlsArg of ['--skip-ssl', '--ssl']) {
      const { stdout } = await asTemporary(secured.port, 'pw-for-cli', [
        tlsArg,
        '--default-auth=caching_sha2_password',
      ]);
      expect(stdout).toMatch(/(^|\n)n\n3\n$/);
    }
    expectNoPasswordLogged();
  });

  it('refuses a wrong temporary password with PasswordError, with and without TLS', async () => {
    for (const args of [['--skip-ssl'], ['--ssl']]) {
      const seen = fake.authorized.length;
      const refused = await asTemporary(secured.port, 'not-the-password', args).catch(failure);
      expect(refused.stderr).toMatch(
        /ERROR 1045 \(28000\): Portcullis: Incorrect team ID, account or password \(PasswordError\)/,
      );
      expect(passwordsSince(seen)).toEqual([
        ['clitmp', undefined],
        ['clitmp', 'not-the-password'],
      ]);
    }
    expectNoPasswordLogged();
  });

  it('takes mysql_clear_password when the client chooses it, over TLS only', async () => {
    const clear = '--default-auth=mysql_clear_password';
    const { stdout } = await asTemporary(secured.port, 'pw-for-cli', ['--ssl', clear]);
    expect(stdout).toMatch(/(^|\n)n\n3\n$/);
    // Without TLS the password already crossed the network; it is not used.
    const seen = fake.authorized.length;
    const refused = await asTemporary(secured.port, 'pw-for-cli', ['--skip-ssl', clear]).catch(
      failure,
    );
    expect(refused.stderr).toMatch(
      /ERROR 1045 \(28000\): Portcullis: A temporary authorization needs TLS for its password; connect with TLS \(--ssl or --ssl-mode=REQUIRED\) \(TlsRequired\)/,
    );
    expect(passwordsSince(seen)).toEqual([['clitmp', undefined]]);
    expectNoPasswordLogged();
  });

  it('prints a refusal and a blocked statement', async () => {
    const refused = await mysqlCli(plain.port, 'gone', ['--skip-ssl', '-e', 'select 1']).catch(
      (err: { stderr: string }) => err,
    );
    expect('stderr' in refused && refused.stderr).toMatch(
      /ERROR 1045 \(28000\): Portcullis: The code has expired \(TunnelExpire\)/,
    );
    const blocked = await mysqlCli(plain.port, 'guarded', [
      '--skip-ssl',
      '-e',
      `drop database ${db}`,
    ]).catch((err: { stderr: string }) => err);
    expect('stderr' in blocked && blocked.stderr).toMatch(/ERROR 1142 \(42000\).*blocked/);
  });
});
