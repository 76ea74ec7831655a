// The stock `mysql` command-line client (MariaDB's, as installed) through the proxy: plain,
// over TLS with a self-signed certificate, a temporary authorization's cleartext password, and
// a refusal's text on its standard error.
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

  // MariaDB's client says the option is obsolete (it always allows cleartext); MySQL's needs it.
  it('takes a temporary authorization password with --enable-cleartext-plugin', async () => {
    const { stdout } = await run(
      'mysql',
      [
        '-h',
        '127.0.0.1',
        '-P',
        String(secured.port),
        '--ssl',
        '--enable-cleartext-plugin',
        '-u',
        'clitmp',
        '-ppw-for-cli',
        '--batch',
        '-e',
        'select 3 as n',
      ],
      { timeout: 20_000 },
    );
    expect(stdout).toMatch(/(^|\n)n\n3\n$/);
  });

  it('refuses a temporary authorization without TLS, before its password is sent', async () => {
    const seen = fake.authorized.length;
    const refused = await mysqlCli(secured.port, 'clitmp', [
      '--skip-ssl',
      '--enable-cleartext-plugin',
      '-e',
      'select 3 as n',
    ]).catch((err: { stderr: string }) => err);
    expect('stderr' in refused && refused.stderr).toMatch(
      /ERROR 1045 \(28000\): Portcullis: A temporary authorization needs TLS for its password; connect with TLS \(--ssl or --ssl-mode=REQUIRED\) \(TlsRequired\)/,
    );
    // Asked once, without a password: the client was never switched to send it.
    expect(fake.authorized.slice(seen).map((a) => [a.code, a.password])).toEqual([
      ['clitmp', undefined],
    ]);
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
