/**
 * Groups of members (spec 2 §2 group detail, §5 group rules): create, list, read, rename,
 * delete, and the members of a group, each limited to the caller's team.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, otherTeamAdmin } from './test-fixtures';

interface GroupReply {
  id: number;
  name: string;
  note: string;
  member_count: number;
}

describe('groups', () => {
  let t: TestApp;
  let admin: TestClient;
  let otherAdminId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    otherAdminId = (await createOtherTeam(t)).adminId;
  });
  afterAll(() => t.close());

  async function create(name: string, note?: string): Promise<GroupReply> {
    const res = await admin.post('/api/v1/group', { name, ...(note !== undefined && { note }) });
    if (res.statusCode !== 200) throw new Error(`create group: ${res.body}`);
    return res.json();
  }

  const removeMembers = (id: number, members: number[]) =>
    admin.request('DELETE', `/api/v1/group/members/${id}`, { members });

  describe('create', () => {
    it('creates a group, trimmed, with no members', async () => {
      const res = await admin.post('/api/v1/group', {
        name: '  Operators ',
        note: ' night shift ',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Operators', note: 'night shift', member_count: 0 });
      const read = await admin.get(`/api/v1/group/${res.json().id}`);
      expect(read.json()).toMatchObject({
        name: 'Operators',
        note: 'night shift',
        member_count: 0,
      });
      expect((await create('No note')).note).toBe('');
    });

    it('takes a name of 2 to 20 characters and a note up to 140', async () => {
      expect((await create('ab')).name).toBe('ab');
      expect((await create('n'.repeat(20))).name).toBe('n'.repeat(20));
      expect((await create('Long note', 'x'.repeat(140))).note).toHaveLength(140);
    });

    it('refuses a name of 1 or 21 characters, a blank one, and a note of 141, creating nothing', async () => {
      const before = (await admin.get('/api/v1/group/list')).json().num_results;
      for (const [body, field] of [
        [{ name: 'a' }, 'name'],
        [{ name: 'b'.repeat(21) }, 'name'],
        [{ name: '    ' }, 'name'],
        [{}, 'name'],
        [{ name: 'Fine name', note: 'y'.repeat(141) }, 'note'],
      ] as const) {
        const res = await admin.post('/api/v1/group', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'InvalidParameter', field });
      }
      expect((await admin.get('/api/v1/group/list')).json().num_results).toBe(before);
    });

    it('refuses a name that exists, in any case', async () => {
      await create('Developers');
      for (const name of ['Developers', 'DEVELOPERS', ' developers ']) {
        const res = await admin.post('/api/v1/group', { name });
        expect(res.statusCode, name).toBe(409);
        expect(res.json().code).toBe('GroupNameExist');
      }
      // Another team may have a group of that name.
      const other = await otherTeamAdmin(t);
      expect((await other.post('/api/v1/group', { name: 'Developers' })).statusCode).toBe(200);
    });
  });

  describe('list, read, rename, delete', () => {
    it('lists the groups newest first, paged, searched by name without regard to case', async () => {
      for (const n of ['Search one', 'Search two', 'search 100%', 'Unrelated']) await create(n);
      const res = (await admin.get('/api/v1/group/list?q_name=SEARCH&page_size=2')).json();
      expect(res).toMatchObject({ num_results: 3, total_pages: 2, page: 1 });
      expect(res.objects.map((g: GroupReply) => g.name)).toEqual(['search 100%', 'Search two']);
      const page2 = (await admin.get('/api/v1/group/list?q_name=search&page_size=2&page=2')).json();
      expect(page2.objects.map((g: GroupReply) => g.name)).toEqual(['Search one']);
      const literal = (await admin.get('/api/v1/group/list?q_name=0%25')).json();
      expect(literal.objects.map((g: GroupReply) => g.name)).toEqual(['search 100%']);
    });

    it("never lists another team's groups", async () => {
      const other = await otherTeamAdmin(t);
      await other.post('/api/v1/group', { name: 'Their secret group' });
      const res = (await admin.get('/api/v1/group/list?q_name=secret')).json();
      expect(res.num_results).toBe(0);
    });

    it('renames a group and changes its note; a rename onto another group is refused', async () => {
      const g = await create('Rename me', 'old');
      await create('Taken name');
      const res = await admin.patch(`/api/v1/group/${g.id}`, { name: ' Renamed ', note: 'new' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: g.id, name: 'Renamed', note: 'new' });
      // A change of case of its own name is no clash.
      expect((await admin.patch(`/api/v1/group/${g.id}`, { name: 'RENAMED' })).statusCode).toBe(
        200,
      );
      const clash = await admin.patch(`/api/v1/group/${g.id}`, { name: 'taken NAME' });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().code).toBe('GroupNameExist');
      // On edit the name is required and at most 20 characters (spec 2 §5).
      for (const name of ['', '  ', 'z'.repeat(21)]) {
        const bad = await admin.patch(`/api/v1/group/${g.id}`, { name });
        expect(bad.json(), name).toMatchObject({ code: 'InvalidParameter', field: 'name' });
      }
      expect((await admin.get(`/api/v1/group/${g.id}`)).json()).toMatchObject({
        name: 'RENAMED',
        note: '',
      });
    });

    it('deletes a group; its members stay in the team', async () => {
      const g = await create('Short lived');
      const m = await addMember(t, 'survivor@demo.local', 0);
      await admin.post(`/api/v1/group/members/${g.id}`, { members: [m.id] });
      const res = await admin.delete(`/api/group/${g.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const gone = await admin.get(`/api/v1/group/${g.id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe('GroupNotFound');
      expect((await admin.get('/api/account?key=survivor')).json().num_results).toBe(1);
      expect(
        (await signedIn(t, 'survivor@demo.local', 'Member#Pass1')).cookies.size,
      ).toBeGreaterThan(0);
      // The name is free again.
      expect((await create('Short lived')).member_count).toBe(0);
    });
  });

  describe('members of a group', () => {
    let group: GroupReply;
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      group = await create('Member test');
      for (const who of ['gm-ann', 'gm-bob', 'gm-cid', 'gm-dan']) {
        ids[who] = (await addMember(t, `${who}@demo.local`, 0)).id;
      }
      await t.ctx.db
        .updateTable('account')
        .set({ name: 'Annabel Lee' })
        .where('id', '=', ids['gm-ann']!)
        .execute();
    });

    it('adds members and counts them', async () => {
      const res = await admin.post(`/api/v1/group/members/${group.id}`, {
        members: [ids['gm-ann'], ids['gm-bob'], ids['gm-cid']],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect((await admin.get(`/api/v1/group/${group.id}`)).json().member_count).toBe(3);
      const listed = (await admin.get('/api/v1/group/list?q_name=member+test')).json().objects[0];
      expect(listed.member_count).toBe(3);
    });

    it('refuses a member already in the group, adding none of the list', async () => {
      const res = await admin.post(`/api/v1/group/members/${group.id}`, {
        members: [ids['gm-dan'], ids['gm-bob']],
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('GroupAccountExist');
      expect((await admin.get(`/api/v1/group/${group.id}`)).json().member_count).toBe(3);
    });

    it("refuses another team's account and an unknown id with AccountNotFound, adding none", async () => {
      for (const stranger of [otherAdminId, 999_999]) {
        const res = await admin.post(`/api/v1/group/members/${group.id}`, {
          members: [ids['gm-dan'], stranger],
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('AccountNotFound');
      }
      expect((await admin.get(`/api/v1/group/${group.id}`)).json().member_count).toBe(3);
      for (const members of [[], [0], ['x']]) {
        const res = await admin.post(`/api/v1/group/members/${group.id}`, { members });
        expect(res.json(), JSON.stringify(members)).toMatchObject({ code: 'InvalidParameter' });
      }
    });

    it('lists the members, paged, searched by name or account without regard to case', async () => {
      const all = (await admin.get(`/api/v1/group/members/${group.id}?page_size=2`)).json();
      expect(all).toMatchObject({ num_results: 3, total_pages: 2 });
      expect(all.objects).toHaveLength(2);
      const byName = (await admin.get(`/api/v1/group/members/${group.id}?key=ANNABEL`)).json();
      expect(byName.objects.map((m: { account: string }) => m.account)).toEqual([
        'gm-ann@demo.local',
      ]);
      const byAccount = (await admin.get(`/api/v1/group/members/${group.id}?key=GM-BOB`)).json();
      expect(byAccount.objects.map((m: { name: string }) => m.name)).toEqual(['gm-bob']);
      // gm-dan is in the team but not in the group.
      const outside = (await admin.get(`/api/v1/group/members/${group.id}?key=gm-dan`)).json();
      expect(outside.num_results).toBe(0);
    });

    it('removes members; one not in the group is GroupAccountNotFound and removes nothing', async () => {
      const miss = await removeMembers(group.id, [ids['gm-cid']!, ids['gm-dan']!]);
      expect(miss.statusCode).toBe(404);
      expect(miss.json().code).toBe('GroupAccountNotFound');
      expect((await admin.get(`/api/v1/group/${group.id}`)).json().member_count).toBe(3);

      const res = await removeMembers(group.id, [ids['gm-cid']!]);
      expect(res.statusCode).toBe(200);
      expect((await admin.get(`/api/v1/group/${group.id}`)).json().member_count).toBe(2);
      const left = (await admin.get(`/api/v1/group/members/${group.id}`)).json();
      expect(left.objects.map((m: { account: string }) => m.account).sort()).toEqual([
        'gm-ann@demo.local',
        'gm-bob@demo.local',
      ]);
      // The removed member is still in the team.
      expect((await admin.get('/api/account?key=gm-cid')).json().num_results).toBe(1);
    });
  });

  it('answers racing requests with the clash, never a server error', async () => {
    const m = await addMember(t, 'racer@demo.local', 0);
    // A few rounds, since whether both pass the checks before either writes is up to timing.
    for (let i = 0; i < 5; i++) {
      const a = await create(`Race a${i}`);
      const b = await create(`Race b${i}`);
      const adds = await Promise.all(
        [1, 2, 3].map(() => admin.post(`/api/v1/group/members/${a.id}`, { members: [m.id] })),
      );
      expect(adds.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      expect(adds.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual([
        'GroupAccountExist',
        'GroupAccountExist',
      ]);
      const renames = await Promise.all([
        admin.patch(`/api/v1/group/${a.id}`, { name: `Same ${i}` }),
        admin.patch(`/api/v1/group/${b.id}`, { name: `SAME ${i}` }),
      ]);
      expect(renames.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const creates = await Promise.all([
        admin.post('/api/v1/group', { name: `Twin ${i}` }),
        admin.post('/api/v1/group', { name: `twin ${i}` }),
      ]);
      expect(creates.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await admin.get(`/api/v1/group/${a.id}`)).json().member_count).toBe(1);
    }
  });

  it("answers GroupNotFound for another team's group, and touches nothing", async () => {
    const other = await otherTeamAdmin(t);
    const theirs: GroupReply = (await other.post('/api/v1/group', { name: 'Theirs' })).json();
    const m = await addMember(t, 'intruder@demo.local', 0);
    const calls = [
      admin.get(`/api/v1/group/${theirs.id}`),
      admin.patch(`/api/v1/group/${theirs.id}`, { name: 'Mine now' }),
      admin.delete(`/api/group/${theirs.id}`),
      admin.get(`/api/v1/group/members/${theirs.id}`),
      admin.post(`/api/v1/group/members/${theirs.id}`, { members: [m.id] }),
      removeMembers(theirs.id, [otherAdminId]),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('GroupNotFound');
    }
    expect((await other.get(`/api/v1/group/${theirs.id}`)).json()).toMatchObject({
      name: 'Theirs',
      member_count: 0,
    });
  });

  it('lets the opt admin read groups but refuses every write to all but the administrator', async () => {
    const g = await create('Guarded');
    const target = await addMember(t, 'guarded@demo.local', 0);
    for (const role of [0, 2, 3, 4]) {
      await addMember(t, `group-role${role}@demo.local`, role);
      const c = await signedIn(t, `group-role${role}@demo.local`, 'Member#Pass1');
      const calls = [
        c.post('/api/v1/group', { name: `Made by ${role}` }),
        c.patch(`/api/v1/group/${g.id}`, { name: 'Changed' }),
        c.delete(`/api/group/${g.id}`),
        c.post(`/api/v1/group/members/${g.id}`, { members: [target.id] }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, String(role)).toBe(403);
        expect(res.json().code).toBe('NeedPrivilege');
      }
      const read = await c.get('/api/v1/group/list');
      expect(read.statusCode, String(role)).toBe(role === 3 ? 200 : 403);
    }
    expect((await admin.get(`/api/v1/group/${g.id}`)).json()).toMatchObject({
      name: 'Guarded',
      member_count: 0,
    });
  });
});
