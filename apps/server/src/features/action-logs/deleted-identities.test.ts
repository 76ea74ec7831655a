/**
 * An audit trail keeps who did what: once a member, a resource and a workgroup are deleted,
 * their past sessions still read with their names (and the code's masked text) in the action
 * log and its export (as does a code deleted by taking its resource out of a workgroup), the
 * name filters and keywords still find them, the resource list of the
 * search still offers the resource, and an alarm that arrives after the deletion is logged with
 * the names (migration 019). Before, all of them read blank, the filters found nothing, and the
 * late alarm of a deleted member was not logged at all.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionLogEntry, SearchTunnelReply } from '@portcullis/contract';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { recordAlarm } from '../sessions/alarms';
import {
  addLinux,
  addMembersTo,
  addResourcesTo,
  connectGateway,
  createCluster,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';

const T0 = 1_700_000_000;

describe('the audit views after a member, a resource and a workgroup are deleted', () => {
  let t: TestApp;
  let admin: TestClient;
  let db1: number;
  let web2: number;
  /** Alice's sessions on db1 (through her code in ops), and Bob's on web2 (his code in dev). */
  let alices: number[];
  let bobs: number;
  /** Bob's session on web2 through his code in qa, which web2 is then taken out of. */
  let bobsInQa: number;
  let before: Map<number, ActionLogEntry>;

  const search = async (query = ''): Promise<SearchTunnelReply> => {
    const res = await admin.get(`/api/search_tunnel${query ? `?${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SearchTunnelReply;
  };
  const ids = (r: SearchTunnelReply): number[] =>
    r.data.map((e) => e.connection_id).sort((a, b) => a - b);

  /** A code of the member's for a resource of a workgroup, made through the API; its id. */
  const codeOf = async (
    client: TestClient,
    projectId: number,
    resourceId: number,
  ): Promise<number> => {
    const res = await client.post('/api/tunnel', {
      project_resource_id: await projectResourceId(admin, projectId, resourceId),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: number }).id;
  };

  const session = async (
    accountId: number,
    resourceId: number,
    tunnelId: number,
    at: number,
  ): Promise<number> =>
    (
      await t.ctx.db
        .insertInto('tunnel_connection')
        .values({
          company_id: 1,
          account_id: accountId,
          resource_id: resourceId,
          tunnel_id: tunnelId,
          created_at: at,
          ended_at: at + 60,
          way: 'terminal',
          client_ip: '198.51.100.4',
          safe_mode: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  const deleted = async (path: string): Promise<void> => {
    const res = await admin.delete(path);
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    const alice = await member(t, 'alice@demo.local');
    const bob = await member(t, 'bob@demo.local');
    const lab = await createCluster(admin, 'lab');
    await connectGateway(t, lab.id, { version: '3.1.0' });
    db1 = await addLinux(admin, lab.id, 'db1', '10.0.7.7');
    web2 = await addLinux(admin, lab.id, 'web2', '10.0.8.8');
    const ops = await createWorkgroup(admin, 'ops');
    await addResourcesTo(admin, ops, [db1]);
    await addMembersTo(admin, ops, [alice.id]);
    const dev = await createWorkgroup(admin, 'dev');
    await addResourcesTo(admin, dev, [web2]);
    await addMembersTo(admin, dev, [bob.id]);
    const qa = await createWorkgroup(admin, 'qa');
    await addResourcesTo(admin, qa, [web2]);
    await addMembersTo(admin, qa, [bob.id]);
    const aliceCode = await codeOf(alice.client, ops, db1);
    const bobCode = await codeOf(bob.client, dev, web2);
    const bobQaCode = await codeOf(bob.client, qa, web2);

    alices = [];
    for (let i = 0; i < 3; i++) alices.push(await session(alice.id, db1, aliceCode, T0 + i * 100));
    bobs = await session(bob.id, web2, bobCode, T0 + 1_000);
    bobsInQa = await session(bob.id, web2, bobQaCode, T0 + 2_000);
    before = new Map((await search()).data.map((e) => [e.connection_id, e]));
    expect(before.get(alices[0]!)).toMatchObject({ account_name: 'alice', resource_name: 'db1' });
    expect(before.get(alices[0]!)?.code).not.toBe('');

    // Alice, then her resource, then both workgroups (Bob and web2 stay).
    await deleted(`/api/v1/account/${alice.id}`);
    await deleted(`/api/resource/${db1}`);
    await deleted(`/api/v1/project/${ops}`);
    await deleted(`/api/v1/project/${dev}`);
    // Taking web2 out of qa deletes Bob's code there (cascade), not web2 nor qa.
    const out = await admin.request('DELETE', `/api/v1/project/resources/${qa}`, {
      resource_ids: [web2],
    });
    expect(out.statusCode, out.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the past sessions as they read before the deletions', async () => {
    const after = await search();
    for (const id of [...alices, bobs, bobsInQa]) {
      // A deleted member has no avatar left to show; everything else is as it was.
      expect(after.data.find((e) => e.connection_id === id)).toEqual({
        ...before.get(id),
        avatar: '',
      });
    }
    const first = after.data.find((e) => e.connection_id === alices[0]);
    expect(first).toMatchObject({
      account_name: 'alice',
      resource_name: 'db1',
      resource_ip_address: '10.0.7.7',
    });
  });

  it('finds them by the deleted names, in the filters and the keywords', async () => {
    expect(ids(await search('account_name=alic'))).toEqual(alices);
    expect(ids(await search('resource_name=DB1'))).toEqual(alices);
    expect(ids(await search('keywords=alice'))).toEqual(alices);
    expect(ids(await search('keywords=db1'))).toEqual(alices);
    expect(ids(await search('ip=10.0.7.7'))).toEqual(alices);
    expect(ids(await search(`resource_id=${db1}`))).toEqual(alices);
    // The live ones still match as before, and a deleted name matches nothing else.
    expect(ids(await search('account_name=bob'))).toEqual([bobs, bobsInQa]);
    expect(ids(await search('keywords=web2'))).toEqual([bobs, bobsInQa]);
    expect((await search('account_name=alice&resource_name=web2')).total).toBe(0);
  });

  it('exports them with their names', async () => {
    const res = await admin.get('/api/search_tunnel?export=true&account_name=alice');
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(1 + alices.length);
    for (let row = 2; row <= sheet.rowCount; row++) {
      const values = sheet.getRow(row).values as unknown[];
      expect(values).toContain('alice');
      expect(values).toContain('db1');
      expect(values).toContain('10.0.7.7');
      expect(values).toContain(before.get(alices[0]!)?.code);
    }
  });

  it('still offers the deleted resource in the search’s resource list', async () => {
    const res = await admin.get('/api/resource/all_name');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(
      expect.arrayContaining([
        { id: db1, name: 'db1' },
        { id: web2, name: 'web2' },
      ]),
    );
  });

  it('logs an alarm that arrives after the deletions with the names', async () => {
    const alarm = (connectionId: number) => ({
      connectionId,
      action: 'intercept' as const,
      command: 'rm -rf /srv',
      rule: 'rm',
    });
    expect(await recordAlarm(t.ctx, alarm(alices[2]!), () => undefined)).toBe(true);
    expect(await recordAlarm(t.ctx, alarm(bobs), () => undefined)).toBe(true);
    const res = await admin.get('/api/event/get_notice_log?page_index=1');
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as { objects: Record<string, unknown>[] }).objects;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          account_name: 'alice@demo.local',
          resource_name: 'db1',
          project_name: 'ops',
          con_ip: '198.51.100.4',
          command: 'rm -rf /srv',
        }),
        expect.objectContaining({
          account_name: 'bob@demo.local',
          resource_name: 'web2',
          project_name: 'dev',
        }),
      ]),
    );
    // …and the alarm log's own filters find them by those names.
    const named = await admin.get('/api/event/get_notice_log?page_index=1&account_name=alice');
    expect((named.json() as { num_results: number }).num_results).toBe(1);
  });
});
