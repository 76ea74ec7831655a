import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createTestApp,
  solveCaptcha,
  TEAM,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { totpAt, totpStep } from '../../lib/totp';
import { nowSeconds } from '../../lib/time';

/** A second secret, never the one the account bound. */
const OTHER_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function codes(secret: string) {
  const s = totpStep(nowSeconds());
  return {
    previous: totpAt(secret, s - 1),
    current: totpAt(secret, s),
    next: totpAt(secret, s + 1),
    old: totpAt(secret, s - 5),
  };
}

describe('virtual MFA', () => {
  let t: TestApp;
  let c: TestClient;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp();
    await addMember(t, 'otp@demo.local', 0);
    c = t.client();
    await c.login(TEAM, 'otp@demo.local', 'Member#Pass1');
  });
  afterAll(() => t.close());

  it('offers a pending secret for manual entry and as a 150 px QR code, sealed at rest', async () => {
    const res = await c.get('/api/mfa/secret');
    expect(res.statusCode).toBe(200);
    secret = res.json().secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await c.get('/api/mfa/secret')).json().secret).toBe(secret);
    const img = await c.get('/api/mfa/img');
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(img.rawPayload.readUInt32BE(16)).toBe(150);
    const row = await t.ctx.db
      .selectFrom('account')
      .select('otp_pending_secret')
      .where('account', '=', 'otp@demo.local')
      .executeTakeFirstOrThrow();
    expect(row.otp_pending_secret).not.toContain(secret);
  });

  it('refuses codes that are wrong, not consecutive, or too old', async () => {
    const k = codes(secret);
    for (const [first, second] of [
      ['000000', '000000'],
      [k.current, k.previous],
      [k.old, k.old],
    ]) {
      const res = await c.post('/api/account/mfa', {
        first_code: first,
        second_code: second,
        otp_enabled: 1,
      });
      expect(res.json().code).toBe('MfaCodeError');
    }
    const malformed = await c.post('/api/account/mfa', {
      first_code: '12345',
      second_code: 'abcdef',
      otp_enabled: 1,
    });
    expect(malformed.json()).toMatchObject({ code: 'InvalidParameter', field: 'first_code' });
    expect((await c.get('/api/current_account')).json().otp_enabled).toBe(false);
  });

  it('binds with two consecutive codes', async () => {
    const k = codes(secret);
    const res = await c.post('/api/account/mfa', {
      first_code: k.previous,
      second_code: k.current,
      otp_enabled: 1,
    });
    expect(res.statusCode).toBe(200);
    expect((await c.get('/api/current_account')).json().otp_enabled).toBe(true);
  });

  it('binds no other secret over a bound one: that takes unbinding, with two of its codes', async () => {
    // The review's way in: a new secret, bound with its own codes, replaced the old one
    // without the old one's codes (and in a team that requires MFA, where unbinding is refused).
    const pending = await c.get('/api/mfa/secret');
    expect(pending.json().code).toBe('MfaAlreadyBound');
    expect((await c.get('/api/mfa/img')).json().code).toBe('MfaAlreadyBound');
    await t.ctx.db
      .updateTable('account')
      .set({ otp_pending_secret: t.ctx.sealer.seal(OTHER_SECRET) })
      .where('account', '=', 'otp@demo.local')
      .execute();
    const k = codes(OTHER_SECRET);
    const rebind = await c.post('/api/account/mfa', {
      first_code: k.previous,
      second_code: k.current,
      otp_enabled: 1,
    });
    expect(rebind.statusCode).toBe(409);
    expect(rebind.json().code).toBe('MfaAlreadyBound');
    const row = await t.ctx.db
      .selectFrom('account')
      .select(['otp_enabled', 'otp_secret'])
      .where('account', '=', 'otp@demo.local')
      .executeTakeFirstOrThrow();
    expect(row.otp_enabled).toBe(1);
    expect(t.ctx.sealer.open(row.otp_secret!)).toBe(secret);
    await t.ctx.db
      .updateTable('account')
      .set({ otp_pending_secret: null })
      .where('account', '=', 'otp@demo.local')
      .execute();
  });

  it('asks for the code at the next login and lets nothing else through until it is given', async () => {
    const d = t.client();
    const res = await d.login(TEAM, 'otp@demo.local', 'Member#Pass1');
    expect(res.json()).toMatchObject({ otp_enabled: true });
    expect((await d.get('/api/current_account')).json().code).toBe('NeedMfaLogin');
    expect((await d.post('/api/auth/mfa', { code: '000000' })).json().code).toBe('MfaCodeError');
    // The step already used to bind cannot be replayed.
    expect((await d.post('/api/auth/mfa', { code: codes(secret).current })).json().code).toBe(
      'MfaCodeError',
    );
    const ok = await d.post('/api/auth/mfa', { code: codes(secret).next });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ otp_enabled: false, op: '' });
    expect((await d.get('/api/current_account')).statusCode).toBe(200);
    // And that code is now spent too.
    const e = t.client();
    await e.login(TEAM, 'otp@demo.local', 'Member#Pass1');
    expect((await e.post('/api/auth/mfa', { code: codes(secret).next })).json().code).toBe(
      'MfaCodeError',
    );
  });

  it('counts wrong codes toward the account lockout', async () => {
    await addMember(t, 'otp2@demo.local', 0);
    const m = t.client();
    await m.login(TEAM, 'otp2@demo.local', 'Member#Pass1');
    const s = (await m.get('/api/mfa/secret')).json().secret as string;
    const k = codes(s);
    await m.post('/api/account/mfa', {
      first_code: k.previous,
      second_code: k.current,
      otp_enabled: 1,
    });
    const n = t.client();
    await n.login(TEAM, 'otp2@demo.local', 'Member#Pass1');
    let last;
    for (let i = 0; i < 10; i++) last = await n.post('/api/auth/mfa', { code: '000000' });
    expect(last?.json().code).toBe('AccountLocked');
  });

  it('closes the MFA with two consecutive codes of the bound secret, but not in a company-MFA team', async () => {
    const e = t.client();
    // Earlier wrong codes count as failed sign-ins, so a captcha is asked for now.
    const signIn = await e.login(TEAM, 'otp@demo.local', 'Member#Pass1', await solveCaptcha(t, e));
    expect(signIn.json().otp_enabled).toBe(true);
    await t.ctx.db
      .updateTable('account')
      .set({ otp_last_step: totpStep(nowSeconds()) - 2 })
      .where('account', '=', 'otp@demo.local')
      .execute();
    const k = codes(secret);
    expect((await e.post('/api/auth/mfa', { code: k.previous })).statusCode).toBe(200);

    await t.ctx.db.updateTable('company').set({ company_mfa: 1 }).execute();
    const refused = await e.post('/api/account/mfa', {
      first_code: k.current,
      second_code: k.next,
      otp_enabled: 0,
    });
    expect(refused.statusCode).toBe(403);
    await t.ctx.db.updateTable('company').set({ company_mfa: 0 }).execute();

    const closed = await e.post('/api/account/mfa', {
      first_code: k.current,
      second_code: k.next,
      otp_enabled: 0,
    });
    expect(closed.statusCode).toBe(200);
    expect((await e.get('/api/current_account')).json().otp_enabled).toBe(false);
    const f = t.client();
    expect(
      (await f.login(TEAM, 'otp@demo.local', 'Member#Pass1', await solveCaptcha(t, f))).json()
        .otp_enabled,
    ).toBe(false);
  });

  it('binding from the company-MFA gate opens the full session', async () => {
    await t.ctx.db.updateTable('company').set({ company_mfa: 1 }).execute();
    await addMember(t, 'gate@demo.local', 0);
    const g = t.client();
    expect((await g.login(TEAM, 'gate@demo.local', 'Member#Pass1')).json().company_mfa).toBe(true);
    const s = (await g.get('/api/mfa/secret')).json().secret as string;
    const k = codes(s);
    expect(
      (
        await g.post('/api/account/mfa', {
          first_code: k.previous,
          second_code: k.current,
          otp_enabled: 1,
        })
      ).statusCode,
    ).toBe(200);
    expect((await g.get('/api/account_pubkey')).statusCode).toBe(200);
    await t.ctx.db.updateTable('company').set({ company_mfa: 0 }).execute();
  });

  it('never logs a secret or a code', () => {
    expect(t.logs()).not.toContain(secret);
    expect(t.logs()).not.toMatch(/"(code|first_code|second_code)":"\d{6}"/);
  });
});
