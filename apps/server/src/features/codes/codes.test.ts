/**
 * Connection codes (spec 1 §2.7 Manage Code panel, §5 creation and modify-code rules, §7
 * Codes): quick and custom expiries within the cluster's maximum, allowed addresses, safe mode,
 * one code per member and resource, deleting as disabling, and who may see and manage whose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../test/harness';
import { otherTeamAdmin, createOtherTeam } from '../team/test-fixtures';
import { failure } from '../workgroups/test-fixtures';
import { codeWorld, nowSeconds, type CodeWorld } from './test-fixtures';

interface CodeReply {
  id: number;
  code: string;
  masked: boolean;
  type: string;
  status: string;
  expire_time: number;
  create_time: number;
  expired: boolean;
  allow_ip: string;
  safe_mode: number;
  account: { id: number };
}

describe('connection codes', () => {
  let t: TestApp;
  let w: CodeWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await codeWorld(t);
    await createOtherTeam(t);
  });
  afterAll(() => t.close());

  const create = (client: TestClient, body: Record<string, unknown>) =>
    client.post('/api/tunnel', body);
  const remove = (client: TestClient, id: number) =>
    client.patch(`/api/tunnel/${id}`, { status: 'disable' });
  const setMax = (seconds: number) =>
    w.admin.patch(`/api/network/${w.lab}`, { max_tunnel_expire_time: seconds });
  const near = (actual: number, expected: number) =>
    expect(Math.abs(actual - expected)).toBeLessThanOrEqual(2);

  describe('create', () => {
    it('makes a code valid 30 minutes by default, shown in full to its owner only', async () => {
      const res = await create(w.erin.client, { project_resource_id: w.web });
      expect(res.statusCode).toBe(200);
      const code: CodeReply & { connect: { command: string } } = res.json();
      expect(code).toMatchObject({
        masked: false,
        type: 'normal',
        status: 'enable',
        allow_ip: '',
        safe_mode: 0,
        expired: false,
        account: { id: w.erin.id },
        tmp_username: '',
      });
      expect(code.code).toMatch(/^[a-z2-7]{20}$/);
      near(code.expire_time, nowSeconds() + 1800);
      expect(code.connect).toEqual({
        host: 'gw.example.test',
        port: 9998,
        command: `ssh -p 9998 ${code.code}@gw.example.test`,
      });
      // The resource row shows it masked.
      const row = (await w.erin.client.get(`/api/project_resource/${w.web}`)).json();
      expect(row.code).toBe(`${code.code.slice(0, 4)}****${code.code.slice(-2)}`);
      // Stored sealed and hashed, never in clear.
      const stored = JSON.stringify(await t.ctx.db.selectFrom('tunnel').selectAll().execute());
      expect(stored).not.toContain(code.code);
      await remove(w.erin.client, code.id);
    });

    it('takes the quick expiries in hours and a custom time, within the cluster maximum', async () => {
      await setMax(86_400);
      const day = (await create(w.erin.client, { project_resource_id: w.web, expire: 24 })).json();
      near(day.expire_time, nowSeconds() + 86_400);
      await remove(w.erin.client, day.id);
      const month = await create(w.erin.client, { project_resource_id: w.web, expire: 720 });
      expect(failure(month)).toBe('400 ExpireTimeTooBig');
      const custom = nowSeconds() + 3600;
      const c = (
        await create(w.erin.client, { project_resource_id: w.web, expire_time: custom })
      ).json();
      expect(c.expire_time).toBe(custom);
      await remove(w.erin.client, c.id);
      for (const expire_time of [nowSeconds() - 60, nowSeconds()]) {
        const past = await create(w.erin.client, { project_resource_id: w.web, expire_time });
        expect(failure(past)).toBe('400 TimeNotValid');
        expect(past.json().error_message).toBe('Need future time');
      }
      const beyond = await create(w.erin.client, {
        project_resource_id: w.web,
        expire_time: nowSeconds() + 86_400 + 120,
      });
      expect(failure(beyond)).toBe('400 ExpireTimeTooBig');
      // No maximum set still means at most one year.
      await setMax(0);
      const month2 = (
        await create(w.erin.client, { project_resource_id: w.web, expire: 720 })
      ).json();
      near(month2.expire_time, nowSeconds() + 720 * 3600);
      await remove(w.erin.client, month2.id);
      expect(
        failure(await create(w.erin.client, { project_resource_id: w.web, expire: 8784 })),
      ).toBe('400 ExpireTimeTooBig');
      const both = await create(w.erin.client, {
        project_resource_id: w.web,
        expire: 1,
        expire_time: custom,
      });
      expect(both.json()).toMatchObject({ code: 'InvalidParameter', field: 'expire_time' });
    });

    it('keeps allowed addresses: dotted IPv4 joined by colons, or none', async () => {
      const ok = await create(w.erin.client, {
        project_resource_id: w.web,
        allow_ip: '10.0.0.1:192.168.1.20',
      });
      expect(ok.json().allow_ip).toBe('10.0.0.1:192.168.1.20');
      await remove(w.erin.client, ok.json().id);
      for (const allow_ip of ['10.0.0.1,10.0.0.2', '10.0.0', '10.0.0.300', '10.0.0.0/24']) {
        const res = await create(w.erin.client, { project_resource_id: w.web, allow_ip });
        expect(res.json(), allow_ip).toMatchObject({ code: 'InvalidParameter', field: 'allow_ip' });
      }
    });

    it('allows one live code per member and resource (TunnelExist)', async () => {
      const first = (await create(w.erin.client, { project_resource_id: w.web })).json();
      expect(failure(await create(w.erin.client, { project_resource_id: w.web }))).toBe(
        '409 TunnelExist',
      );
      // Others have their own; an expired one still counts until changed or deleted.
      const frank = await create(w.frank.client, { project_resource_id: w.web });
      expect(frank.statusCode).toBe(200);
      await t.ctx.db
        .updateTable('tunnel')
        .set({ expire_time: nowSeconds() - 10 })
        .where('id', '=', first.id)
        .execute();
      expect(failure(await create(w.erin.client, { project_resource_id: w.web }))).toBe(
        '409 TunnelExist',
      );
      await remove(w.erin.client, first.id);
      const again = await create(w.erin.client, { project_resource_id: w.web });
      expect(again.statusCode).toBe(200);
      await remove(w.erin.client, again.json().id);
      await remove(w.frank.client, frank.json().id);
    });

    it('offers safe mode only on a Linux server of a cluster in safe mode', async () => {
      const notOpen = await create(w.erin.client, { project_resource_id: w.web, safe_mode: 1 });
      expect(failure(notOpen)).toBe('400 NetworkSafeModeNotOpen');
      expect(notOpen.json().error_message).toBe('cluster safe_mode is not open');
      const windows = await create(w.erin.client, { project_resource_id: w.win, safe_mode: 1 });
      expect(failure(windows)).toBe('400 MustBeLinuxServer');
      const database = await create(w.erin.client, { project_resource_id: w.db, safe_mode: 1 });
      expect(failure(database)).toBe('400 MustBeLinuxServer');

      await t.ctx.db
        .updateTable('network')
        .set({ safe_mode: 1, safe_mode_approver: 1 })
        .where('id', '=', w.lab)
        .execute();
      const on = (await create(w.erin.client, { project_resource_id: w.web })).json();
      expect(on.safe_mode).toBe(1);
      // Leaving safe mode needs an approved application while approval is on.
      const leave = await w.erin.client.patch(`/api/tunnel/${on.id}`, { safe_mode: 0 });
      expect(failure(leave)).toBe('400 NeedApplicationSafeMode');
      await remove(w.erin.client, on.id);
      expect(
        failure(await create(w.erin.client, { project_resource_id: w.web, safe_mode: 0 })),
      ).toBe('400 NeedApplicationSafeMode');
      await t.ctx.db
        .updateTable('network')
        .set({ safe_mode_approver: 0 })
        .where('id', '=', w.lab)
        .execute();
      const off = (
        await create(w.erin.client, { project_resource_id: w.web, safe_mode: 0 })
      ).json();
      expect(off.safe_mode).toBe(0);
      expect(
        (await w.erin.client.patch(`/api/tunnel/${off.id}`, { safe_mode: 1 })).json(),
      ).toMatchObject({ safe_mode: 1 });
      // A Windows server's code never runs in safe mode.
      const win = (await create(w.erin.client, { project_resource_id: w.win })).json();
      expect(win.safe_mode).toBe(0);
      await remove(w.erin.client, win.id);
      await remove(w.erin.client, off.id);
      await t.ctx.db.updateTable('network').set({ safe_mode: 0 }).where('id', '=', w.lab).execute();
    });

    it('needs the cluster’s gateway to be available (AgentError)', async () => {
      const res = await create(w.erin.client, { project_resource_id: w.darkWeb });
      expect(failure(res)).toBe('503 AgentError');
      expect(res.json().error_message).toBe('Agent is not online');
    });

    it('finds no resource outside the caller’s workgroups or team', async () => {
      expect(failure(await create(w.gina.client, { project_resource_id: w.web }))).toBe(
        '404 ProjectResourceNotFound',
      );
      const other = await otherTeamAdmin(t);
      expect(failure(await create(other, { project_resource_id: w.web }))).toBe(
        '404 ProjectResourceNotFound',
      );
      expect(failure(await create(w.erin.client, { project_resource_id: 999_999 }))).toBe(
        '404 ProjectResourceNotFound',
      );
    });
  });

  it('tells the caller their address, for the allowed list', async () => {
    expect((await w.erin.client.get('/api/client_ip')).json()).toEqual({ ip: '127.0.0.1' });
  });

  describe('modify and delete', () => {
    it('changes the expiry within creation time plus the maximum, and the addresses', async () => {
      await setMax(7200);
      const code: CodeReply = (await create(w.erin.client, { project_resource_id: w.web })).json();
      const later = nowSeconds() + 5400;
      const res = await w.erin.client.patch(`/api/tunnel/${code.id}`, {
        expire_time: later,
        allow_ip: '10.1.1.1',
      });
      expect(res.json()).toMatchObject({
        expire_time: later,
        allow_ip: '10.1.1.1',
        code: code.code,
      });
      expect(
        failure(
          await w.erin.client.patch(`/api/tunnel/${code.id}`, { expire_time: nowSeconds() - 1 }),
        ),
      ).toBe('400 TimeNotValid');
      // The cap counts from creation: an hour after creating, now + max is too late.
      await t.ctx.db
        .updateTable('tunnel')
        .set({ created_at: nowSeconds() - 3600 })
        .where('id', '=', code.id)
        .execute();
      const tooLate = await w.erin.client.patch(`/api/tunnel/${code.id}`, {
        expire_time: nowSeconds() + 7000,
      });
      expect(failure(tooLate)).toBe('400 ExpireTimeTooBig');
      const inHours = await w.erin.client.patch(`/api/tunnel/${code.id}`, { expire: 0.5 });
      near(inHours.json().expire_time, nowSeconds() + 1800);
      expect((await w.erin.client.patch(`/api/tunnel/${code.id}`, {})).json()).toMatchObject({
        code: 'InvalidParameter',
      });
      expect((await remove(w.erin.client, code.id)).json()).toMatchObject({ status: 'disable' });
      // A deleted code stays deleted.
      expect(failure(await w.erin.client.patch(`/api/tunnel/${code.id}`, { expire: 1 }))).toBe(
        '404 TunnelNotFound',
      );
      expect(failure(await remove(w.erin.client, code.id))).toBe('404 TunnelNotFound');
      expect((await w.erin.client.get(`/api/tunnel/${code.id}`)).json().status).toBe('disable');
      await setMax(0);
    });
  });

  describe('Manage Code list and who manages which codes', () => {
    let erinCode: CodeReply;
    let frankCode: CodeReply;
    beforeAll(async () => {
      erinCode = (await create(w.erin.client, { project_resource_id: w.web })).json();
      frankCode = (await create(w.frank.client, { project_resource_id: w.web })).json();
    });

    const ids = async (client: TestClient, query = '') =>
      ((await client.get(`/api/tunnel${query}`)).json().objects as CodeReply[]).map((c) => c.id);

    it('shows a member their own codes only', async () => {
      expect(await ids(w.erin.client)).toEqual([erinCode.id]);
      expect(await ids(w.gina.client)).toEqual([]);
      expect(failure(await w.erin.client.get(`/api/tunnel/${frankCode.id}`))).toBe(
        '404 TunnelNotFound',
      );
      expect(failure(await w.erin.client.patch(`/api/tunnel/${frankCode.id}`, { expire: 1 }))).toBe(
        '404 TunnelNotFound',
      );
      expect(failure(await remove(w.gina.client, erinCode.id))).toBe('404 TunnelNotFound');
    });

    it('shows the workgroup administrator and the team administrator every code, masked', async () => {
      for (const client of [w.frank.client, w.admin]) {
        const list = (await client.get(`/api/tunnel?project_resource_id=${w.web}`)).json();
        const erins = list.objects.find((c: CodeReply) => c.id === erinCode.id);
        expect(erins).toMatchObject({ masked: true, connect: null });
        expect(erins.code).toBe(`${erinCode.code.slice(0, 4)}****${erinCode.code.slice(-2)}`);
      }
      expect(await ids(w.frank.client, `?account_id=${w.erin.id}`)).toEqual([erinCode.id]);
      expect(await ids(w.frank.client, '?type=tmp_share')).toEqual([]);
    });

    it('filters by expiry, flags expired codes, and lists deleted ones on request', async () => {
      await t.ctx.db
        .updateTable('tunnel')
        .set({ expire_time: nowSeconds() - 5 })
        .where('id', '=', erinCode.id)
        .execute();
      const list = (await w.frank.client.get('/api/tunnel')).json();
      expect(list.objects.find((c: CodeReply) => c.id === erinCode.id).expired).toBe(true);
      expect(await ids(w.frank.client, `?expire_time_gt=${nowSeconds()}`)).toEqual([frankCode.id]);
      // The workgroup administrator changes and deletes a member's code.
      const changed = await w.frank.client.patch(`/api/tunnel/${erinCode.id}`, { expire: 1 });
      expect(changed.json()).toMatchObject({ expired: false, masked: true });
      expect((await remove(w.frank.client, erinCode.id)).statusCode).toBe(200);
      expect(await ids(w.erin.client)).toEqual([]);
      // Her earlier, deleted codes are there too.
      expect(await ids(w.erin.client, '?status=disable')).toContain(erinCode.id);
    });

    it('disables a member’s codes when they leave the workgroup', async () => {
      const code = (await create(w.erin.client, { project_resource_id: w.win })).json();
      await w.admin.request('DELETE', `/api/v1/project/members/${w.wg}`, {
        account_ids: [w.erin.id],
      });
      const row = await t.ctx.db
        .selectFrom('tunnel')
        .select('status')
        .where('id', '=', code.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('disable');
      // Frank's (a member still) is untouched.
      expect((await w.frank.client.get(`/api/tunnel/${frankCode.id}`)).json().status).toBe(
        'enable',
      );
      expect(failure(await w.erin.client.get(`/api/tunnel/${code.id}`))).toBe('404 TunnelNotFound');
      await w.admin.post(`/api/v1/project/members/${w.wg}`, { account_ids: [w.erin.id] });
    });
  });
});
