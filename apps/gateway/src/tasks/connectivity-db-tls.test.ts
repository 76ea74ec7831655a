/**
 * A database's `tls` in the connectivity test: the real MariaDB (127.0.0.1:3306) and
 * PostgreSQL (127.0.0.1:5432) have no TLS, so require and verify answer tls_failed there;
 * servers with TLS are scripted (test/tls-databases.ts) with certificates made here.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectivityTarget, DbTls } from '../control/protocol';
import { makeTestPki, type TestCert, type TestPki } from '../test/certs';
import { scriptedMysql, scriptedPostgres, type ScriptedDb } from '../test/tls-databases';
import { runConnectivityTest } from './connectivity-test';

type Kind = 'mysql' | 'postgresql';
const LOOPBACK: Record<Kind, { port: number; username: string }> = {
  mysql: { port: 3306, username: 'root' },
  postgresql: { port: 5432, username: 'postgres' },
};
const SCRIPTED: Record<Kind, (cert?: TestCert) => Promise<ScriptedDb>> = {
  mysql: scriptedMysql,
  postgresql: scriptedPostgres,
};
const KINDS: Kind[] = ['mysql', 'postgresql'];

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki();
});

const open: ScriptedDb[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.close();
});

const target = (kind: Kind, port: number, username: string, tls?: DbTls): ConnectivityTarget => ({
  kind,
  host: '127.0.0.1',
  port,
  username,
  password: '',
  ...(tls && { tls }),
});

/** A scripted database of `kind` with `cert`, and a test of it as `app`. */
async function testScripted(kind: Kind, cert: TestCert, tls: DbTls) {
  const db = await SCRIPTED[kind](cert);
  open.push(db);
  const result = await runConnectivityTest(target(kind, db.port, 'app', tls), { timeoutMs: 5000 });
  return { result, seen: db.seen };
}

describe.each(KINDS)('the connectivity test of %s with a TLS setting', (kind) => {
  const { port, username } = LOOPBACK[kind];

  it.each<DbTls['mode']>(['require', 'verify'])(
    'answers tls_failed under %s for the loopback database (no TLS)',
    async (mode) => {
      const result = await runConnectivityTest(target(kind, port, username, { mode }));
      expect(result).toEqual({ ok: false, reason: 'tls_failed' });
    },
  );

  it('answers ok for the loopback database without a setting (prefer), as before', async () => {
    const result = await runConnectivityTest(target(kind, port, username));
    expect(result).toEqual({ ok: true, reason: '' });
  });

  it('logs in under verify to a certificate of the CA named, inside TLS', async () => {
    const { result, seen } = await testScripted(kind, pki.leaf('IP:127.0.0.1'), {
      mode: 'verify',
      ca: pki.ca,
    });
    expect(result).toEqual({ ok: true, reason: '' });
    expect(seen[0]).toBe('ssl request');
    expect(seen[1]).toMatch(/^(login|startup) app in tls$/);
  });

  it.each<[string, () => TestCert, () => string | undefined]>([
    ['another CA', () => pki.leaf('IP:127.0.0.1'), () => pki.otherCa],
    ['another name', () => pki.leaf('DNS:elsewhere.example'), () => pki.ca],
    ['no CA of Node', () => pki.selfSigned('IP:127.0.0.1'), () => undefined],
  ])('answers tls_failed under verify for a certificate of %s', async (_case, cert, ca) => {
    const authority = ca();
    const { result, seen } = await testScripted(kind, cert(), {
      mode: 'verify',
      ...(authority !== undefined && { ca: authority }),
    });
    expect(result).toEqual({ ok: false, reason: 'tls_failed' });
    expect(seen).toEqual(['ssl request']);
  });

  it('logs in under require to a self-signed certificate, unverified', async () => {
    const { result, seen } = await testScripted(kind, pki.selfSigned('IP:127.0.0.1'), {
      mode: 'require',
    });
    expect(result).toEqual({ ok: true, reason: '' });
    expect(seen[1]).toMatch(/ in tls$/);
  });
});
