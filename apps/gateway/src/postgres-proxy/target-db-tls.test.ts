/**
 * A resource's `tls` on the gateway's own login to PostgreSQL. The shared PostgreSQL at
 * 127.0.0.1:5432 has no TLS: `require` and `verify` must refuse it. Servers with TLS are
 * scripted (test/tls-databases.ts) with certificates made here (test/certs.ts), so each case
 * chooses the CA and the name; they take any password and record what the gateway sent.
 */
import pg from 'pg';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import type { DbTls } from '../control/protocol';
import { fakeSessions } from '../mysql-proxy/testing';
import { loadSqlParsers } from '../sql-audit';
import type { TestPki } from '../test/certs';
import { collectLogs } from '../test/logs';
import { sleep } from '../test/net';
import { scriptedPostgres } from '../test/tls-databases';
import { NOT_ACCEPTED, NOT_OFFERED, scriptedServers, verifyCases } from '../test/target-tls-cases';
import { startPostgresProxy, type PostgresProxy } from './server';
import { loginToTarget, TargetRefused } from './target-login';

const servers = scriptedServers(scriptedPostgres);
const { scripted } = servers;
const pki = (): TestPki => servers.pki();

const login = (port: number, tls: DbTls | undefined, username = 'app', password = 'secret') =>
  loginToTarget({
    host: '127.0.0.1',
    port,
    username,
    password,
    parameters: new Map([['database', 'postgres']]),
    ...(tls && { tls }),
  });

/** The refusal's text, or a failure when the login went through. */
async function refusal(attempt: ReturnType<typeof login>): Promise<string> {
  const outcome = await attempt.then(
    (done) => {
      done.socket.destroy();
      return undefined;
    },
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(TargetRefused);
  return (outcome as TargetRefused).message;
}

describe("a resource's TLS towards PostgreSQL", () => {
  it.each<DbTls['mode']>(['require', 'verify'])(
    'refuses the loopback PostgreSQL (no TLS) under %s',
    async (mode) => {
      expect(await refusal(login(5432, { mode }, 'postgres', ''))).toBe(NOT_OFFERED);
    },
  );

  it('logs in to the loopback PostgreSQL (no TLS) without a setting, as before', async () => {
    const done = await login(5432, undefined, 'postgres', '');
    expect(String.fromCharCode(done.status)).toBe('I');
    done.socket.destroy();
  });

  it('sends nothing but the SSLRequest to a database declining TLS under require', async () => {
    const db = await scripted();
    expect(await refusal(login(db.port, { mode: 'require' }))).toBe(NOT_OFFERED);
    await sleep(50);
    expect(db.seen).toEqual(['ssl request']);
  });

  verifyCases({
    servers,
    login,
    refusal,
    loggedIn: ['ssl request', 'startup app in tls', 'password secret in tls'],
    firstStep: 'the start-up',
  });

  it("refuses under verify without a CA a certificate Node's own CAs do not sign", async () => {
    const db = await scripted(pki().selfSigned('IP:127.0.0.1'));
    const why = await refusal(login(db.port, { mode: 'verify' }));
    expect(why).toBe(`${NOT_ACCEPTED} (self-signed certificate)`);
    await sleep(50);
    expect(db.seen).toEqual(['ssl request']);
  });

  it('logs in under require to a self-signed certificate, unverified, inside TLS', async () => {
    const db = await scripted(pki().selfSigned('IP:127.0.0.1'));
    const done = await login(db.port, { mode: 'require' });
    expect((done.socket as TLSSocket).encrypted).toBe(true);
    expect(db.seen).toEqual(['ssl request', 'startup app in tls', 'password secret in tls']);
    done.socket.destroy();
  });
});

describe('a kept target connection and the TLS setting', () => {
  let proxy: PostgresProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('is never handed to a session whose resource now says verify', async () => {
    await loadSqlParsers();
    const logs = collectLogs();
    const target: { host: string; port: number; username: string; password: string; tls?: DbTls } =
      { host: '127.0.0.1', port: 5432, username: 'postgres', password: '' };
    const { sessions } = fakeSessions({ pooled: { target } });
    proxy = await startPostgresProxy({
      port: 0,
      host: '127.0.0.1',
      sessions,
      logger: logs.logger,
    });
    // Names this test's backends: other test files use the same PostgreSQL at once.
    const application = `pc-tls-pool-${process.pid}`;
    const session = async (): Promise<number> => {
      const client = new pg.Client({
        host: '127.0.0.1',
        port: proxy!.port,
        user: 'pooled',
        database: 'postgres',
        application_name: application,
      });
      await client.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.end();
      return rows[0]!.pid;
    };
    const first = await session();
    // Kept: reset (DISCARD ALL, its last statement), idle, and then parked by the gateway.
    const direct = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres' });
    await direct.connect();
    try {
      await expect
        .poll(async () => {
          const { rows } = await direct.query(
            "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'idle' AND query = 'DISCARD ALL'",
            [first],
          );
          return rows.length;
        })
        .toBe(1);
    } finally {
      await direct.end();
    }
    await sleep(100);

    target.tls = { mode: 'verify' };
    const refused = await session().catch((err: Error) => err.message);
    // The member is told why: the gateway's own words (the database's stay in its log).
    expect(refused).toBe(`Portcullis: InvalidResource: The resource refused: ${NOT_OFFERED}`);
    const failed = logs.records().find((r) => r.msg === 'postgresql target login failed');
    expect(failed?.reason).toBe(NOT_OFFERED);

    // The kept connection was there all along: the same login without `tls` still takes it.
    delete target.tls;
    expect(await session()).toBe(first);
  });
});
