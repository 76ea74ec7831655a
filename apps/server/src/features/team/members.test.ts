/**
 * Team members as an administrator manages them (spec 2 §2 team page, §5 add member, §6):
 * the list, adding with the welcome mail, the plan's account quota, changing name, role,
 * password and enabled state, deleting, resetting MFA, and the limits on each.
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  addMember,
  createTestApp,
  outbox,
  signedIn,
  TEAM,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, mailLinkFor } from './test-fixtures';

async function accountRow(t: TestApp, email: string) {
  return t.ctx.db.selectFrom('account').selectAll().where('account', '=', email).executeTakeFirst();
}

async function adminId(t: TestApp): Promise<number> {
  return (await accountRow(t, ADMIN_EMAIL))!.id;
}

describe('team members', () => {
  let t: TestApp;
  let admin: TestClient;
  let otherTeamAdminId: number;

  beforeAll(async () => {
    t = await createTestApp();
    // The quota has its own block below; here the Trial plan's 10 accounts would run out.
    await t.ctx.db.updateTable('plan').set({ account_limit: 0 }).execute();
    admin = await signedIn(t);
    otherTeamAdminId = (await createOtherTeam(t)).adminId;
  });
  afterAll(() => t.close());

  describe('list', () => {
    beforeAll(async () => {
      for (let i = 1; i <= 5; i++) await addMember(t, `pager${i}@demo.local`, i === 5 ? 3 : 0);
      const literal = await addMember(t, 'literal@demo.local', 0);
      await t.ctx.db
        .updateTable('account')
        .set({ name: 'Half 50%_off' })
        .where('id', '=', literal.id)
        .execute();
      const plain = await addMember(t, 'plain@demo.local', 0);
      await t.ctx.db
        .updateTable('account')
        .set({ name: 'Half 50xoff' })
        .where('id', '=', plain.id)
        .execute();
    });

    it('pages the members, newest first, with num_results and total_pages', async () => {
      const first = await admin.get('/api/account?key=pager&page_size=2');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ num_results: 5, total_pages: 3, page: 1 });
      expect(first.json().objects.map((m: { account: string }) => m.account)).toEqual([
        'pager5@demo.local',
        'pager4@demo.local',
      ]);
      const last = (await admin.get('/api/account?key=pager&page_size=2&page=3')).json();
      expect(last.objects.map((m: { account: string }) => m.account)).toEqual([
        'pager1@demo.local',
      ]);
      const beyond = (await admin.get('/api/account?key=pager&page_size=2&page=4')).json();
      expect(beyond).toMatchObject({ objects: [], num_results: 5 });
    });

    it('answers the member fields of spec 2 §3 and no secret', async () => {
      const res = await admin.get('/api/account?key=pager1');
      const [m] = res.json().objects;
      expect(m).toMatchObject({
        name: 'pager1',
        account: 'pager1@demo.local',
        is_admin: 0,
        status: false,
        unique_id: '',
        otp_enabled: false,
        is_owner: false,
        mobile: '',
      });
      expect(res.body).not.toMatch(/password|otp_secret|argon2/);
    });

    it('filters by role (q_is_admin)', async () => {
      const res = (await admin.get('/api/account?q_is_admin=3')).json();
      expect(res.objects.map((m: { account: string }) => m.account)).toEqual(['pager5@demo.local']);
      const admins = (await admin.get('/api/account?q_is_admin=1')).json();
      expect(admins.objects.map((m: { account: string }) => m.account)).toEqual([ADMIN_EMAIL]);
      const both = (await admin.get('/api/account?q_is_admin=0&key=PAGER')).json();
      expect(both.num_results).toBe(4);
    });

    it('searches name or account without regard to case, taking % and _ literally', async () => {
      const byName = (await admin.get('/api/account?key=HALF')).json();
      expect(byName.num_results).toBe(2);
      const byAccount = (await admin.get('/api/account?key=LITERAL%40demo')).json();
      expect(byAccount.objects.map((m: { name: string }) => m.name)).toEqual(['Half 50%_off']);
      for (const key of ['50%25', '%25_', '_off', '50%25_off']) {
        const res = (await admin.get(`/api/account?key=${key}`)).json();
        expect(
          res.objects.map((m: { name: string }) => m.name),
          key,
        ).toEqual(['Half 50%_off']);
      }
    });

    it("never lists another team's members", async () => {
      const all = (await admin.get('/api/account?page_size=1000')).json();
      expect(all.objects.some((m: { id: number }) => m.id === otherTeamAdminId)).toBe(false);
      const names = (await admin.get('/api/v1/account/list')).json();
      expect(names.some((n: { id: number }) => n.id === otherTeamAdminId)).toBe(false);
    });
  });

  describe('add', () => {
    it('adds a member who gets a welcome mail, sets a password with it and signs in', async () => {
      const res = await admin.post('/api/v1/account', {
        account: 'New.Person@Demo.local',
        name: '  New Person  ',
        is_admin: 0,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        account: 'new.person@demo.local',
        name: 'New Person',
        is_admin: 0,
        status: false,
        is_owner: false,
      });
      const mail = outbox(t, 'mail').find((m) => m.includes('To: new.person@demo.local'));
      expect(mail).toBeDefined();
      const link = mailLinkFor(t, 'new.person@demo.local');
      expect(link.pathname).toBe('/resetpassword');
      expect(link.searchParams.get('domain')).toBe(TEAM);

      // No password until the member sets one.
      const before = await t.client().login(TEAM, 'new.person@demo.local', 'Fresh#Pass1');
      expect(before.json().code).toBe('PasswordError');

      const c = t.client();
      const set = await c.post('/api/auth/reset_passwd', {
        code: link.searchParams.get('code'),
        account: 'new.person@demo.local',
        pwd: 'Fresh#Pass1',
      });
      expect(set.statusCode).toBe(200);
      // The failure above asks this account for a captcha; the row is cleared by the reset.
      const login = await c.login(TEAM, 'new.person@demo.local', 'Fresh#Pass1');
      expect(login.statusCode).toBe(200);
      expect(login.json()).toMatchObject({ op: '', is_admin: 0 });
      expect((await c.get('/api/current_account')).json().name).toBe('New Person');
    });

    it('adds administrators, opt admins and audit admins, but not a safe admin', async () => {
      for (const [i, role] of [1, 2, 3].entries()) {
        const res = await admin.post('/api/v1/account', {
          account: `role-added${i}@demo.local`,
          name: `Role ${role}`,
          is_admin: role,
        });
        expect(res.statusCode, String(role)).toBe(200);
        expect(res.json().is_admin).toBe(role);
      }
      const safe = await admin.post('/api/v1/account', {
        account: 'safe-added@demo.local',
        name: 'Safe',
        is_admin: 4,
      });
      expect(safe.statusCode).toBe(400);
      expect(safe.json()).toMatchObject({ code: 'InvalidParameter', field: 'is_admin' });
      expect(await accountRow(t, 'safe-added@demo.local')).toBeUndefined();
    });

    it('refuses an account that exists, in any case', async () => {
      await addMember(t, 'twice@demo.local', 0);
      for (const account of ['twice@demo.local', 'TWICE@Demo.Local']) {
        const res = await admin.post('/api/v1/account', { account, name: 'Twice', is_admin: 0 });
        expect(res.statusCode, account).toBe(409);
        expect(res.json().code).toBe('AccountExist');
      }
      // Another team's account of the same address is a different account.
      const other = await admin.post('/api/v1/account', {
        account: 'boss@other.local',
        name: 'Boss Here',
        is_admin: 0,
      });
      expect(other.statusCode).toBe(200);
    });

    it('refuses a name outside 2-16 characters, or blank, and a bad e-mail, adding nothing', async () => {
      for (const name of ['x', 'x'.repeat(17), '   ', ' y ']) {
        const res = await admin.post('/api/v1/account', {
          account: 'badname@demo.local',
          name,
          is_admin: 0,
        });
        expect(res.statusCode, JSON.stringify(name)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'name' });
      }
      for (const account of ['not-an-email', '', 'a@']) {
        const res = await admin.post('/api/v1/account', { account, name: 'Bad Mail', is_admin: 0 });
        expect(res.json(), account).toMatchObject({ code: 'InvalidParameter', field: 'account' });
      }
      expect(await accountRow(t, 'badname@demo.local')).toBeUndefined();
      for (const name of ['xy', 'x'.repeat(16)]) {
        const account = `okname${name.length}@demo.local`;
        const res = await admin.post('/api/v1/account', { account, name, is_admin: 0 });
        expect(res.statusCode, name).toBe(200);
      }
    });
  });

  describe('change', () => {
    it('changes the name and the role, to any of the five', async () => {
      const m = await addMember(t, 'change@demo.local', 0);
      const res = await admin.patch(`/api/v1/account/${m.id}`, { name: ' Renamed ', is_admin: 4 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: m.id, name: 'Renamed', is_admin: 4 });
      const listed = (await admin.get('/api/account?key=change%40demo')).json().objects[0];
      expect(listed).toMatchObject({ name: 'Renamed', is_admin: 4 });
      // The member's next call runs with the new role.
      const c = await signedIn(t, 'change@demo.local', 'Member#Pass1');
      expect((await c.get('/api/current_account')).json().is_admin).toBe(4);
    });

    it('refuses a bad name, an unknown role and an empty change, changing nothing', async () => {
      const m = await addMember(t, 'nochange@demo.local', 0);
      for (const [body, field] of [
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(21) }, 'name'],
        [{ is_admin: 5 }, 'is_admin'],
        [{ is_admin: -1 }, 'is_admin'],
        [{ status: 'yes' }, 'status'],
        [{}, 'name'],
      ] as const) {
        const res = await admin.patch(`/api/v1/account/${m.id}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'InvalidParameter', field });
      }
      expect(await accountRow(t, 'nochange@demo.local')).toMatchObject({
        name: 'nochange',
        is_admin: 0,
        status: 0,
      });
    });

    it("refuses to change one's own role and the owner's role", async () => {
      const me = await adminId(t);
      const own = await admin.patch(`/api/v1/account/${me}`, { is_admin: 0 });
      expect(own.statusCode).toBe(400);
      expect(own.json().code).toBe('RoleCannotChange');
      // The same role, or one's own name, is no change of role.
      const same = await admin.patch(`/api/v1/account/${me}`, { is_admin: 1, name: 'The Admin' });
      expect(same.statusCode).toBe(200);

      await addMember(t, 'second-admin@demo.local', 1);
      const second = await signedIn(t, 'second-admin@demo.local', 'Member#Pass1');
      const owner = await second.patch(`/api/v1/account/${me}`, { is_admin: 0 });
      expect(owner.statusCode).toBe(400);
      expect(owner.json().code).toBe('RoleCannotChange');
      expect((await accountRow(t, ADMIN_EMAIL))?.is_admin).toBe(1);
      expect((await admin.get('/api/current_account')).json().is_admin).toBe(1);
    });

    it('sets a password the member must change at the next login, ending their sessions', async () => {
      const m = await addMember(t, 'setpw@demo.local', 0);
      const c = await signedIn(t, 'setpw@demo.local', 'Member#Pass1');
      const weak = await admin.patch(`/api/v1/account/${m.id}`, { pwd: 'abc' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().code).toBe('InvalidPassword');
      // A refused password changes nothing: the member is still signed in.
      expect((await c.get('/api/current_account')).statusCode).toBe(200);

      const res = await admin.patch(`/api/v1/account/${m.id}`, { pwd: 'Admin#Set123' });
      expect(res.statusCode).toBe(200);
      const gone = await c.get('/api/current_account');
      expect(gone.statusCode).toBe(401);
      expect(gone.json().code).toBe('NeedLogin');

      const d = t.client();
      const login = await d.login(TEAM, 'setpw@demo.local', 'Admin#Set123');
      expect(login.statusCode).toBe(200);
      expect(login.json().op).toBe('change_pwd');
      expect((await d.get('/api/account_pubkey')).json().code).toBe('NeedChangePassword');
      const changed = await d.post('/api/current_account/change_password', { pwd: 'Mine#Pass456' });
      expect(changed.statusCode).toBe(200);
      expect((await d.get('/api/account_pubkey')).statusCode).toBe(200);
    });

    it("refuses to set another administrator's password, the owner's included", async () => {
      await addMember(t, 'pw-admin@demo.local', 1);
      const second = await signedIn(t, 'pw-admin@demo.local', 'Member#Pass1');
      const owner = await second.patch(`/api/v1/account/${await adminId(t)}`, {
        pwd: 'Taken#Over123',
      });
      expect(owner.statusCode).toBe(403);
      expect(owner.json().code).toBe('AdminProtected');
      const audit = await addMember(t, 'pw-audit@demo.local', 2);
      const res = await admin.patch(`/api/v1/account/${audit.id}`, { pwd: 'Taken#Over123' });
      expect(res.json().code).toBe('AdminProtected');
      // Nothing changed: both still sign in with their own passwords.
      expect((await admin.get('/api/current_account')).statusCode).toBe(200);
      expect((await t.client().login(TEAM, 'pw-audit@demo.local', 'Member#Pass1')).json().op).toBe(
        '',
      );
      // One's own password may be set here, and is not owed a change.
      const own = await second.patch(
        `/api/v1/account/${(await accountRow(t, 'pw-admin@demo.local'))!.id}`,
        {
          pwd: 'My#Own#Pass1',
        },
      );
      expect(own.statusCode).toBe(200);
      expect((await second.get('/api/current_account')).json().op).toBe('');
    });

    it('disables a member, whose live session ends at once and whose login is refused', async () => {
      const m = await addMember(t, 'disable@demo.local', 0);
      const c = await signedIn(t, 'disable@demo.local', 'Member#Pass1');
      const res = await admin.patch(`/api/v1/account/${m.id}`, { status: true });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(true);

      const next = await c.get('/api/current_account');
      expect(next.statusCode).toBe(401);
      expect(next.json().code).toBe('NeedLogin');
      const login = await t.client().login(TEAM, 'disable@demo.local', 'Member#Pass1');
      expect(login.statusCode).toBe(403);
      expect(login.json().code).toBe('AccountDisabled');
      expect((await admin.get('/api/account?key=disable%40')).json().objects[0].status).toBe(true);

      const enabled = await admin.patch(`/api/v1/account/${m.id}`, { status: false });
      expect(enabled.json().status).toBe(false);
      expect((await t.client().login(TEAM, 'disable@demo.local', 'Member#Pass1')).statusCode).toBe(
        200,
      );
    });

    it('refuses to disable oneself or another administrator', async () => {
      const self = await admin.patch(`/api/v1/account/${await adminId(t)}`, { status: true });
      expect(self.statusCode).toBe(400);
      expect(self.json().code).toBe('DisableSelf');
      for (const role of [1, 2, 3, 4]) {
        const other = await addMember(t, `protected${role}@demo.local`, role);
        const res = await admin.patch(`/api/v1/account/${other.id}`, { status: true });
        expect(res.statusCode, String(role)).toBe(403);
        expect(res.json().code).toBe('AdminProtected');
        expect((await accountRow(t, `protected${role}@demo.local`))?.status).toBe(0);
      }
      expect((await admin.get('/api/current_account')).statusCode).toBe(200);
    });
  });

  describe('delete', () => {
    it('deletes a member: their session ends, they cannot sign in, they leave their groups', async () => {
      const m = await addMember(t, 'delete-me@demo.local', 0);
      const c = await signedIn(t, 'delete-me@demo.local', 'Member#Pass1');
      const group = (await admin.post('/api/v1/group', { name: 'Doomed members' })).json();
      await admin.post(`/api/v1/group/members/${group.id}`, { members: [m.id] });

      const res = await admin.delete(`/api/v1/account/${m.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect((await c.get('/api/current_account')).json().code).toBe('NeedLogin');
      const login = await t.client().login(TEAM, 'delete-me@demo.local', 'Member#Pass1');
      expect(login.json().code).toBe('PasswordError');
      expect((await admin.get('/api/account?key=delete-me')).json().num_results).toBe(0);
      expect((await admin.get(`/api/v1/group/${group.id}`)).json().member_count).toBe(0);
      const again = await admin.delete(`/api/v1/account/${m.id}`);
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('AccountNotFound');
    });

    it('refuses to delete oneself, the owner or another administrator', async () => {
      const me = await adminId(t);
      const self = await admin.delete(`/api/v1/account/${me}`);
      expect(self.statusCode).toBe(400);
      expect(self.json().code).toBe('DeleteSelf');

      await addMember(t, 'deleter@demo.local', 1);
      const second = await signedIn(t, 'deleter@demo.local', 'Member#Pass1');
      const owner = await second.delete(`/api/v1/account/${me}`);
      expect(owner.statusCode).toBe(400);
      expect(owner.json().code).toBe('AccountNotAllowDelete');

      const audit = await addMember(t, 'audit-kept@demo.local', 2);
      const res = await admin.delete(`/api/v1/account/${audit.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('AdminProtected');
      expect(await accountRow(t, 'audit-kept@demo.local')).toBeDefined();
      expect(await accountRow(t, ADMIN_EMAIL)).toBeDefined();
    });
  });

  describe('reset MFA', () => {
    async function withMfa(email: string) {
      const m = await addMember(t, email, 0);
      const c = await signedIn(t, email, 'Member#Pass1');
      // Bound after signing in, so the session is a full one.
      await t.ctx.db
        .updateTable('account')
        .set({ otp_enabled: 1, otp_secret: 'JBSWY3DPEHPK3PXP' })
        .where('id', '=', m.id)
        .execute();
      return { m, c };
    }

    it("turns the member's MFA off and ends their sessions", async () => {
      const { m, c } = await withMfa('mfa-reset@demo.local');
      const res = await admin.get(`/api/v1/account/reset_mfa?account_id=${m.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect((await c.get('/api/current_account')).json().code).toBe('NeedLogin');
      const row = await accountRow(t, 'mfa-reset@demo.local');
      expect(row).toMatchObject({ otp_enabled: 0, otp_secret: null });
      const listed = (await admin.get('/api/account?key=mfa-reset')).json().objects[0];
      expect(listed.otp_enabled).toBe(false);
      // Signing in no longer asks for a code.
      const login = await t.client().login(TEAM, 'mfa-reset@demo.local', 'Member#Pass1');
      expect(login.json()).toMatchObject({ otp_enabled: false, op: '' });
    });

    it('refuses without the CSRF header, though it is a GET', async () => {
      const { m, c } = await withMfa('mfa-csrf@demo.local');
      const bare = await signedIn(t);
      bare.csrf = false;
      const res = await bare.get(`/api/v1/account/reset_mfa?account_id=${m.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CsrfTokenInvalid');
      expect((await accountRow(t, 'mfa-csrf@demo.local'))?.otp_enabled).toBe(1);
      expect((await c.get('/api/current_account')).statusCode).toBe(200);
    });
  });

  it("answers AccountNotFound for another team's account, and touches nothing", async () => {
    const id = otherTeamAdminId;
    const calls = [
      admin.patch(`/api/v1/account/${id}`, { name: 'Hijacked' }),
      admin.patch(`/api/v1/account/${id}`, { status: true }),
      admin.patch(`/api/v1/account/${id}`, { pwd: 'Hijack#Pass1' }),
      admin.delete(`/api/v1/account/${id}`),
      admin.get(`/api/v1/account/reset_mfa?account_id=${id}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('AccountNotFound');
    }
    const boss = await t.ctx.db
      .selectFrom('account')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(boss).toMatchObject({ name: 'Boss', status: 0, password_set_by_admin: 0 });
  });

  it('refuses every write to the other roles with NeedPrivilege, doing nothing', async () => {
    const target = await addMember(t, 'role-target@demo.local', 0);
    for (const role of [0, 2, 3, 4]) {
      await addMember(t, `writer${role}@demo.local`, role);
      const c = await signedIn(t, `writer${role}@demo.local`, 'Member#Pass1');
      const calls = [
        c.post('/api/v1/account', { account: `made${role}@demo.local`, name: 'Made', is_admin: 1 }),
        c.patch(`/api/v1/account/${target.id}`, { is_admin: 1 }),
        c.patch(`/api/v1/account/${target.id}`, { status: true }),
        c.delete(`/api/v1/account/${target.id}`),
        c.get(`/api/v1/account/reset_mfa?account_id=${target.id}`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, String(role)).toBe(403);
        expect(res.json().code).toBe('NeedPrivilege');
      }
      expect(await accountRow(t, `made${role}@demo.local`)).toBeUndefined();
    }
    expect(await accountRow(t, 'role-target@demo.local')).toMatchObject({ is_admin: 0, status: 0 });
    // The opt admin reads the member list (approver pickers), the others do not.
    const opt = await signedIn(t, 'writer3@demo.local', 'Member#Pass1');
    expect((await opt.get('/api/account')).statusCode).toBe(200);
    const ordinary = await signedIn(t, 'writer0@demo.local', 'Member#Pass1');
    expect((await ordinary.get('/api/account')).json().code).toBe('NeedPrivilege');
  });
});

describe('the plan quota of accounts', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
  });
  afterAll(() => t.close());

  const add = (i: number) =>
    admin.post('/api/v1/account', {
      account: `quota${i}@demo.local`,
      name: `Quota ${i}`,
      is_admin: 0,
    });

  it("refuses a member past the Trial plan's 10 accounts, and allows any number at 0", async () => {
    const plan = (await admin.get('/api/v1/plan')).json();
    expect(plan).toMatchObject({ name: 'Trial', accounts: 10, used: { accounts: 1 } });
    for (let i = 2; i <= 10; i++) expect((await add(i)).statusCode, String(i)).toBe(200);
    expect((await admin.get('/api/v1/plan')).json().used.accounts).toBe(10);

    const over = await add(11);
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('AccountExceeded');
    expect(await accountRow(t, 'quota11@demo.local')).toBeUndefined();
    expect(outbox(t, 'mail').some((m) => m.includes('quota11@demo.local'))).toBe(false);

    await t.ctx.db.updateTable('plan').set({ account_limit: 0 }).execute();
    for (let i = 11; i <= 12; i++) expect((await add(i)).statusCode, String(i)).toBe(200);
    expect((await admin.get('/api/v1/plan')).json()).toMatchObject({
      accounts: 0,
      used: { accounts: 12 },
    });
  });
});

describe('when the welcome mail cannot be sent', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A port that was free a moment ago: the SMTP connection is refused.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
  });
  afterAll(() => t.close());

  it('answers EmailSendFail and adds nobody, so the administrator can retry', async () => {
    const admin = await signedIn(t);
    const body = { account: 'unmailed@demo.local', name: 'Unmailed', is_admin: 0 };
    const res = await admin.post('/api/v1/account', body);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('EmailSendFail');
    expect(await accountRow(t, 'unmailed@demo.local')).toBeUndefined();
    const log = (await admin.get('/api/event/get_account_log')).json();
    expect(log.num_results).toBe(0);
    // The retry meets the same failure, not AccountExist.
    expect((await admin.post('/api/v1/account', body)).json().code).toBe('EmailSendFail');
  });
});
