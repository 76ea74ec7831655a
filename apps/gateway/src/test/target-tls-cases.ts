/**
 * The cases of a resource's TLS towards the database that read alike for MySQL and
 * PostgreSQL (mysql-proxy and postgres-proxy target-db-tls.test.ts): each protocol's file
 * gives its scripted server, its login and what a login inside TLS looks like to the server,
 * and adds its own cases. Test-only.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { DbTls } from '../control/protocol';
import { makeTestPki, type TestCert, type TestPki } from './certs';
import { sleep } from './net';
import type { ScriptedDb } from './tls-databases';

export const NOT_OFFERED = 'the database does not offer TLS, which the resource requires';
export const NOT_ACCEPTED = "the database's TLS certificate was not accepted";

/** The test PKI (made once per file) and scripted servers closed after each test. */
export function scriptedServers(start: (cert?: TestCert) => Promise<ScriptedDb>): {
  pki: () => TestPki;
  scripted: (cert?: TestCert) => Promise<ScriptedDb>;
} {
  let pki: TestPki | undefined;
  beforeAll(() => {
    pki = makeTestPki();
  });
  const open: ScriptedDb[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  return {
    pki: () => pki!,
    scripted: async (cert) => {
      const db = await start(cert);
      open.push(db);
      return db;
    },
  };
}

export interface TargetTlsProtocol {
  servers: ReturnType<typeof scriptedServers>;
  login(port: number, tls: DbTls): Promise<{ socket: Socket }>;
  /** The refusal's text, or a failure when the login went through. */
  refusal(attempt: Promise<{ socket: Socket }>): Promise<string>;
  /** What the scripted server saw of a login that went through inside TLS. */
  loggedIn: string[];
  /** What the login's first step is called in the titles ('the login', 'the start-up'). */
  firstStep: string;
}

/** verify: the CA named and the address dialled must both hold, checked before any login. */
export function verifyCases(p: TargetTlsProtocol): void {
  const { pki, scripted } = p.servers;
  it('logs in under verify to a certificate of the CA named, for the address dialled', async () => {
    const db = await scripted(pki().leaf('IP:127.0.0.1'));
    const done = await p.login(db.port, { mode: 'verify', ca: pki().ca });
    // Node checked the chain and the name (unverified, `authorized` stays false).
    expect((done.socket as TLSSocket).authorized).toBe(true);
    expect(db.seen).toEqual(p.loggedIn);
    done.socket.destroy();
  });

  it(`refuses under verify a certificate of another CA, before ${p.firstStep}`, async () => {
    const db = await scripted(pki().leaf('IP:127.0.0.1'));
    const why = await p.refusal(p.login(db.port, { mode: 'verify', ca: pki().otherCa }));
    expect(why).toBe(`${NOT_ACCEPTED} (unable to verify the first certificate)`);
    await sleep(50);
    expect(db.seen).toEqual(['ssl request']);
  });

  it('refuses under verify a certificate of the right CA for another name', async () => {
    const db = await scripted(pki().leaf('DNS:elsewhere.example'));
    const why = await p.refusal(p.login(db.port, { mode: 'verify', ca: pki().ca }));
    expect(why).toMatch(
      /^the database's TLS certificate was not accepted \(Hostname\/IP does not match/,
    );
    await sleep(50);
    expect(db.seen).toEqual(['ssl request']);
  });
}
