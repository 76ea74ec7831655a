/**
 * A resource's `tls` on the gateway's own login to MySQL. The shared MariaDB at 127.0.0.1:3306
 * has no TLS: `require` and `verify` must refuse it. Servers with TLS are scripted
 * (test/tls-databases.ts) with certificates made here (test/certs.ts), so each case chooses
 * the CA and the name; they take any login and record what the gateway sent.
 */
import type { TLSSocket } from 'node:tls';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import type { DbTls } from '../control/protocol';
import { silentLogger } from '../core/logger';
import type { TestPki } from '../test/certs';
import { sleep } from '../test/net';
import { scriptedMysql } from '../test/tls-databases';
import { NOT_OFFERED, scriptedServers, verifyCases } from '../test/target-tls-cases';
import { startMysqlProxy } from './server';
import { loginTarget, TargetLoginError } from './target-auth';
import { fakeSessions, MARIADB } from './testing';

const servers = scriptedServers(scriptedMysql);
const { scripted } = servers;
const pki = (): TestPki => servers.pki();

const login = (port: number, tls: DbTls | undefined, username = 'app', password = 'secret') =>
  loginTarget({
    target: { host: '127.0.0.1', port, username, password, ...(tls && { tls }) },
    clientCaps: 0,
    maxPacket: 0,
    collation: 45,
    database: '',
  });

/** The refusal's text (not the database refusing the credential), or a failure. */
async function refusal(attempt: ReturnType<typeof login>): Promise<string> {
  const outcome = await attempt.then(
    (done) => {
      done.socket.destroy();
      return undefined;
    },
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(TargetLoginError);
  expect((outcome as TargetLoginError).refused).toBe(false);
  return (outcome as TargetLoginError).message;
}

describe("a resource's TLS towards MySQL", () => {
  it.each<DbTls['mode']>(['require', 'verify'])(
    'refuses the loopback MariaDB (no TLS) under %s',
    async (mode) => {
      expect(await refusal(login(MARIADB.port, { mode }, MARIADB.user, MARIADB.password))).toBe(
        NOT_OFFERED,
      );
    },
  );

  it('sends no login to a database whose greeting offers no TLS under require', async () => {
    const db = await scripted();
    expect(await refusal(login(db.port, { mode: 'require' }))).toBe(NOT_OFFERED);
    await sleep(50);
    expect(db.seen).toEqual([]);
  });

  verifyCases({
    servers,
    login,
    refusal,
    loggedIn: ['ssl request', 'login app in tls'],
    firstStep: 'the login',
  });

  it('logs in under require to a self-signed certificate, unverified, inside TLS', async () => {
    const db = await scripted(pki().selfSigned('IP:127.0.0.1'));
    const done = await login(db.port, { mode: 'require' });
    expect((done.socket as TLSSocket).encrypted).toBe(true);
    expect(db.seen).toEqual(['ssl request', 'login app in tls']);
    done.socket.destroy();
  });

  it('tells the member through the proxy why the resource refused', async () => {
    const { sessions } = fakeSessions({ strict: { target: { tls: { mode: 'require' } } } });
    const proxy = await startMysqlProxy({
      port: 0,
      host: '127.0.0.1',
      sessions,
      logger: silentLogger,
    });
    try {
      await expect(
        mysql.createConnection({ host: '127.0.0.1', port: proxy.port, user: 'strict' }),
      ).rejects.toThrow(`InvalidResource: The resource refused: ${NOT_OFFERED}`);
    } finally {
      await proxy.close();
    }
  });
});
