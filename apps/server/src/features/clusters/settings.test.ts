import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createTeam } from '../company/teams';

describe('cluster settings: sharing, log filters, safe mode', () => {
  let t: TestApp;
  let admin: TestClient;
  let other: TestClient;
  let id: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    id = (await admin.post('/api/v1/network', { name: 'Shared DC' })).json().id;
    await createTeam(t.ctx, {
      domain: 'partner',
      fullName: 'Partner Ltd',
      contactName: 'P',
      contactAddress: 'A',
      contactPhone: '',
      email: 'boss@partner.test',
      admin: { account: 'boss@partner.test', name: 'Boss', password: 'Partner#Pass1' },
    });
    other = t.client();
    expect((await other.login('partner', 'boss@partner.test', 'Partner#Pass1')).statusCode).toBe(
      200,
    );
  });
  afterAll(() => t.close());

  it('shares a cluster by team code; the other team sees it read-only and can return it', async () => {
    expect(
      (await admin.patch(`/api/network/${id}/sharing`, { action: 'add', domain: 'nope' })).json()
        .code,
    ).toBe('NetworkCannotShare');
    expect(
      (await admin.patch(`/api/network/${id}/sharing`, { action: 'add', domain: 'demo' })).json()
        .code,
    ).toBe('NetworkCannotShare');
    const shares = await admin.patch(`/api/network/${id}/sharing`, {
      action: 'add',
      domain: 'PARTNER',
    });
    expect(shares.json()).toMatchObject([
      { company: { domain: 'partner', full_name: 'Partner Ltd' } },
    ]);
    expect(
      (await admin.patch(`/api/network/${id}/sharing`, { action: 'add', domain: 'partner' })).json()
        .code,
    ).toBe('NetworkAlreadyShared');

    const seen = (await other.get('/api/v1/network/list')).json();
    expect(seen.objects).toMatchObject([
      { id, name: 'Shared DC', parent_id: id, parent_company: { full_name: 'demo' } },
    ]);
    expect((await other.get(`/api/v1/network/${id}`)).json().parent_company).toEqual({
      full_name: 'demo',
    });
    // Read-only: no settings, no scripts, no key, no filters changed.
    expect((await other.patch(`/api/network/${id}`, { name: 'Mine' })).json().code).toBe(
      'NetworkNotFound',
    );
    expect((await other.get(`/api/v1/network/${id}/agent_scripts`)).json().code).toBe(
      'NetworkNotFound',
    );
    expect(
      (await other.post('/api/log_filter', { network_id: id, condition: 'x' })).json().code,
    ).toBe('SharedNetworkCannotChangeLogFilter');
    // The owner cannot delete a cluster while it is shared.
    expect((await admin.delete(`/api/network/${id}`)).json().code).toBe('NetworkHasBeenShared');
    // Returning it removes it from the other team's list only.
    expect((await other.delete(`/api/network/${id}`)).statusCode).toBe(200);
    expect((await other.get('/api/v1/network/list')).json().num_results).toBe(0);
    expect((await admin.get(`/api/v1/network/${id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/network/${id}/sharing`)).json()).toEqual([]);
  });

  it('cancels a share from the owner’s side', async () => {
    const shares = (
      await admin.patch(`/api/network/${id}/sharing`, { action: 'add', domain: 'partner' })
    ).json();
    const after = await admin.patch(`/api/network/${id}/sharing`, {
      action: 'cancel',
      share_id: shares[0].id,
    });
    expect(after.json()).toEqual([]);
    expect((await other.get(`/api/v1/network/${id}`)).json().code).toBe('NetworkNotFound');
    const events = (await admin.get('/api/event/get_net_log'))
      .json()
      .objects.map((e: { event: string }) => e.event);
    expect(events).toEqual(expect.arrayContaining(['shareNet', 'cancelShareNet']));
    // The returning team's own log records the return.
    const theirs = (await other.get('/api/event/get_net_log'))
      .json()
      .objects.map((e: { event: string }) => e.event);
    expect(theirs).toEqual(['returnNet']);
  });

  it('adds and deletes log filters (operator contains; blank refused), readable by a team it is shared with', async () => {
    expect(
      (await admin.post('/api/log_filter', { network_id: id, condition: '   ' })).json(),
    ).toMatchObject({ code: 'InvalidParameter', field: 'condition' });
    const a = (
      await admin.post('/api/log_filter', { network_id: id, condition: 'password' })
    ).json();
    const b = (await admin.post('/api/log_filter', { network_id: id, condition: 'secret' })).json();
    expect(a).toMatchObject({ operator: 'contains', condition: 'password' });
    await admin.patch(`/api/network/${id}/sharing`, { action: 'add', domain: 'partner' });
    expect((await other.get(`/api/v1/network/${id}/log_filters`)).json()).toHaveLength(2);
    expect((await other.delete(`/api/log_filter/${a.id}`)).json().code).toBe(
      'SharedNetworkCannotChangeLogFilter',
    );
    expect((await admin.delete(`/api/batch/log_filter/${a.id},${b.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/v1/network/${id}/log_filters`)).json()).toEqual([]);
    expect((await admin.delete(`/api/log_filter/${a.id}`)).json().code).toBe('LogFilterNotFound');
  });

  it('saves safe mode with approvers and notifiers, refusing the spec’s invalid combinations', async () => {
    const approver = await addMember(t, 'approver@demo.local', 4);
    const notifier = await addMember(t, 'notifier@demo.local', 0);
    for (const [body, field] of [
      [
        {
          safe_mode: true,
          safe_mode_approver: true,
          safe_mode_notice: false,
          approver_accounts: [],
          notice_accounts: [],
        },
        'approver_accounts',
      ],
      [
        {
          safe_mode: true,
          safe_mode_approver: false,
          safe_mode_notice: true,
          approver_accounts: [],
          notice_accounts: [],
        },
        'notice_accounts',
      ],
      [
        {
          safe_mode: true,
          safe_mode_approver: true,
          safe_mode_notice: false,
          approver_accounts: [approver.id, approver.id],
          notice_accounts: [],
        },
        'approver_accounts',
      ],
    ] as const) {
      expect((await admin.patch(`/api/v1/network/${id}/safe_mode`, body)).json()).toMatchObject({
        code: 'InvalidParameter',
        field,
      });
    }
    const saved = await admin.patch(`/api/v1/network/${id}/safe_mode`, {
      safe_mode: true,
      safe_mode_approver: true,
      safe_mode_notice: true,
      approver_accounts: [approver.id],
      notice_accounts: [notifier.id],
    });
    expect(saved.json()).toMatchObject({
      safe_mode: true,
      approver_accounts: [{ account: 'approver@demo.local' }],
      notice_accounts: [{ account: 'notifier@demo.local' }],
    });
    expect((await admin.get(`/api/v1/network/${id}`)).json().safe_mode).toBe(1);
    const events = (await admin.get('/api/event/get_net_log'))
      .json()
      .objects.map((e: { event: string }) => e.event);
    expect(events).toEqual(
      expect.arrayContaining(['openSafeMode', 'auditSafeMode', 'modifySafeModeAuditor']),
    );
    // An account of another team cannot be an approver.
    const boss = await t.ctx.db
      .selectFrom('account')
      .select('id')
      .where('account', '=', 'boss@partner.test')
      .executeTakeFirstOrThrow();
    const foreign = await admin.patch(`/api/v1/network/${id}/safe_mode`, {
      safe_mode: true,
      safe_mode_approver: true,
      safe_mode_notice: false,
      approver_accounts: [boss.id],
      notice_accounts: [],
    });
    expect(foreign.json().code).toBe('AccountNotFound');
  });

  it('adds intercept and notice commands, skipping duplicates in the list and refusing existing ones', async () => {
    const added = await admin.post('/api/need_intercept_command/batch', {
      network_id: id,
      intercept: ['rm -rf', 'rm -rf', 'shutdown'],
      notice: ['sudo'],
    });
    expect(
      added.json().map((c: { kind: string; command: string }) => `${c.kind}:${c.command}`),
    ).toEqual(['intercept:rm -rf', 'intercept:shutdown', 'notice:sudo']);
    expect(
      (
        await admin.post('/api/need_intercept_command/batch', {
          network_id: id,
          intercept: ['shutdown'],
        })
      ).json().code,
    ).toBe('CommandExist');
    const list = (await admin.get(`/api/v1/intercepts?network_id=${id}`)).json();
    const intercepts = list
      .filter((c: { kind: string }) => c.kind === 'intercept')
      .map((c: { id: number }) => c.id);
    const notices = list
      .filter((c: { kind: string }) => c.kind === 'notice')
      .map((c: { id: number }) => c.id);
    // A notice id is not an intercept id.
    expect(
      (await admin.delete(`/api/need_intercept_command/batch/${notices[0]}`)).json().code,
    ).toBe('InvalidParameter');
    expect(
      (await admin.delete(`/api/need_intercept_command/batch/${intercepts.join(',')}`)).statusCode,
    ).toBe(200);
    expect(
      (await admin.delete(`/api/need_intercept_command/batch_notice/${notices.join(',')}`))
        .statusCode,
    ).toBe(200);
    expect((await admin.get(`/api/v1/intercepts?network_id=${id}`)).json()).toEqual([]);
    expect((await other.get(`/api/v1/intercepts?network_id=${id}`)).json().code).toBe(
      'NetworkNotFound',
    );
  });
});
