/**
 * Who sees what (issue 5), across two teams: a member sees a workgroup, its resources, login
 * users and codes only through membership, directly or through a group; administrators see all
 * of their team's and nothing of another's. For every route of the issue, a caller who may not
 * see the workgroup, resource or code gets exactly the answer a made-up id gets, and nothing
 * changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import type { AppError } from '../../lib/app-error';
import { resolveCode } from '../codes/resolve';
import { createOtherTeam, otherTeamAdmin } from '../team/test-fixtures';
import {
  addLinux,
  addMembersTo,
  addResourcesTo,
  connectGateway,
  createCluster,
  createWorkgroup,
  member,
  projectResourceId,
} from './test-fixtures';

interface Ids {
  wg: number;
  pr: number;
  code: number;
}

/** `self` is the caller's own account id (to try adding oneself). */
type Call = (c: TestClient, ids: Ids, self: number) => ReturnType<TestClient['request']>;

const MISSING: Ids = { wg: 999_999, pr: 999_998, code: 999_997 };

describe('visibility of workgroups, resources and codes', () => {
  let t: TestApp;
  let admin: TestClient;
  let real: Ids;
  let web: number;
  let groupId: number;
  let direct: { id: number; client: TestClient };
  let viaGroup: { id: number; client: TestClient };
  let outsider: { id: number; client: TestClient };
  let opt: { id: number; client: TestClient };
  let otherAdmin: TestClient;
  let otherAdminId: number;
  let otherWg: number;
  let theirs: number;
  let theirWeb: number;
  let hiddenWg: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    const lab = (await createCluster(admin, 'Lab')).id;
    await connectGateway(t, lab);
    web = await addLinux(admin, lab, 'web-1', '10.0.0.1');
    const wg = await createWorkgroup(admin, 'Visible');
    hiddenWg = await createWorkgroup(admin, 'Hidden');
    await addResourcesTo(admin, wg, [web]);
    await addResourcesTo(admin, hiddenWg, [web]);
    direct = await member(t, 'direct@demo.local');
    viaGroup = await member(t, 'viagroup@demo.local');
    outsider = await member(t, 'outsider@demo.local');
    opt = await member(t, 'opt@demo.local', 3);
    await addMembersTo(admin, wg, [direct.id]);
    groupId = (await admin.post('/api/v1/group', { name: 'Readers' })).json().id;
    await admin.post(`/api/v1/group/members/${groupId}`, { members: [viaGroup.id] });
    await admin.post(`/api/v1/project/groups/${wg}`, { group_ids: [groupId] });
    const pr = await projectResourceId(admin, wg, web);
    const code = (await direct.client.post('/api/tunnel', { project_resource_id: pr })).json().id;
    real = { wg, pr, code };

    // The second team, with its own cluster, workgroup and member.
    otherAdminId = (await createOtherTeam(t)).adminId;
    otherAdmin = await otherTeamAdmin(t);
    theirs = (await otherAdmin.post('/api/v1/network', { name: 'Theirs' })).json().id;
    theirWeb = await addLinux(otherAdmin, theirs, 'their-web', '10.0.0.1');
    otherWg = await createWorkgroup(otherAdmin, 'Visible');
    await addResourcesTo(otherAdmin, otherWg, [theirWeb]);
  });
  afterAll(() => t.close());

  const names = async (c: TestClient, query = '') =>
    ((await c.get(`/api/v1/project/list${query}`)).json().objects as { name: string }[])
      .map((w) => w.name)
      .sort();

  it('lists a member’s workgroups only, and all of the team’s for administrators', async () => {
    expect(await names(direct.client)).toEqual(['Visible']);
    expect(await names(viaGroup.client)).toEqual(['Visible']);
    expect(await names(outsider.client)).toEqual([]);
    expect(await names(admin)).toEqual(['Hidden', 'Lab', 'Visible']);
    expect(await names(opt.client)).toEqual(['Hidden', 'Lab', 'Visible']);
    // The other team sees its own only (its cluster's default and its workgroup).
    expect(await names(otherAdmin)).toEqual(['Theirs', 'Visible']);
    // Searching by address finds nothing of another team's either.
    expect(await names(otherAdmin, '?q_ip=10.0.0.1')).toEqual(['Theirs', 'Visible']);
    expect(await names(outsider.client, '?q_ip=10.0.0.1')).toEqual([]);
    // An administrator may ask which workgroups a member reaches; a member may not ask for others.
    expect(await names(admin, `?account_id=${viaGroup.id}`)).toEqual(['Visible']);
    expect(await names(direct.client, `?account_id=${outsider.id}`)).toEqual(['Visible']);
  });

  it('lets members reach the workgroup’s resources directly and through the group', async () => {
    for (const c of [direct.client, viaGroup.client]) {
      expect((await c.get(`/api/v1/project/${real.wg}`)).statusCode).toBe(200);
      const rows = (await c.get(`/api/v1/project/resources/${real.wg}`)).json();
      expect(rows.objects.map((r: { id: number }) => r.id)).toEqual([real.pr]);
      expect((await c.get(`/api/project_resource/${real.pr}`)).json().login_user).toEqual([
        'root',
        'deploy',
      ]);
    }
    const viaGroupCode = await viaGroup.client.post('/api/tunnel', {
      project_resource_id: real.pr,
    });
    expect(viaGroupCode.statusCode).toBe(200);
    // Members see only their own codes; the code of the other is not theirs to read.
    const list = (await viaGroup.client.get('/api/tunnel')).json();
    expect(list.objects.map((c: { id: number }) => c.id)).toEqual([viaGroupCode.json().id]);
    // The administrator reaches the resource through every workgroup that holds it.
    const hiddenPr = await projectResourceId(admin, hiddenWg, web);
    expect((await admin.get(`/api/project_resource/${hiddenPr}`)).statusCode).toBe(200);
    for (const c of [direct.client, viaGroup.client])
      expect((await c.get(`/api/project_resource/${hiddenPr}`)).json().code).toBe(
        'ProjectResourceNotFound',
      );
  });

  const calls: [string, Call][] = [
    ['get workgroup', (c, i) => c.get(`/api/v1/project/${i.wg}`)],
    ['update workgroup', (c, i) => c.patch(`/api/v1/project/${i.wg}`, { desc: 'taken over' })],
    ['delete workgroup', (c, i) => c.delete(`/api/v1/project/${i.wg}`)],
    [
      'star workgroup',
      (c, i) => c.request('PUT', `/api/project/${i.wg}/favourite`, { favourite: 1 }),
    ],
    ['list resources', (c, i) => c.get(`/api/v1/project/resources/${i.wg}?type=ecs`)],
    ['list candidates', (c, i) => c.get(`/api/v1/project/resources/${i.wg}/candidates`)],
    [
      'add resources',
      (c, i) => c.post(`/api/v1/project/resources/${i.wg}`, { resource_ids: [web] }),
    ],
    [
      'remove resources',
      (c, i) => c.request('DELETE', `/api/v1/project/resources/${i.wg}`, { resource_ids: [web] }),
    ],
    ['export resources', (c, i) => c.get(`/api/v1/project/resources/${i.wg}/export`)],
    ['ansible hosts', (c, i) => c.get(`/api/project/${i.wg}/hosts?type=ansible&export=true`)],
    ['get project resource', (c, i) => c.get(`/api/project_resource/${i.pr}`)],
    [
      'set login users',
      (c, i) =>
        c.request('PUT', `/api/project_resource/${i.pr}/login_username`, {
          login_username: ['root'],
        }),
    ],
    [
      'set default user',
      (c, i) =>
        c.request('PUT', `/api/project_resource/${i.pr}/default_username`, {
          default_username: 'root',
        }),
    ],
    ['list members', (c, i) => c.get(`/api/v1/project/members/${i.wg}`)],
    ['member candidates', (c, i) => c.get(`/api/v1/project/members/${i.wg}/candidates`)],
    [
      'add a member',
      (c, i, self) => c.post(`/api/v1/project/members/${i.wg}`, { account_ids: [self] }),
    ],
    [
      'change a role',
      (c, i) => c.patch(`/api/project/${i.wg}/member`, { account_id: direct.id, role: 1 }),
    ],
    [
      'remove a member',
      (c, i) =>
        c.request('DELETE', `/api/v1/project/members/${i.wg}`, { account_ids: [direct.id] }),
    ],
    ['list groups', (c, i) => c.get(`/api/v1/project/groups/${i.wg}`)],
    ['add a group', (c, i) => c.post(`/api/v1/project/groups/${i.wg}`, { group_ids: [groupId] })],
    [
      'remove a group',
      (c, i) => c.request('DELETE', `/api/v1/project/groups/${i.wg}`, { group_ids: [groupId] }),
    ],
    ['group members', (c, i) => c.get(`/api/project/${i.wg}/group?group_id=${groupId}`)],
    [
      'join workgroups',
      (c, i, self) =>
        c.post('/api/project/bulk_add_project', {
          account_id: self,
          project_ids: [i.wg],
        }),
    ],
    [
      'exit workgroups',
      (c, i) =>
        c.request('DELETE', '/api/project/bulk_delete_project', {
          account_id: direct.id,
          project_ids: [i.wg],
        }),
    ],
    ['create a code', (c, i) => c.post('/api/tunnel', { project_resource_id: i.pr })],
    [
      'temporary authorization',
      (c, i) =>
        c.post('/api/tunnel/tmp_share', {
          project_resource_id: i.pr,
          username: 'root',
          psw: 'Tmp#Pass1',
        }),
    ],
    ['get a code', (c, i) => c.get(`/api/tunnel/${i.code}`)],
    ['change a code', (c, i) => c.patch(`/api/tunnel/${i.code}`, { expire: 1 })],
    ['delete a code', (c, i) => c.patch(`/api/tunnel/${i.code}`, { status: 'disable' })],
    ['list codes', (c, i) => c.get(`/api/tunnel?project_resource_id=${i.pr}`)],
  ];

  const outsiders: [string, () => { client: TestClient; self: number; role: number }][] = [
    ['a member outside the workgroup', () => ({ ...outsider, self: outsider.id, role: 0 })],
    ['another team’s administrator', () => ({ client: otherAdmin, self: otherAdminId, role: 1 })],
  ];

  describe.each(outsiders)('for %s', (_who, caller) => {
    it.each(calls)('%s answers as for an id that does not exist', async (_name, call) => {
      const { client, self, role } = caller();
      const forMissing = await call(client, MISSING, self);
      const forReal = await call(client, real, self);
      expect(forReal.statusCode).toBe(forMissing.statusCode);
      expect(forReal.json().code).toBe(forMissing.json().code);
      if (forReal.statusCode === 200) {
        // Only the code list answers 200, and then with nothing.
        expect(forReal.json()).toMatchObject({ num_results: 0, objects: [] });
      } else if (role === 1) {
        // An administrator passes every role check: the answer is the not-found one.
        expect(forReal.statusCode, forReal.body).toBe(404);
      } else {
        // A member is refused the Configuration routes by role, and finds nothing elsewhere.
        expect([403, 404], forReal.body).toContain(forReal.statusCode);
      }
    });
  });

  it('left everything as it was', async () => {
    const wg = (await admin.get(`/api/v1/project/${real.wg}`)).json();
    expect(wg).toMatchObject({ desc: '', resource_count: 1, account_count: 1, group_count: 1 });
    const members = (await admin.get(`/api/v1/project/members/${real.wg}`)).json();
    expect(members.objects.map((m: { id: number; role: number }) => [m.id, m.role])).toEqual([
      [direct.id, 0],
    ]);
    const code = (await direct.client.get(`/api/tunnel/${real.code}`)).json();
    expect(code).toMatchObject({ status: 'enable', masked: false });
    expect(
      (await admin.get(`/api/project_resource/${real.pr}`)).json().resource.extension
        .login_username,
    ).toEqual(['root', 'deploy']);
    // Nobody outside got a code or a star.
    const codes = await t.ctx.db
      .selectFrom('tunnel')
      .select('account_id')
      .where('account_id', 'in', [outsider.id, otherAdminId])
      .execute();
    expect(codes).toEqual([]);
    const stars = await t.ctx.db.selectFrom('project_favourite').selectAll().execute();
    expect(stars).toEqual([]);
    // The other team's workgroup of the same name is untouched by our team's acts.
    expect((await otherAdmin.get(`/api/v1/project/${otherWg}`)).json().resource_count).toBe(1);
  });

  it('reaches a shared cluster’s resources while the share lasts', async () => {
    await connectGateway(t, theirs);
    // Before sharing, the other team's resource is nobody's to add.
    expect(
      (
        await admin.post(`/api/v1/project/resources/${real.wg}`, { resource_ids: [theirWeb] })
      ).json().code,
    ).toBe('ResourceNotFound');
    await otherAdmin.patch(`/api/network/${theirs}/sharing`, { action: 'add', domain: 'demo' });
    const candidates = (await admin.get(`/api/v1/project/resources/${real.wg}/candidates`)).json();
    expect(candidates.objects).toEqual([
      expect.objectContaining({ id: theirWeb, network_name: 'Theirs', shared: true }),
    ]);
    await addResourcesTo(admin, real.wg, [theirWeb]);
    const pr = await projectResourceId(admin, real.wg, theirWeb);
    const code = (await direct.client.post('/api/tunnel', { project_resource_id: pr })).json();
    const resolved = await resolveCode(t.ctx, {
      networkId: theirs,
      code: code.code,
      clientIp: '127.0.0.1',
    });
    expect(resolved).toMatchObject({ company_id: 1, account: { id: direct.id } });

    const shares = (await otherAdmin.get(`/api/network/${theirs}/sharing`)).json();
    await otherAdmin.patch(`/api/network/${theirs}/sharing`, {
      action: 'cancel',
      share_id: shares[0].id,
    });
    expect((await admin.get(`/api/v1/project/${real.wg}`)).json().resource_count).toBe(1);
    expect((await direct.client.get(`/api/project_resource/${pr}`)).json().code).toBe(
      'ProjectResourceNotFound',
    );
    const refused = await resolveCode(t.ctx, {
      networkId: theirs,
      code: code.code,
      clientIp: '127.0.0.1',
    }).catch((error: AppError) => error.code);
    expect(refused).toBe('TunnelNotFound');
  });
});
