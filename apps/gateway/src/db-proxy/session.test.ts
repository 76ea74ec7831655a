/**
 * What authorize() hands a proxy from the server's answer: the target, with the resource's
 * TLS setting. A stand-in answers resolve() only; nothing here starts a session.
 */
import type { ResolvedCode, SessionCredential } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import type { SessionControlApi } from '../control/session-requests';
import { silentLogger } from '../core/logger';
import { createDbSessions } from './session';

/** DbSessions whose server answers every code with `credential`. */
function sessionsAnswering(credential: SessionCredential) {
  const resolved = {
    tunnel_id: 1,
    resource: { id: 1, name: 'db', os: 'postgresql', databases: [] },
  } as unknown as ResolvedCode; // only resource.os and .databases are read
  const control = {
    resolve: () => Promise.resolve({ ok: true, resolved, grant: 'g', credential }),
  } as unknown as SessionControlApi; // authorize() calls resolve() alone
  return createDbSessions({
    control,
    logger: silentLogger,
    dataDir: '/nonexistent',
    recordings: {} as Parameters<typeof createDbSessions>[0]['recordings'], // unused here
  });
}

const login = { code: 'c', clientIp: '127.0.0.1' };
const credential = { host: 'db.example', port: 5432, username: 'app', password: 'pw' };

describe('the target a database session is given', () => {
  it("carries the resource's TLS setting, CA included", async () => {
    const tls = { mode: 'verify' as const, ca: '-----BEGIN CERTIFICATE-----' };
    const outcome = await sessionsAnswering({ ...credential, tls }).authorize('postgresql', login);
    expect(outcome.ok && outcome.target).toEqual({ ...credential, tls });
  });

  it('has no TLS setting when the resource has none (prefer)', async () => {
    const outcome = await sessionsAnswering(credential).authorize('postgresql', login);
    expect(outcome.ok && outcome.target).toEqual(credential);
  });
});
