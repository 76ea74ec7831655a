/**
 * The team's settings tab and plan panel (spec 2 §2 Team page tabs, §5 team settings), and
 * that each setting is enforced, not only stored: whitelists on login and on every call, the
 * session hold time, company MFA, the 90-day rule and the password strength level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  addMember,
  createTestApp,
  signedIn,
  TEAM,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';

const VALID = {
  full_name: 'Demo Ltd',
  contact_name: 'Ann Admin',
  contact_phone: '13800138000',
  contact_address: '1 Main Street',
  ip_whitelist: '',
  admin_whitelist: '',
  session_expire_time: 30,
  company_mfa: 0,
  reset_password: 0,
  password_strength: 1,
};

describe('team settings', () => {
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
  });
  afterAll(() => t.close());

  /** Sets the team's settings through the API, as the administrator. */
  async function settle(change: Partial<typeof VALID> = {}) {
    const res = await admin.patch('/api/current_company', { ...VALID, ...change });
    if (res.statusCode !== 200) throw new Error(`settings: ${res.body}`);
    return res.json();
  }

  async function sessionExpiry(c: TestClient): Promise<number> {
    const row = await t.ctx.db
      .selectFrom('session')
      .select('expires_at')
      .where('id', '=', sha256Hex(c.cookies.get('pc_session')!))
      .executeTakeFirstOrThrow();
    return row.expires_at;
  }

  it('answers the settings of a new team', async () => {
    const res = await admin.get('/api/v1/company/settings');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({
      full_name: TEAM,
      contact_name: 'Administrator',
      contact_phone: '',
      ip_whitelist: '',
      admin_whitelist: '',
      session_expire_time: 30,
      company_mfa: false,
      reset_password: false,
      password_strength: 1,
      binding_admin: { account: ADMIN_EMAIL },
      ee_work_space_id: '',
      ee_work_space_name: '',
    });
    expect(s.domain_token).toMatch(/^\S{16,}$/);
  });

  it('changes every field, trimmed, whitelists stored normalised', async () => {
    const res = await admin.patch('/api/current_company', {
      full_name: ' Demo Holdings ',
      contact_name: ' Bea ',
      contact_phone: ' 15912345678 ',
      contact_address: ' 2 High Street ',
      ip_whitelist: '127.0.0.*, 10.1.2.3',
      admin_whitelist: ' 127.0.0.1 ,192.168.*.* ',
      session_expire_time: 480,
      company_mfa: 1,
      reset_password: 1,
      password_strength: 2,
    });
    expect(res.statusCode).toBe(200);
    const expected = {
      full_name: 'Demo Holdings',
      contact_name: 'Bea',
      contact_phone: '15912345678',
      contact_address: '2 High Street',
      ip_whitelist: '127.0.0.*,10.1.2.3',
      admin_whitelist: '127.0.0.1,192.168.*.*',
      session_expire_time: 480,
      company_mfa: true,
      reset_password: true,
      password_strength: 2,
    };
    expect(res.json()).toMatchObject(expected);
    expect((await admin.get('/api/v1/company/settings')).json()).toMatchObject(expected);
    // The team name shows on the account too.
    expect((await admin.get('/api/current_account')).json().company.full_name).toBe(
      'Demo Holdings',
    );
    await settle();
  });

  it('refuses each bad value with InvalidParameter naming the field, and changes nothing', async () => {
    await settle();
    const before = (await admin.get('/api/v1/company/settings')).json();
    const bad: [keyof typeof VALID, unknown][] = [
      ['full_name', ''],
      ['contact_name', '   '],
      ['contact_address', ''],
      ['contact_phone', '12345678901'],
      ['contact_phone', '1380013800'],
      ['contact_phone', '138001380001'],
      ['contact_phone', '+8613800138000'],
      ['contact_phone', ''],
      ['ip_whitelist', '10.0.0.0/8'],
      ['ip_whitelist', '256.1.1.1'],
      ['ip_whitelist', '10.0.0'],
      ['ip_whitelist', '10.0.0.1;10.0.0.2'],
      ['ip_whitelist', '10.0.0.1,'],
      ['ip_whitelist', '*'],
      ['ip_whitelist', '::1'],
      ['admin_whitelist', '192.168.0.0/16'],
      ['admin_whitelist', 'localhost'],
      ['session_expire_time', 29],
      ['session_expire_time', 481],
      ['session_expire_time', 45.5],
      ['session_expire_time', '60'],
      ['password_strength', 3],
      ['password_strength', -1],
      ['company_mfa', 2],
      ['reset_password', true],
    ];
    for (const [field, value] of bad) {
      const res = await admin.patch('/api/current_company', { ...VALID, [field]: value });
      expect(res.statusCode, `${field}=${String(value)}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field });
    }
    expect((await admin.get('/api/v1/company/settings')).json()).toEqual(before);
    // The bounds themselves are allowed.
    expect((await settle({ session_expire_time: 30 })).session_expire_time).toBe(30);
    expect((await settle({ session_expire_time: 480 })).session_expire_time).toBe(480);
    expect((await settle({ password_strength: 0 })).password_strength).toBe(0);
    await settle();
  });

  describe('IP whitelists', () => {
    afterAll(async () => {
      // Whatever a test left, the next starts from no whitelist.
      await t.ctx.db
        .updateTable('company')
        .set({ ip_whitelist: '', admin_whitelist: '' })
        .execute();
    });

    it('refuses members outside the team whitelist, at login and on the next call, but not administrators', async () => {
      await addMember(t, 'wl-member@demo.local', 0);
      await addMember(t, 'wl-audit@demo.local', 2);
      const member = await signedIn(t, 'wl-member@demo.local', 'Member#Pass1');
      const audit = await signedIn(t, 'wl-audit@demo.local', 'Member#Pass1');

      await settle({ ip_whitelist: '10.1.2.3, 192.168.1.*' });
      const next = await member.get('/api/current_account');
      expect(next.statusCode).toBe(403);
      expect(next.json().code).toBe('IPNotInWhiteList');
      const login = await t.client().login(TEAM, 'wl-member@demo.local', 'Member#Pass1');
      expect(login.statusCode).toBe(403);
      expect(login.json().code).toBe('IPNotInWhiteList');
      // Administrators (roles 1-4) answer to the admin whitelist, empty here.
      expect((await admin.get('/api/current_account')).statusCode).toBe(200);
      expect((await audit.get('/api/current_account')).statusCode).toBe(200);

      // An admin whitelist that includes the address changes nothing for them.
      await settle({ ip_whitelist: '10.1.2.3', admin_whitelist: '10.9.9.9, 127.0.0.*' });
      expect((await admin.get('/api/current_account')).statusCode).toBe(200);
      expect((await audit.get('/api/current_account')).statusCode).toBe(200);
      expect((await member.get('/api/current_account')).json().code).toBe('IPNotInWhiteList');

      // Once the member's address is listed, they are let in again.
      await settle({ ip_whitelist: '10.1.2.3,127.0.0.1', admin_whitelist: '127.0.0.*' });
      expect((await member.get('/api/current_account')).statusCode).toBe(200);
      const again = await t.client().login(TEAM, 'wl-member@demo.local', 'Member#Pass1');
      expect(again.statusCode).toBe(200);
    });

    it('refuses an admin whitelist that misses the administrator’s own address', async () => {
      const res = await admin.patch('/api/current_company', {
        ...VALID,
        admin_whitelist: '10.9.9.9',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('WhitelistExcludesSelf');
      expect(res.json().error_message).toContain('127.0.0.1');
      const after = await admin.get('/api/v1/company/settings');
      expect(after.statusCode).toBe(200);
      expect(after.json().admin_whitelist).not.toBe('10.9.9.9');
      const ok = await admin.patch('/api/current_company', {
        ...VALID,
        admin_whitelist: '10.9.9.9, 127.0.0.*',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().admin_whitelist).toBe('10.9.9.9,127.0.0.*');
      await t.ctx.db.updateTable('company').set({ admin_whitelist: '' }).execute();
    });
  });

  it('holds sessions for the configured time, applied at the next touch', async () => {
    await addMember(t, 'hold@demo.local', 0);
    const member = await signedIn(t, 'hold@demo.local', 'Member#Pass1');
    const idle = async () =>
      t.ctx.db
        .updateTable('session')
        .set({ last_seen_at: nowSeconds() - 60 })
        .where('id', '=', sha256Hex(member.cookies.get('pc_session')!))
        .execute();

    await settle({ session_expire_time: 480 });
    await idle();
    expect((await member.get('/api/current_account')).statusCode).toBe(200);
    expect(await sessionExpiry(member)).toBeGreaterThanOrEqual(nowSeconds() + 480 * 60 - 5);

    await settle({ session_expire_time: 30 });
    await idle();
    expect((await member.get('/api/current_account')).statusCode).toBe(200);
    const expiry = await sessionExpiry(member);
    expect(expiry).toBeLessThanOrEqual(nowSeconds() + 30 * 60);
    expect(expiry).toBeGreaterThanOrEqual(nowSeconds() + 30 * 60 - 5);

    // Past it, the session is gone.
    await t.ctx.db
      .updateTable('session')
      .set({ expires_at: nowSeconds() - 1 })
      .where('id', '=', sha256Hex(member.cookies.get('pc_session')!))
      .execute();
    expect((await member.get('/api/current_account')).json().code).toBe('NeedLogin');
    // A new login is held for the configured time from the start.
    await settle({ session_expire_time: 120 });
    const fresh = await signedIn(t, 'hold@demo.local', 'Member#Pass1');
    expect(await sessionExpiry(fresh)).toBeGreaterThanOrEqual(nowSeconds() + 120 * 60 - 5);
    await settle();
  });

  it('sends a member without MFA to bind it when company MFA is on', async () => {
    await addMember(t, 'co-mfa@demo.local', 0);
    await settle({ company_mfa: 1 });
    try {
      const c = t.client();
      const res = await c.login(TEAM, 'co-mfa@demo.local', 'Member#Pass1');
      expect(res.json()).toMatchObject({ otp_enabled: false, company_mfa: true, op: '' });
      expect((await c.get('/api/account_pubkey')).json().code).toBe('NeedBindMfa');
    } finally {
      await settle();
    }
    const after = await t.client().login(TEAM, 'co-mfa@demo.local', 'Member#Pass1');
    expect(after.json().company_mfa).toBe(false);
  });

  it('owes a password change when the 90-day rule is on and the password is older', async () => {
    const m = await addMember(t, 'aged@demo.local', 0);
    const age = async (days: number) =>
      t.ctx.db
        .updateTable('account')
        .set({ password_changed_at: nowSeconds() - days * 86_400 })
        .where('id', '=', m.id)
        .execute();
    await age(91);
    expect((await t.client().login(TEAM, 'aged@demo.local', 'Member#Pass1')).json().op).toBe('');
    await settle({ reset_password: 1 });
    try {
      const res = await t.client().login(TEAM, 'aged@demo.local', 'Member#Pass1');
      expect(res.json().op).toBe('change_pwd');
      await age(89);
      expect((await t.client().login(TEAM, 'aged@demo.local', 'Member#Pass1')).json().op).toBe('');
    } finally {
      await settle();
    }
  });

  it('marks a password below a raised strength level, and asks for a change at login', async () => {
    // Lowercase and special characters: level 1, not 2.
    await addMember(t, 'level1@demo.local', 0, 'member#pass');
    const c = await signedIn(t, 'level1@demo.local', 'member#pass');
    expect((await c.get('/api/current_account')).json().password_strength).toEqual({
      level: 1,
      password_ok: true,
    });
    await settle({ password_strength: 2 });
    try {
      expect((await c.get('/api/current_account')).json().password_strength).toEqual({
        level: 2,
        password_ok: false,
      });
      const login = await t.client().login(TEAM, 'level1@demo.local', 'member#pass');
      expect(login.json().op).toBe('change_pwd');
    } finally {
      await settle();
    }
  });

  it('issues a new domain token, which unbinds the bound workspace', async () => {
    await t.ctx.db
      .updateTable('company')
      .set({ ee_work_space_id: 'ws-1', ee_work_space_name: 'Workspace One' })
      .execute();
    const before = (await admin.get('/api/v1/company/settings')).json();
    expect(before).toMatchObject({ ee_work_space_id: 'ws-1', ee_work_space_name: 'Workspace One' });
    const res = await admin.post('/api/company/update_domain_token');
    expect(res.statusCode).toBe(200);
    expect(res.json().domain_token).not.toBe(before.domain_token);
    expect(res.json().domain_token).toMatch(/^\S{16,}$/);
    expect(res.json()).toMatchObject({ ee_work_space_id: '', ee_work_space_name: '' });
    expect((await admin.get('/api/v1/company/settings')).json().domain_token).toBe(
      res.json().domain_token,
    );
  });

  it('unbinds the workspace only when its id and the team are named', async () => {
    await t.ctx.db
      .updateTable('company')
      .set({ ee_work_space_id: 'ws-2', ee_work_space_name: 'Workspace Two' })
      .execute();
    for (const body of [
      { work_space_id: 'ws-9', domain: TEAM },
      { work_space_id: 'ws-2', domain: 'otherteam' },
    ]) {
      const res = await admin.post('/api/company/ee/unbind', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'work_space_id' });
    }
    const missing = await admin.post('/api/company/ee/unbind', { work_space_id: '', domain: TEAM });
    expect(missing.json()).toMatchObject({ code: 'InvalidParameter', field: 'work_space_id' });
    expect((await admin.get('/api/v1/company/settings')).json().ee_work_space_id).toBe('ws-2');

    const res = await admin.post('/api/company/ee/unbind', {
      work_space_id: 'ws-2',
      domain: TEAM.toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ee_work_space_id: '', ee_work_space_name: '' });
  });

  it('answers the plan with its limits and the members counted', async () => {
    const res = await admin.get('/api/v1/plan');
    expect(res.statusCode).toBe(200);
    const plan = res.json();
    const members = (await admin.get('/api/account')).json().num_results;
    expect(plan).toMatchObject({
      name: 'Trial',
      resources: 20,
      networks: 2,
      accounts: 10,
      shared_resources: 5,
      shared_networks: 1,
      used: { resources: 0, networks: 0, accounts: members },
    });
    expect(plan.expire - nowSeconds()).toBeGreaterThan(29 * 86_400);
    expect(plan.expire - nowSeconds()).toBeLessThanOrEqual(30 * 86_400);
    const m = await addMember(t, 'counted@demo.local', 0);
    expect((await admin.get('/api/v1/plan')).json().used.accounts).toBe(members + 1);
    await admin.delete(`/api/v1/account/${m.id}`);
    expect((await admin.get('/api/v1/plan')).json().used.accounts).toBe(members);
  });

  it('refuses the settings, the token, the unbinding and the plan to all but the administrator', async () => {
    const before = (await admin.get('/api/v1/company/settings')).json();
    for (const role of [0, 2, 3, 4]) {
      await addMember(t, `settings-role${role}@demo.local`, role);
      const c = await signedIn(t, `settings-role${role}@demo.local`, 'Member#Pass1');
      const calls = [
        c.get('/api/v1/company/settings'),
        c.patch('/api/current_company', { ...VALID, full_name: `Taken by ${role}` }),
        c.post('/api/company/update_domain_token'),
        c.post('/api/company/ee/unbind', { work_space_id: 'x', domain: TEAM }),
        c.get('/api/v1/plan'),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, String(role)).toBe(403);
        expect(res.json().code).toBe('NeedPrivilege');
      }
    }
    expect((await admin.get('/api/v1/company/settings')).json()).toEqual(before);
  });

  describe('binding administrator', () => {
    it('binds an administrator that has a unique_id, who becomes the protected owner', async () => {
      const bound = await addMember(t, 'bound@demo.local', 1);
      await t.ctx.db
        .updateTable('account')
        .set({ unique_id: 'ws-user-1' })
        .where('id', '=', bound.id)
        .execute();
      const plain = await addMember(t, 'plain-admin@demo.local', 1);
      const member = await addMember(t, 'uid-member@demo.local', 0);
      await t.ctx.db
        .updateTable('account')
        .set({ unique_id: 'ws-user-2' })
        .where('id', '=', member.id)
        .execute();
      for (const email of [
        'plain-admin@demo.local',
        'uid-member@demo.local',
        'nobody@demo.local',
      ]) {
        const res = await admin.patch('/api/current_company', { ...VALID, email });
        expect(res.statusCode, email).toBe(404);
        expect(res.json().code).toBe('AccountNotFound');
      }
      expect((await admin.get('/api/v1/company/settings')).json().binding_admin.account).toBe(
        ADMIN_EMAIL,
      );

      const res = await admin.patch('/api/current_company', {
        ...VALID,
        email: 'BOUND@demo.local',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().binding_admin).toEqual({ id: bound.id, account: 'bound@demo.local' });

      // The protection moves with the binding.
      const owners = (await admin.get('/api/account?page_size=100'))
        .json()
        .objects.filter((m: { is_owner: boolean }) => m.is_owner);
      expect(owners.map((m: { account: string }) => m.account)).toEqual(['bound@demo.local']);
      const del = await admin.delete(`/api/v1/account/${bound.id}`);
      expect(del.json().code).toBe('AccountNotAllowDelete');
      const demote = await admin.patch(`/api/v1/account/${bound.id}`, { is_admin: 0 });
      expect(demote.json().code).toBe('RoleCannotChange');
      // The former owner is an ordinary administrator now: the new owner may change its role.
      const newOwner = await signedIn(t, 'bound@demo.local', 'Member#Pass1');
      const me = (await admin.get('/api/current_account')).json().id;
      const formerOwner = await newOwner.patch(`/api/v1/account/${me}`, { is_admin: 3 });
      expect(formerOwner.statusCode).toBe(200);
      expect(plain.id).toBeGreaterThan(0);
    });
  });
});
