import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';

describe('database security settings', () => {
  let t: TestApp;
  let admin: TestClient;
  let dbId: number;
  let serverId: number;
  let approver: number;
  let notifier: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    const networkId = (await admin.post('/api/v1/network', { name: 'Sec' })).json().id;
    dbId = (
      await admin.post('/api/v1/resource', {
        network_id: networkId,
        name: 'pg',
        ip_address: '127.0.0.1',
        os: 'postgresql',
        port: 5432,
        username: 'app',
        password: 'x',
        databases: 'shop',
      })
    ).json().id;
    serverId = (
      await admin.post('/api/v1/resource', {
        network_id: networkId,
        name: 'box',
        ip_address: '127.0.0.1',
        os: 'linux',
        port: 22,
        login_users: [{ username: 'root', auth_type: 0 }],
      })
    ).json().id;
    approver = (await addMember(t, 'dba@demo.local', 4)).id;
    notifier = (await addMember(t, 'oncall@demo.local', 0)).id;
  });
  afterAll(() => t.close());

  const valid = () => ({
    status: 2,
    block_pattern: [{ op: 'drop' }, { op: 'delete', table: 'orders' }],
    notice_pattern: [{ op: 'update' }],
    notice_status: 1,
    approve_accounts: [approver],
    notice_accounts: [notifier],
  });

  it('starts with SQL approval off and no rules', async () => {
    expect((await admin.get(`/api/v1/resource/${dbId}/security`)).json()).toEqual({
      status: 1,
      block_pattern: [],
      notice_pattern: [],
      notice_status: 0,
      approve_accounts: [],
      notice_accounts: [],
      online: 0,
    });
  });

  it('refuses what the spec’s save rules forbid, naming the field', async () => {
    for (const [change, field] of [
      [{ block_pattern: [{ op: 'drop' }, { op: 'drop' }] }, 'block_pattern'],
      [
        {
          notice_pattern: [
            { op: 'update', table: 'T' },
            { op: 'update', table: 't' },
          ],
        },
        'notice_pattern',
      ],
      [{ approve_accounts: [] }, 'approve_accounts'],
      [{ approve_accounts: [approver, approver] }, 'approve_accounts'],
      [{ notice_accounts: [] }, 'notice_accounts'],
      [{ notice_pattern: [] }, 'notice_pattern'],
      [{ block_pattern: [{ op: 'explode' }] }, 'block_pattern.0.op'],
    ] as const) {
      const res = await admin.patch(`/api/v1/resource/${dbId}/security`, { ...valid(), ...change });
      expect(res.json(), JSON.stringify(change)).toMatchObject({ code: 'InvalidParameter', field });
    }
    expect((await admin.get(`/api/v1/resource/${dbId}/security`)).json().status).toBe(1);
  });

  it('saves approval, rules, approvers and notifiers', async () => {
    const res = await admin.patch(`/api/v1/resource/${dbId}/security`, valid());
    expect(res.json()).toMatchObject({
      status: 2,
      block_pattern: [{ op: 'drop' }, { op: 'delete', table: 'orders' }],
      notice_pattern: [{ op: 'update' }],
      notice_status: 1,
      approve_accounts: [{ account: 'dba@demo.local' }],
      notice_accounts: [{ account: 'oncall@demo.local' }],
    });
    expect((await admin.get(`/api/v1/resource/${dbId}`)).json().status).toBe(2);
    // Turning approval and alarms off needs nobody.
    const off = await admin.patch(`/api/v1/resource/${dbId}/security`, {
      status: 1,
      block_pattern: [],
      notice_pattern: [],
      notice_status: 0,
      approve_accounts: [],
      notice_accounts: [],
    });
    expect(off.json()).toMatchObject({ status: 1, approve_accounts: [], notice_accounts: [] });
  });

  it('applies to databases only', async () => {
    expect((await admin.get(`/api/v1/resource/${serverId}/security`)).json().code).toBe(
      'InvalidResource',
    );
  });
});
