/**
 * The system logs (spec 2 §2 System logs, §3 log rows and event vocabularies, §7 Logs): the
 * team events written by the team administration acts, the login log, their filters and
 * paging, the CSV export, the alarm detail, and who may read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TEAM_EVENTS } from '@portcullis/contract';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  addMember,
  createTestApp,
  signedIn,
  solveCaptcha,
  TEAM,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, OTHER_ADMIN, OTHER_TEAM, otherTeamAdmin } from '../team/test-fixtures';
import { demoCompanyId, insertEvent } from './test-fixtures';

interface TeamRow {
  id: number;
  time: number;
  account: string;
  event: string;
  user: string;
  group: string;
}
interface LoginRow {
  id: number;
  time: number;
  account: string;
  admin: number | null;
  ip: string;
  success: boolean;
  reason: string;
}

const TEAM_SETTINGS = {
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

/** Epoch seconds of 2001-09-09, far before anything the tests do now. */
const PAST = 1_000_000_000;

describe('system logs', () => {
  let t: TestApp;
  let admin: TestClient;
  let otherCompanyId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    otherCompanyId = (await createOtherTeam(t)).companyId;
  });
  afterAll(() => t.close());

  async function teamLog(query = ''): Promise<{ objects: TeamRow[]; num_results: number }> {
    const res = await admin.get(`/api/event/get_account_log?page_size=1000${query}`);
    if (res.statusCode !== 200) throw new Error(`team log: ${res.body}`);
    return res.json();
  }
  async function loginLog(query = ''): Promise<{ objects: LoginRow[]; num_results: number }> {
    const res = await admin.get(`/api/event/get_login_log?page_size=1000${query}`);
    if (res.statusCode !== 200) throw new Error(`login log: ${res.body}`);
    return res.json();
  }

  describe('team log', () => {
    beforeAll(async () => {
      // Every act of the team vocabulary, once, by the administrator.
      const ok = (p: Promise<LightMyRequestResponse>) =>
        p.then((r) => {
          if (r.statusCode !== 200) throw new Error(r.body);
          return r;
        });
      const user = (
        await ok(
          admin.post('/api/v1/account', {
            account: 'log-user@demo.local',
            name: 'Log User',
            is_admin: 0,
          }),
        )
      ).json() as { id: number };
      // Refused acts write nothing.
      await admin.post('/api/v1/account', {
        account: 'LOG-USER@demo.local',
        name: 'Twice',
        is_admin: 0,
      });
      await ok(admin.patch(`/api/v1/account/${user.id}`, { name: 'Logged User', is_admin: 3 }));
      await ok(admin.patch(`/api/v1/account/${user.id}`, { is_admin: 0 }));
      await ok(admin.patch(`/api/v1/account/${user.id}`, { status: true }));
      await ok(admin.patch(`/api/v1/account/${user.id}`, { status: false }));
      await ok(admin.patch(`/api/v1/account/${user.id}`, { pwd: 'Admin#Set123' }));
      await ok(admin.get(`/api/v1/account/reset_mfa?account_id=${user.id}`));
      const group = (await ok(admin.post('/api/v1/group', { name: 'Log group' }))).json() as {
        id: number;
      };
      await ok(admin.patch(`/api/v1/group/${group.id}`, { name: 'Log group 2' }));
      await ok(admin.post(`/api/v1/group/members/${group.id}`, { members: [user.id] }));
      await ok(
        admin.request('DELETE', `/api/v1/group/members/${group.id}`, { members: [user.id] }),
      );
      await ok(admin.delete(`/api/group/${group.id}`));
      await ok(admin.patch('/api/current_company', TEAM_SETTINGS));
      await ok(admin.post('/api/company/update_domain_token'));
      await t.ctx.db
        .updateTable('company')
        .set({ ee_work_space_id: 'ws-log', ee_work_space_name: 'Logged' })
        .where('domain', '=', TEAM)
        .execute();
      await ok(admin.post('/api/company/ee/unbind', { work_space_id: 'ws-log', domain: TEAM }));
      await ok(admin.delete(`/api/v1/account/${user.id}`));
    });

    it('holds every team event of the acts, with actor, event, user and group, newest first', async () => {
      const { objects, num_results } = await teamLog();
      expect(num_results).toBe(objects.length);
      const seen = objects.map((r) => [r.account, r.event, r.user, r.group]);
      const U = 'log-user@demo.local';
      const expected = [
        [ADMIN_EMAIL, 'deleteUser', U, ''],
        [ADMIN_EMAIL, 'unbindWorkspace', '', ''],
        [ADMIN_EMAIL, 'updateDomainToken', '', ''],
        [ADMIN_EMAIL, 'updateTeamSettings', '', ''],
        [ADMIN_EMAIL, 'deleteGroup', '', 'Log group 2'],
        [ADMIN_EMAIL, 'deleteGroupMember', U, 'Log group 2'],
        [ADMIN_EMAIL, 'addGroupMember', U, 'Log group 2'],
        [ADMIN_EMAIL, 'updateGroup', '', 'Log group 2'],
        [ADMIN_EMAIL, 'createGroup', '', 'Log group'],
        [ADMIN_EMAIL, 'resetMfa', U, ''],
        [ADMIN_EMAIL, 'changePassword', U, ''],
        [ADMIN_EMAIL, 'enableUser', U, ''],
        [ADMIN_EMAIL, 'disableUser', U, ''],
        [ADMIN_EMAIL, 'updateUser', U, ''],
        [ADMIN_EMAIL, 'updateUser', U, ''],
        [ADMIN_EMAIL, 'addUser', U, ''],
      ];
      expect(seen).toEqual(expected);
      // The whole vocabulary but single sign-on (written by the SSO feature) is covered.
      expect(new Set(seen.map((r) => r[1]))).toEqual(
        new Set(TEAM_EVENTS.filter((e) => e !== 'updateSso')),
      );
      for (const r of objects) expect(Math.abs(r.time - Date.now() / 1000)).toBeLessThan(120);
      // Secrets never reach the log.
      expect(JSON.stringify(objects)).not.toContain('Admin#Set123');
    });

    it('filters by event, by actor and by user, without regard to case', async () => {
      const created = await teamLog('&event=createGroup');
      expect(created.num_results).toBe(1);
      expect(created.objects[0]).toMatchObject({ event: 'createGroup', group: 'Log group' });
      expect((await teamLog('&event=noSuchEvent')).num_results).toBe(0);

      await addMember(t, 'second-admin@demo.local', 1);
      const second = await signedIn(t, 'second-admin@demo.local', 'Member#Pass1');
      await second.post('/api/v1/group', { name: 'Second group' });
      const bySecond = await teamLog('&account=SECOND-ADMIN');
      expect(bySecond.objects.map((r) => [r.account, r.event, r.group])).toEqual([
        ['second-admin@demo.local', 'createGroup', 'Second group'],
      ]);
      const byAdmin = await teamLog(`&account=${encodeURIComponent(ADMIN_EMAIL)}`);
      // The text is a "contains" filter: second-admin@demo.local contains admin@demo.local.
      expect(byAdmin.objects.filter((r) => r.account === ADMIN_EMAIL)).toHaveLength(16);
      expect(byAdmin.num_results).toBe(17);

      const byUser = await teamLog('&user=LOG-USER');
      expect(byUser.num_results).toBe(10);
      expect(byUser.objects.every((r) => r.user === 'log-user@demo.local')).toBe(true);
      const both = await teamLog('&user=log-user&event=addGroupMember');
      expect(both.objects.map((r) => r.group)).toEqual(['Log group 2']);
    });

    it('filters by time, the start included and the end excluded', async () => {
      const companyId = await demoCompanyId(t);
      for (const [offset, group] of [
        [0, 'time-a'],
        [100, 'time-b'],
        [200, 'time-c'],
      ] as const) {
        await insertEvent(t, {
          company_id: companyId,
          log_type: 'team',
          event: 'createGroup',
          account: ADMIN_EMAIL,
          group_name: group,
          created_at: PAST + offset,
        });
      }
      const groups = async (q: string) => (await teamLog(q)).objects.map((r) => r.group);
      expect(await groups(`&start_time=${PAST}&end_time=${PAST + 200}`)).toEqual([
        'time-b',
        'time-a',
      ]);
      expect(await groups(`&start_time=${PAST + 1}&end_time=${PAST + 201}`)).toEqual([
        'time-c',
        'time-b',
      ]);
      expect(await groups(`&start_time=${PAST + 100}&end_time=${PAST + 101}`)).toEqual(['time-b']);
      expect(await groups(`&end_time=${PAST + 1}`)).toEqual(['time-a']);
      // From the far past on, the recent acts come too, newest first.
      const since = (await teamLog(`&start_time=${PAST + 150}`)).objects;
      expect(since[since.length - 1]?.group).toBe('time-c');
      expect(since[0]?.time).toBeGreaterThan(PAST + 200);
    });

    it('pages with page_index and page_size, counting every row in num_results', async () => {
      const all = await teamLog();
      const page = await admin.get('/api/event/get_account_log?page_index=2&page_size=3');
      expect(page.statusCode).toBe(200);
      expect(page.json().num_results).toBe(all.num_results);
      expect(page.json().objects.map((r: TeamRow) => r.id)).toEqual(
        all.objects.slice(3, 6).map((r) => r.id),
      );
      const defaults = (await admin.get('/api/event/get_account_log')).json();
      expect(defaults.objects).toHaveLength(10);
      const beyond = (await admin.get('/api/event/get_account_log?page_index=999')).json();
      expect(beyond).toEqual({ objects: [], num_results: all.num_results });
      for (const q of ['page_index=0', 'page_size=0', 'start_time=-1', 'admin=5']) {
        const res = await admin.get(`/api/event/get_account_log?${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: q.split('=')[0] });
      }
    });

    it("never shows another team's events", async () => {
      const other = await otherTeamAdmin(t);
      await other.post('/api/v1/group', { name: 'Other secret' });
      await other.post('/api/v1/account', {
        account: 'theirs@other.local',
        name: 'Theirs',
        is_admin: 0,
      });
      const theirs = (await other.get('/api/event/get_account_log')).json();
      expect(theirs.objects.map((r: TeamRow) => r.event)).toEqual(['addUser', 'createGroup']);
      const ours = await teamLog();
      expect(ours.objects.some((r) => r.account === OTHER_ADMIN)).toBe(false);
      expect(ours.objects.some((r) => r.group === 'Other secret')).toBe(false);
      expect((await teamLog('&account=other.local')).num_results).toBe(0);
    });
  });

  describe('login log', () => {
    beforeAll(async () => {
      await addMember(t, 'log-login@demo.local', 0);
      await addMember(t, 'log-audit@demo.local', 2);
      await addMember(t, 'log-off@demo.local', 0);
      await t.ctx.db
        .updateTable('account')
        .set({ status: 1 })
        .where('account', '=', 'log-off@demo.local')
        .execute();
    });

    it('records a success with the role and address', async () => {
      await signedIn(t, 'log-audit@demo.local', 'Member#Pass1');
      const rows = (await loginLog('&account=log-audit')).objects;
      expect(rows[0]).toMatchObject({
        account: 'log-audit@demo.local',
        admin: 2,
        ip: '127.0.0.1',
        success: true,
        reason: '',
      });
    });

    it('records failures with their reason: wrong password, disabled, outside the whitelist', async () => {
      const c = t.client();
      expect((await c.login(TEAM, 'LOG-LOGIN@demo.local', 'wrong')).json().code).toBe(
        'PasswordError',
      );
      expect((await t.client().login(TEAM, 'log-off@demo.local', 'Member#Pass1')).json().code).toBe(
        'AccountDisabled',
      );
      await t.ctx.db
        .updateTable('company')
        .set({ ip_whitelist: '10.0.0.1' })
        .where('domain', '=', TEAM)
        .execute();
      try {
        const res = await c.login(
          TEAM,
          'log-login@demo.local',
          'Member#Pass1',
          await solveCaptcha(t, c),
        );
        expect(res.json().code).toBe('IPNotInWhiteList');
      } finally {
        await t.ctx.db
          .updateTable('company')
          .set({ ip_whitelist: '' })
          .where('domain', '=', TEAM)
          .execute();
      }
      expect((await t.client().login(TEAM, 'nobody@demo.local', 'x')).json().code).toBe(
        'PasswordError',
      );

      const rows = (await loginLog()).objects;
      const pick = (account: string) =>
        rows.filter((r) => r.account === account).map((r) => [r.success, r.reason, r.admin]);
      expect(pick('log-login@demo.local')).toEqual([
        [false, 'IPNotInWhiteList', 0],
        [false, 'PasswordError', 0],
      ]);
      expect(pick('log-off@demo.local')).toEqual([[false, 'AccountDisabled', 0]]);
      // An unknown account is logged as typed, with no role.
      expect(pick('nobody@demo.local')).toEqual([[false, 'PasswordError', null]]);
      expect(JSON.stringify(rows)).not.toMatch(/"wrong"|Member#Pass1/);
    });

    it('writes no row for a wrong captcha: the password was never tried', async () => {
      const c = t.client();
      await c.login(TEAM, 'log-captcha@demo.local', 'wrong');
      const before = (await loginLog('&account=log-captcha')).num_results;
      expect(before).toBe(1);
      const res = await c.login(TEAM, 'log-captcha@demo.local', 'wrong', 'nope');
      expect(res.json().code).toBe('CaptchaIncorrect');
      expect((await loginLog('&account=log-captcha')).num_results).toBe(before);
    });

    it('filters by role (admin) and by account', async () => {
      const audits = (await loginLog('&admin=2')).objects;
      expect(audits.length).toBeGreaterThan(0);
      expect(audits.every((r) => r.admin === 2)).toBe(true);
      const admins = (await loginLog('&admin=1')).objects;
      expect(admins.every((r) => r.admin === 1)).toBe(true);
      expect(admins.some((r) => r.account === ADMIN_EMAIL)).toBe(true);
      const byAccount = (await loginLog('&account=LOG-LOGIN')).objects;
      expect(byAccount.map((r) => r.reason)).toEqual(['IPNotInWhiteList', 'PasswordError']);
      const ordinary = (await loginLog('&admin=0&account=log-')).objects;
      expect(new Set(ordinary.map((r) => r.account))).toEqual(
        new Set(['log-login@demo.local', 'log-off@demo.local']),
      );
    });

    it("never shows another team's sign-ins, nor those of unknown teams", async () => {
      await otherTeamAdmin(t);
      await t.client().login(OTHER_TEAM, ADMIN_EMAIL, ADMIN_PASSWORD);
      await t.client().login('no-such-team', 'stray@demo.local', 'x');
      const ours = (await loginLog()).objects;
      expect(ours.some((r) => r.account === OTHER_ADMIN)).toBe(false);
      expect(ours.some((r) => r.account === 'stray@demo.local')).toBe(false);
      // Our administrator's failure in the other team is the other team's to see.
      expect(ours.some((r) => r.account === ADMIN_EMAIL && !r.success)).toBe(false);
      const theirs = (await (await otherTeamAdmin(t)).get('/api/event/get_login_log')).json();
      expect(
        theirs.objects.some(
          (r: LoginRow) => r.account === ADMIN_EMAIL && r.reason === 'PasswordError',
        ),
      ).toBe(true);
    });
  });

  describe('export', () => {
    it('exports the filtered team log as CSV with a byte-order mark, a header and one line a row', async () => {
      const list = await teamLog('&user=log-user');
      const res = await admin.get(
        '/api/event/sys_log_export?log_type=team&user=log-user&page_size=1',
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="team-logs-\d{8}\.csv"$/,
      );
      expect(res.body.startsWith('\uFEFF')).toBe(true);
      const lines = res.body.slice(1).split('\r\n');
      expect(lines.pop()).toBe('');
      expect(lines[0]).toBe('time (UTC),account,event,user,group');
      // Paging does not apply: every filtered row is exported.
      expect(lines).toHaveLength(list.num_results + 1);
      const first = list.objects[0]!;
      const stamp = new Date(first.time * 1000).toISOString().replace('T', ' ').slice(0, 19);
      expect(lines[1]).toBe(`${stamp},${ADMIN_EMAIL},${first.event},log-user@demo.local,`);
    });

    it('defuses cells a spreadsheet would run as a formula, and quotes commas', async () => {
      await admin.post('/api/v1/group', { name: '=cmd|x' });
      await admin.post('/api/v1/group', { name: '@SUM(A1),x' });
      const team = await admin.get('/api/event/sys_log_export?log_type=team&event=createGroup');
      expect(team.body).toContain(`,createGroup,,'=cmd|x\r\n`);
      expect(team.body).toContain(`,createGroup,,"'@SUM(A1),x"\r\n`);
      expect(team.body).not.toMatch(/,=cmd/);

      await t.client().login(TEAM, '=cmd|x', 'x');
      await t.client().login(TEAM, '-2+3', 'x');
      const all = await admin.get('/api/event/sys_log_export?log_type=login');
      expect(all.body.split('\r\n')[0]).toBe('\uFEFFtime (UTC),account,admin,ip,success,reason');
      expect(all.body).toMatch(/,'=cmd\|x,,127\.0\.0\.1,false,PasswordError\r\n/);
      expect(all.body).toMatch(/,'-2\+3,,127\.0\.0\.1,false,PasswordError\r\n/);
    });

    it('exports the login log by role, an empty log as its header, and refuses an unknown type', async () => {
      const audits = await admin.get('/api/event/sys_log_export?log_type=login&admin=2');
      const lines = audits.body.split('\r\n').slice(1, -1);
      expect(lines.length).toBe((await loginLog('&admin=2')).num_results);
      expect(lines.every((l) => l.split(',')[2] === '2')).toBe(true);

      const cluster = await admin.get('/api/event/sys_log_export?log_type=cluster');
      expect(cluster.body).toBe(
        '\uFEFFtime (UTC),account,event,net_name,resource_name,shared_company_name\r\n',
      );
      for (const type of ['', 'teams', 'sql']) {
        const res = await admin.get(`/api/event/sys_log_export?log_type=${type}`);
        expect(res.json(), type).toMatchObject({ code: 'InvalidParameter', field: 'log_type' });
      }
    });
  });

  describe('alarms', () => {
    it("shows an alarm's detail, and answers NoteNotFound for a missing, foreign or non-alarm id", async () => {
      const companyId = await demoCompanyId(t);
      const alarm = (company: number, command: string) =>
        insertEvent(t, {
          company_id: company,
          log_type: 'alarm',
          event: 'intercept',
          account: 'log-login@demo.local',
          con_ip: '10.0.0.7',
          resource_name: 'db-1',
          project_name: 'Ops',
          way: 'mysql',
          command,
          notice_accounts: JSON.stringify([ADMIN_EMAIL]),
          created_at: PAST,
        });
      const ours = await alarm(companyId, 'DROP TABLE users');
      const theirs = await alarm(otherCompanyId, 'DROP TABLE theirs');

      const res = await admin.post('/api/event/alarm', { id: ours });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: ours,
        operation_time: PAST,
        account_name: 'log-login@demo.local',
        con_ip: '10.0.0.7',
        resource_name: 'db-1',
        project_name: 'Ops',
        way: 'mysql',
        event: 'intercept',
        command: 'DROP TABLE users',
        notice_accounts: [ADMIN_EMAIL],
      });
      const list = (await admin.get('/api/event/get_notice_log')).json();
      expect(list.objects.map((r: { id: number }) => r.id)).toEqual([ours]);
      const bySource = (await admin.get('/api/event/get_notice_log?source_ip=10.0.0')).json();
      expect(bySource.num_results).toBe(1);

      const teamRowId = (await teamLog()).objects[0]!.id;
      for (const id of [999_999, theirs, teamRowId]) {
        const miss = await admin.post('/api/event/alarm', { id });
        expect(miss.statusCode, String(id)).toBe(404);
        expect(miss.json().code).toBe('NoteNotFound');
      }
    });

    it('says whether each alarm blocked its command or only noticed it, in the list, the detail and the export', async () => {
      const companyId = await demoCompanyId(t);
      const alarm = (event: string, command: string, notified: string[]) =>
        insertEvent(t, {
          company_id: companyId,
          log_type: 'alarm',
          event,
          account: 'log-evt@demo.local',
          con_ip: '10.9.9.9',
          resource_name: 'web-9',
          project_name: 'Ops',
          way: 'terminal',
          command,
          notice_accounts: JSON.stringify(notified),
          created_at: PAST + 10,
        });
      const blocked = await alarm('intercept', 'rm -rf /', ['nora']);
      const noticed = await alarm('notice', 'sudo -l', []);
      const mine = '&account_name=log-evt';
      const list = (await admin.get(`/api/event/get_notice_log?page_size=100${mine}`)).json();
      expect(list.objects.map((r: { id: number; event: string }) => [r.id, r.event])).toEqual([
        [noticed, 'notice'],
        [blocked, 'intercept'],
      ]);
      const onlyBlocked = (
        await admin.get(`/api/event/get_notice_log?event=intercept${mine}`)
      ).json();
      expect(onlyBlocked.objects.map((r: { id: number }) => r.id)).toEqual([blocked]);
      expect((await admin.post('/api/event/alarm', { id: noticed })).json()).toMatchObject({
        event: 'notice',
        notice_accounts: [],
      });

      const csv = await admin.get(`/api/event/sys_log_export?log_type=alarm${mine}`);
      const lines = csv.body.slice(1).split('\r\n');
      expect(lines[0]).toBe(
        'operation_time (UTC),account_name,con_ip,resource_name,project_name,way,event,command,notice_accounts',
      );
      const stamp = new Date((PAST + 10) * 1000).toISOString().replace('T', ' ').slice(0, 19);
      expect(lines.slice(1, 3)).toEqual([
        `${stamp},log-evt@demo.local,10.9.9.9,web-9,Ops,terminal,notice,sudo -l,`,
        `${stamp},log-evt@demo.local,10.9.9.9,web-9,Ops,terminal,intercept,rm -rf /,nora`,
      ]);
    });
  });

  it('lets roles 1, 2 and 4 read the logs and refuses the opt admin', async () => {
    const reads = [
      '/api/event/get_login_log',
      '/api/event/get_account_log',
      '/api/event/get_net_log',
      '/api/event/get_project_log',
      '/api/event/get_notice_log',
      '/api/event/sys_log_export?log_type=team',
    ];
    for (const role of [0, 2, 3, 4]) {
      await addMember(t, `log-role${role}@demo.local`, role);
      const c = await signedIn(t, `log-role${role}@demo.local`, 'Member#Pass1');
      const results = await Promise.all([
        ...reads.map((url) => c.get(url)),
        c.post('/api/event/alarm', { id: 1 }),
      ]);
      for (const [i, res] of results.entries()) {
        if (role === 2 || role === 4) {
          expect([200, 404], `${role} ${reads[i] ?? 'alarm'}`).toContain(res.statusCode);
        } else {
          expect(res.statusCode, `${role} ${reads[i] ?? 'alarm'}`).toBe(403);
          expect(res.json().code).toBe('NeedPrivilege');
        }
      }
    }
    // What the audit admin reads is the same log the administrator reads.
    const audit = await signedIn(t, 'log-role2@demo.local', 'Member#Pass1');
    const seen = (await audit.get('/api/event/get_account_log?page_size=1000')).json();
    expect(seen.num_results).toBe((await teamLog()).num_results);
  });
});
