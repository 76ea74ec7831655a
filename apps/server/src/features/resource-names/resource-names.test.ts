/**
 * GET /resource/all_name: the team's resource names for the log's readers, an ordinary member
 * only those of their own sessions, and never another team's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceName } from '@portcullis/contract';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, otherTeamAdmin } from '../team/test-fixtures';
import { addLinux, createCluster } from '../workgroups/test-fixtures';

describe('GET /resource/all_name', () => {
  let t: TestApp;
  let admin: TestClient;
  let audit: TestClient;
  let erin: TestClient;
  let other: TestClient;
  let web: number;
  let db: number;

  const names = async (c: TestClient) => {
    const res = await c.get('/api/resource/all_name');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ResourceName[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    const erinId = (await addMember(t, 'erin@demo.local', 0)).id;
    await addMember(t, 'audit@demo.local', 2);
    erin = await signedIn(t, 'erin@demo.local', 'Member#Pass1');
    audit = await signedIn(t, 'audit@demo.local', 'Member#Pass1');
    await createOtherTeam(t);
    other = await otherTeamAdmin(t);
    const lab = await createCluster(admin, 'lab');
    web = await addLinux(admin, lab.id, 'web-1', '10.0.0.5');
    db = await addLinux(admin, lab.id, 'db-1', '10.0.9.9');
    await t.ctx.db
      .insertInto('tunnel_connection')
      .values([
        { company_id: 1, account_id: erinId, resource_id: db, created_at: 1, way: 'terminal' },
        { company_id: 1, account_id: erinId, resource_id: db, created_at: 2, way: 'wetty' },
        { company_id: 1, account_id: 1, resource_id: web, created_at: 3, way: 'terminal' },
      ])
      .execute();
  });
  afterAll(() => t.close());

  it('lists the team’s resources by name for the log’s readers', async () => {
    const expected = [
      { id: db, name: 'db-1' },
      { id: web, name: 'web-1' },
    ];
    expect(await names(admin)).toEqual(expected);
    expect(await names(audit)).toEqual(expected);
  });

  it('gives an ordinary member only the resources of their own sessions', async () => {
    expect(await names(erin)).toEqual([{ id: db, name: 'db-1' }]);
  });

  it('never lists another team’s resources', async () => {
    expect(await names(other)).toEqual([]);
  });
});
