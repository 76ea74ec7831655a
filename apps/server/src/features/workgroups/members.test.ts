/**
 * Members and groups of a workgroup (spec 2 §2 workgroup detail members and groups tabs, the
 * member's workgroups page, §7 members, groups, bulk add and delete): roles, the Exist codes,
 * workgroup administrators managing their own workgroup's members, and the events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { createOtherTeam } from '../team/test-fixtures';
import {
  addMembersTo,
  createCluster,
  createWorkgroup,
  defaultWorkgroupOf,
  failure,
  member,
} from './test-fixtures';

interface MemberRow {
  id: number;
  account: string;
  role: number;
}

describe('workgroup members and groups', () => {
  let t: TestApp;
  let admin: TestClient;
  let alice: { id: number; client: TestClient };
  let bob: { id: number; client: TestClient };
  let carol: { id: number; client: TestClient };
  let otherTeamAccount: number;
  let wg: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    alice = await member(t, 'alice@demo.local');
    bob = await member(t, 'bob@demo.local');
    carol = await member(t, 'carol@demo.local');
    otherTeamAccount = (await createOtherTeam(t)).adminId;
    wg = await createWorkgroup(admin, 'Platform');
  });
  afterAll(() => t.close());

  const members = async (id: number, client = admin, query = '') =>
    (await client.get(`/api/v1/project/members/${id}${query}`)).json();
  const removeMembers = (id: number, accountIds: number[], client = admin) =>
    client.request('DELETE', `/api/v1/project/members/${id}`, { account_ids: accountIds });

  describe('members', () => {
    it('distributes members as administrators or ordinary members', async () => {
      await addMembersTo(admin, wg, [alice.id], 1);
      await addMembersTo(admin, wg, [bob.id]);
      const list = await members(wg);
      expect(list.num_results).toBe(2);
      expect(list.objects.map((m: MemberRow) => [m.account, m.role]).sort()).toEqual([
        ['alice@demo.local', 1],
        ['bob@demo.local', 0],
      ]);
      expect((await members(wg, admin, '?key=ALICE')).objects).toHaveLength(1);
      expect((await admin.get(`/api/v1/project/${wg}`)).json().account_count).toBe(2);
    });

    it('refuses a member already in it (ProjectAccountExist), adding nobody', async () => {
      const res = await admin.post(`/api/v1/project/members/${wg}`, {
        account_ids: [carol.id, bob.id],
      });
      expect(failure(res)).toBe('409 ProjectAccountExist');
      expect((await members(wg)).num_results).toBe(2);
    });

    it('refuses an account of another team or none at all', async () => {
      for (const ids of [[otherTeamAccount], [999_999]]) {
        const res = await admin.post(`/api/v1/project/members/${wg}`, { account_ids: ids });
        expect(failure(res), JSON.stringify(ids)).toBe('404 AccountNotFound');
      }
      const none = await admin.post(`/api/v1/project/members/${wg}`, { account_ids: [] });
      expect(none.json()).toMatchObject({ code: 'InvalidParameter', field: 'account_ids' });
    });

    it('changes a member’s role, and refuses someone who is not a member', async () => {
      const res = await admin.patch(`/api/project/${wg}/member`, { account_id: bob.id, role: 1 });
      expect(res.json()).toMatchObject({ id: bob.id, role: 1 });
      await admin.patch(`/api/project/${wg}/member`, { account_id: bob.id, role: 0 });
      expect(
        failure(await admin.patch(`/api/project/${wg}/member`, { account_id: carol.id, role: 1 })),
      ).toBe('404 AccountNotFound');
      const bad = await admin.patch(`/api/project/${wg}/member`, { account_id: bob.id, role: 2 });
      expect(bad.json()).toMatchObject({ code: 'InvalidParameter', field: 'role' });
    });

    it('lets the workgroup’s administrator manage its members, not an ordinary member', async () => {
      // Alice administers the workgroup.
      await addMembersTo(alice.client, wg, [carol.id]);
      expect((await members(wg, alice.client)).num_results).toBe(3);
      expect(
        (await alice.client.patch(`/api/project/${wg}/member`, { account_id: carol.id, role: 1 }))
          .statusCode,
      ).toBe(200);
      expect((await removeMembers(wg, [carol.id], alice.client)).statusCode).toBe(200);
      // Bob is an ordinary member: he sees the workgroup but may not manage it.
      expect((await bob.client.get(`/api/v1/project/${wg}`)).json()).toMatchObject({
        my_role: 0,
        can_manage: false,
      });
      for (const res of [
        await bob.client.get(`/api/v1/project/members/${wg}`),
        await bob.client.post(`/api/v1/project/members/${wg}`, { account_ids: [carol.id] }),
        await bob.client.patch(`/api/project/${wg}/member`, { account_id: bob.id, role: 1 }),
        await removeMembers(wg, [alice.id], bob.client),
      ])
        expect(failure(res)).toBe('403 NeedPrivilege');
      // Carol is no longer a member: for her the workgroup does not exist.
      expect(failure(await carol.client.get(`/api/v1/project/members/${wg}`))).toBe(
        '404 ProjectNotFound',
      );
      // A workgroup administrator has no Configuration role: the admin pages stay closed.
      expect(failure(await alice.client.get(`/api/v1/project/groups/${wg}`))).toBe(
        '403 NeedPrivilege',
      );
      expect(failure(await alice.client.post('/api/v1/project', { name: 'Mine' }))).toBe(
        '403 NeedPrivilege',
      );
    });

    it('offers the Distribute picker the team members not in it yet, to those who manage it', async () => {
      const candidates = async (client: TestClient, query = '') =>
        (await client.get(`/api/v1/project/members/${wg}/candidates${query}`)).json() as {
          id: number;
          account: string;
        }[];
      // Alice and Bob are members; Carol (removed above) and the administrator are not.
      const forAdmin = (await candidates(admin)).map((m) => m.id);
      expect(forAdmin).toContain(carol.id);
      expect(forAdmin).not.toContain(alice.id);
      expect(forAdmin).not.toContain(bob.id);
      expect(forAdmin).not.toContain(otherTeamAccount);
      // The workgroup administrator Alice gets the same, searched by account.
      expect((await candidates(alice.client, '?key=CAROL')).map((m) => m.account)).toEqual([
        'carol@demo.local',
      ]);
      expect(await candidates(alice.client, '?key=nobody-here')).toEqual([]);
      // An ordinary member learns no names; a stranger learns the workgroup does not exist.
      expect(failure(await bob.client.get(`/api/v1/project/members/${wg}/candidates`))).toBe(
        '403 NeedPrivilege',
      );
      expect(failure(await carol.client.get(`/api/v1/project/members/${wg}/candidates`))).toBe(
        '404 ProjectNotFound',
      );
    });

    it('removes members, refusing one who is not a member', async () => {
      expect(failure(await removeMembers(wg, [carol.id]))).toBe('404 AccountNotFound');
      expect((await removeMembers(wg, [bob.id])).statusCode).toBe(200);
      expect((await members(wg)).objects.map((m: MemberRow) => m.id)).toEqual([alice.id]);
    });
  });

  describe('groups', () => {
    let devs: number;
    let ops: number;
    beforeAll(async () => {
      devs = (await admin.post('/api/v1/group', { name: 'Devs' })).json().id;
      ops = (await admin.post('/api/v1/group', { name: 'Ops' })).json().id;
      await admin.post(`/api/v1/group/members/${devs}`, { members: [bob.id, carol.id] });
    });
    const removeGroups = (id: number, groupIds: number[]) =>
      admin.request('DELETE', `/api/v1/project/groups/${id}`, { group_ids: groupIds });

    it('gives groups the workgroup and lists them with their member counts', async () => {
      const res = await admin.post(`/api/v1/project/groups/${wg}`, { group_ids: [devs, ops] });
      expect(res.statusCode).toBe(200);
      const list = (await admin.get(`/api/v1/project/groups/${wg}`)).json();
      expect(list.num_results).toBe(2);
      expect(
        list.objects.map((g: { name: string; member_count: number }) => [g.name, g.member_count]),
      ).toEqual(
        expect.arrayContaining([
          ['Devs', 2],
          ['Ops', 0],
        ]),
      );
      expect((await admin.get(`/api/v1/project/${wg}`)).json().group_count).toBe(2);
    });

    it('refuses a group it has (ProjectGroupExist) and a group of nobody’s team', async () => {
      expect(failure(await admin.post(`/api/v1/project/groups/${wg}`, { group_ids: [devs] }))).toBe(
        '409 ProjectGroupExist',
      );
      expect(
        failure(await admin.post(`/api/v1/project/groups/${wg}`, { group_ids: [999_999] })),
      ).toBe('404 GroupNotFound');
    });

    it('shows a group’s members 10 a page, only for its own groups', async () => {
      const res = (await admin.get(`/api/project/${wg}/group?group_id=${devs}&page_size=1`)).json();
      expect(res).toMatchObject({ num_results: 2, total_pages: 2, page: 1 });
      const defaults = (await admin.get(`/api/project/${wg}/group?group_id=${devs}`)).json();
      expect(defaults.objects.map((m: { account: string }) => m.account)).toEqual([
        'bob@demo.local',
        'carol@demo.local',
      ]);
      const other = await createWorkgroup(admin, 'No groups');
      expect(failure(await admin.get(`/api/project/${other}/group?group_id=${devs}`))).toBe(
        '404 ProjectGroupNotFound',
      );
    });

    it('lets group members see the workgroup, until the group is taken away', async () => {
      expect((await carol.client.get(`/api/v1/project/${wg}`)).json()).toMatchObject({
        name: 'Platform',
        my_role: null,
        can_manage: false,
      });
      expect(failure(await removeGroups(wg, [devs, 999_999]))).toBe('404 ProjectGroupNotFound');
      expect((await removeGroups(wg, [devs])).statusCode).toBe(200);
      expect(failure(await carol.client.get(`/api/v1/project/${wg}`))).toBe('404 ProjectNotFound');
      await admin.post(`/api/v1/project/groups/${wg}`, { group_ids: [devs] });
    });
  });

  describe('a member’s workgroups', () => {
    it('lists the workgroups a member reaches, directly or through groups', async () => {
      const res = (await admin.get(`/api/v1/project/get_project_by_account/${bob.id}`)).json();
      expect(res.objects).toEqual([
        expect.objectContaining({ id: wg, name: 'Platform', role: null, groups: ['Devs'] }),
      ]);
      const a = (await admin.get(`/api/v1/project/get_project_by_account/${alice.id}`)).json();
      expect(a.objects).toEqual([expect.objectContaining({ id: wg, role: 1, groups: [] })]);
      expect(
        failure(await admin.get(`/api/v1/project/get_project_by_account/${otherTeamAccount}`)),
      ).toBe('404 AccountNotFound');
    });

    it('distributes a member to several workgroups at once, or to none when one has them', async () => {
      const cluster = await createCluster(admin, 'Edge');
      const edge = await defaultWorkgroupOf(admin, cluster.id);
      const extra = await createWorkgroup(admin, 'Extra');
      const dup = await admin.post('/api/project/bulk_add_project', {
        account_id: alice.id,
        project_ids: [edge, wg],
      });
      expect(failure(dup)).toBe('409 ProjectAccountExist');
      expect(
        failure(
          await admin.post('/api/project/bulk_add_project', {
            account_id: carol.id,
            project_ids: [edge, 999_999],
          }),
        ),
      ).toBe('404 ProjectNotFound');
      const ok = await admin.post('/api/project/bulk_add_project', {
        account_id: carol.id,
        project_ids: [edge, extra],
        role: 1,
      });
      expect(ok.statusCode).toBe(200);
      const mine = (await admin.get(`/api/v1/project/get_project_by_account/${carol.id}`)).json();
      expect(
        mine.objects.map((w: { name: string; role: number | null; is_default: boolean }) => [
          w.name,
          w.role,
          w.is_default,
        ]),
      ).toEqual(
        expect.arrayContaining([
          ['Edge', 1, true],
          ['Extra', 1, false],
          ['Platform', null, false],
        ]),
      );
    });

    it('takes a member out of several workgroups (Exit), only where they are members', async () => {
      const ids = (await admin.get(`/api/v1/project/get_project_by_account/${carol.id}`))
        .json()
        .objects.filter((w: { role: number | null }) => w.role !== null)
        .map((w: { id: number }) => w.id);
      const notMember = await admin.request('DELETE', '/api/project/bulk_delete_project', {
        account_id: carol.id,
        project_ids: [...ids, wg],
      });
      expect(failure(notMember)).toBe('404 AccountNotFound');
      const res = await admin.request('DELETE', '/api/project/bulk_delete_project', {
        account_id: carol.id,
        project_ids: ids,
      });
      expect(res.statusCode).toBe(200);
      const left = (await admin.get(`/api/v1/project/get_project_by_account/${carol.id}`)).json();
      expect(left.objects.map((w: { name: string }) => w.name)).toEqual(['Platform']);
    });
  });

  it('writes the member and group events', async () => {
    const log = (await admin.get('/api/event/get_project_log?project_name=Platform&page_size=100'))
      .json()
      .objects.map((e: { event: string; project_account: string; group: string }) =>
        [e.event, e.project_account || e.group].join(' '),
      );
    expect(log).toEqual(
      expect.arrayContaining([
        'addProjectAccount alice@demo.local',
        'addProjectAdmin alice@demo.local',
        'addProjectAccount bob@demo.local',
        'addProjectAdmin bob@demo.local',
        'deleteProjectAdmin bob@demo.local',
        'deleteProjectAccount bob@demo.local',
        'addProjectGroup Devs',
        'deleteProjectGroup Devs',
      ]),
    );
  });
});
