/**
 * The gateway's own login to PostgreSQL by every password method a server may ask for:
 * a throwaway cluster (initdb as the postgres user, on a free loopback port) whose pg_hba.conf
 * asks one role for a cleartext password, one for MD5 and the rest for SCRAM-SHA-256. The
 * shared PostgreSQL at :5432 trusts loopback and so asks for none.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/net';
import { loginToTarget, TargetRefused } from './target-login';

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
    fs.writeFileSync(
      path.join(data, 'pg_hba.conf'),
      [
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
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
    const sql = [
      `CREATE ROLE clear_user LOGIN PASSWORD '${PASSWORD}'`,
      `CREATE ROLE scram_user LOGIN PASSWORD '${PASSWORD}'`,
      `CREATE ROLE scram_unusual LOGIN PASSWORD '${UNUSUAL_PASSWORD}'`,
      "SET password_encryption = 'md5'",
      `CREATE ROLE md5_user LOGIN PASSWORD '${PASSWORD}'`,
    ];
    for (const statement of sql) {
      execFileSync(
        'runuser',
        [
          '-u',
          'postgres',
          '--',
          'psql',
          '-h',
          dir,
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          'postgres',
          '-c',
          statement,
        ],
        { stdio: 'pipe' },
      );
    }
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
});
