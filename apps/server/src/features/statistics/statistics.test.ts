/**
 * The dashboard's statistics over sessions written straight into tunnel_connection: days of a
 * window with their zeros, the caller's offset from UTC, open sessions counted until now, file
 * transfers and other teams left out, top members and resources (deleted ones named as they
 * were), resources by type, the shared-resource counter, bad windows and who may ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ConnectionDay,
  InstancesSummary,
  StatisticsOverview,
  TopAccount,
  TopResource,
} from '@portcullis/contract';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, OTHER_TEAM, otherTeamAdmin } from '../team/test-fixtures';
import { addLinux, addMysql, addWindows, createCluster } from '../workgroups/test-fixtures';

const DAY = 86_400;
/** Midnight UTC, 2026-11-20 (a Friday). */
const MIDNIGHT = Date.UTC(2026, 10, 20) / 1000;
const WEEK = { time_from: MIDNIGHT, time_end: MIDNIGHT + 7 * DAY };

describe('dashboard statistics', () => {
  let t: TestApp;
  let admin: TestClient;
  let audit: TestClient;
  let erin: TestClient;
  let other: TestClient;
  let erinId: number;
  let web: number;
  let db: number;
  let gone: number;
  let labId: number;

  const get = async <T>(c: TestClient, path: string, query: Record<string, number> = WEEK) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const res = await c.get(`/api/${path}?${qs.toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const session = (
    account_id: number,
    resource_id: number | null,
    created_at: number,
    ended_at: number | null,
    extra: { company_id?: number; op?: string } = {},
  ) => ({
    company_id: extra.company_id ?? 1,
    account_id,
    resource_id,
    created_at,
    ended_at,
    way: 'terminal',
    client_ip: '127.0.0.1',
    op: extra.op ?? '',
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    erinId = (await addMember(t, 'erin@demo.local', 0)).id;
    await addMember(t, 'audit@demo.local', 2);
    erin = await signedIn(t, 'erin@demo.local', 'Member#Pass1');
    audit = await signedIn(t, 'audit@demo.local', 'Member#Pass1');
    const team = await createOtherTeam(t);
    other = await otherTeamAdmin(t);

    const lab = await createCluster(admin, 'lab');
    labId = lab.id;
    web = await addLinux(admin, lab.id, 'web-1', '10.0.0.5');
    db = await addMysql(admin, lab.id, 'orders-db', '10.0.0.6');
    await addWindows(admin, lab.id, 'desk-1', '10.0.0.7');
    await addLinux(admin, lab.id, 'web-2', '10.0.0.8');
    // A resource since deleted, remembered as migration 019 remembers it.
    gone = 9_999;
    await t.ctx.db
      .insertInto('former_identity')
      .values({
        kind: 'resource',
        id: gone,
        company_id: 1,
        name: 'old-box',
        account: '',
        ip_address: '10.0.0.99',
        network_id: lab.id,
        project_id: null,
        deleted_at: MIDNIGHT,
      })
      .execute();

    await t.ctx.db
      .insertInto('tunnel_connection')
      .values([
        // Day 0: the administrator, two hours on web-1 and one minute on orders-db.
        session(1, web, MIDNIGHT + 3600, MIDNIGHT + 3 * 3600),
        session(1, db, MIDNIGHT + 5 * 3600, MIDNIGHT + 5 * 3600 + 60),
        // A file moved in that session: not a session of its own.
        session(1, web, MIDNIGHT + 3700, MIDNIGHT + 3710, { op: 'download' }),
        // Day 2, 23:30 UTC (the next day in Beijing): Erin, 30 minutes on web-1.
        session(erinId, web, MIDNIGHT + 2 * DAY + 23.5 * 3600, MIDNIGHT + 3 * DAY),
        // Day 4: Erin on the deleted resource, three times for ten minutes.
        ...[0, 1, 2].map((i) =>
          session(erinId, gone, MIDNIGHT + 4 * DAY + i * 3600, MIDNIGHT + 4 * DAY + i * 3600 + 600),
        ),
        // Before and after the window, and another team's inside it.
        session(1, web, MIDNIGHT - 1, MIDNIGHT + 100),
        session(1, web, MIDNIGHT + 7 * DAY, MIDNIGHT + 7 * DAY + 100),
        session(team.adminId, null, MIDNIGHT + DAY, MIDNIGHT + DAY + 100, {
          company_id: team.companyId,
        }),
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts connections and their duration for every day of the window, zeros included', async () => {
    const { items } = await get<{ items: ConnectionDay[] }>(admin, 'connect/numbers');
    expect(items).toEqual([
      { date: '2026-11-20', conn_count: 2, conn_time: 2 * 3600 + 60 },
      { date: '2026-11-21', conn_count: 0, conn_time: 0 },
      { date: '2026-11-22', conn_count: 1, conn_time: 1800 },
      { date: '2026-11-23', conn_count: 0, conn_time: 0 },
      { date: '2026-11-24', conn_count: 3, conn_time: 1800 },
      { date: '2026-11-25', conn_count: 0, conn_time: 0 },
      { date: '2026-11-26', conn_count: 0, conn_time: 0 },
    ]);
  });

  it('cuts days at the caller’s midnight', async () => {
    // Beijing (UTC+8): the window is the seven days from 2026-11-20 00:00 there.
    const beijing = { time_from: MIDNIGHT - 8 * 3600, time_end: MIDNIGHT - 8 * 3600 + 7 * DAY };
    const { items } = await get<{ items: ConnectionDay[] }>(admin, 'connect/numbers', {
      ...beijing,
      utc_offset: 480,
    });
    expect(items.map((d) => d.date)).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
    ]);
    // Erin's 23:30 UTC session is on the 23rd there; the one a second before UTC midnight of
    // the 20th is inside this window (08:00 less a second, Beijing time) and on the 20th.
    expect(items.map((d) => d.conn_count)).toEqual([3, 0, 0, 1, 3, 0, 0]);
  });

  it('gives as many days as the window holds across a daylight-saving change', async () => {
    // Berlin, the week up to 2026-10-26 00:00 (UTC+1): it began at midnight UTC+2, an hour more.
    const end = Date.UTC(2026, 9, 25, 23) / 1000;
    // Ten minutes into the window: 00:10 on the 19th in Berlin (summer time then).
    const start = end - 7 * DAY - 3600;
    await t.ctx.db
      .insertInto('tunnel_connection')
      .values(session(1, web, start + 600, start + 660))
      .execute();
    const { items } = await get<{ items: ConnectionDay[] }>(admin, 'connect/numbers', {
      time_from: end - 7 * DAY - 3600,
      time_end: end,
      utc_offset: 60,
    });
    expect(items.map((d) => d.date)).toEqual([
      '2026-10-19',
      '2026-10-20',
      '2026-10-21',
      '2026-10-22',
      '2026-10-23',
      '2026-10-24',
      '2026-10-25',
    ]);
    expect(items[0]).toMatchObject({ conn_count: 1, conn_time: 60 });
  });

  it('gives every day a window touches, part days included', async () => {
    // 06:00 on the 20th to 06:00 on the 21st (UTC): two days, the first with its sessions.
    const { items } = await get<{ items: ConnectionDay[] }>(admin, 'connect/numbers', {
      time_from: MIDNIGHT + 6 * 3600,
      time_end: MIDNIGHT + DAY + 6 * 3600,
    });
    expect(items).toEqual([
      { date: '2026-11-20', conn_count: 0, conn_time: 0 },
      { date: '2026-11-21', conn_count: 0, conn_time: 0 },
    ]);
    const { items: morning } = await get<{ items: ConnectionDay[] }>(admin, 'connect/numbers', {
      time_from: MIDNIGHT,
      time_end: MIDNIGHT + 6 * 3600,
    });
    expect(morning).toEqual([{ date: '2026-11-20', conn_count: 2, conn_time: 2 * 3600 + 60 }]);
  });

  it('counts an open session until the moment of the answer', async () => {
    const start = Math.floor(Date.now() / 1000) - 600;
    const { id } = await t.ctx.db
      .insertInto('tunnel_connection')
      .values(session(erinId, web, start, null))
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const window = { time_from: start - 10, time_end: start + DAY };
      const totals = await get<StatisticsOverview>(admin, 'statistic/overview_v1', window);
      expect(totals.conn_count).toBe(1);
      expect(totals.conn_time).toBeGreaterThanOrEqual(600);
      expect(totals.conn_time).toBeLessThan(700);
    } finally {
      await t.ctx.db.deleteFrom('tunnel_connection').where('id', '=', id).execute();
    }
  });

  it('totals a window: connections, time, members and resources used', async () => {
    expect(await get<StatisticsOverview>(admin, 'statistic/overview_v1')).toEqual({
      conn_count: 6,
      conn_time: 2 * 3600 + 60 + 1800 + 1800,
      accounts: 2,
      resources: 3,
    });
  });

  it('lists members by connection time and resources by count, deleted ones by their old name', async () => {
    const members = await get<{ items: TopAccount[] }>(admin, 'statistic/account_v1');
    expect(members.items).toEqual([
      expect.objectContaining({ account_id: 1, conn_count: 2, conn_time: 2 * 3600 + 60 }),
      expect.objectContaining({
        account_id: erinId,
        account: 'erin@demo.local',
        conn_count: 4,
        conn_time: 3600,
      }),
    ]);
    const resources = await get<{ items: TopResource[] }>(admin, 'statistic/resource_v1');
    expect(resources.items).toEqual([
      { id: gone, name: 'old-box', conn_count: 3, conn_time: 1800 },
      { id: web, name: 'web-1', conn_count: 2, conn_time: 2 * 3600 + 1800 },
      { id: db, name: 'orders-db', conn_count: 1, conn_time: 60 },
    ]);
    const one = await get<{ items: TopResource[] }>(admin, 'statistic/resource_v1', {
      ...WEEK,
      limit: 1,
    });
    expect(one.items.map((r) => r.name)).toEqual(['old-box']);
  });

  it('counts the team’s resources by type', async () => {
    expect(await get<InstancesSummary>(admin, 'instances_summary', {})).toEqual({
      linux: 2,
      windows: 1,
      mysql: 1,
      postgresql: 0,
      sqlserver: 0,
    });
  });

  it('keeps each team to its own figures', async () => {
    const { items } = await get<{ items: ConnectionDay[] }>(other, 'connect/numbers');
    expect(items.map((d) => d.conn_count)).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect((await get<InstancesSummary>(other, 'instances_summary', {})).linux).toBe(0);
  });

  it('counts the resources of clusters shared with the team', async () => {
    const before = (await other.get('/api/v1/summary')).json();
    expect(before.shared_resources).toBe(0);
    const shared = await admin.patch(`/api/network/${labId}/sharing`, {
      action: 'add',
      domain: OTHER_TEAM,
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect((await other.get('/api/v1/summary')).json().shared_resources).toBe(4);
    expect((await admin.get('/api/v1/summary')).json().shared_resources).toBe(0);
  });

  it('refuses a window that ends before it starts or spans more than 366 days', async () => {
    for (const query of [
      { time_from: MIDNIGHT, time_end: MIDNIGHT },
      { time_from: MIDNIGHT, time_end: MIDNIGHT + 367 * DAY },
    ]) {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const res = await admin.get(`/api/connect/numbers?${qs.toString()}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('InvalidParameter');
    }
    expect((await admin.get('/api/statistic/account_v1')).json().code).toBe('InvalidParameter');
  });

  it('answers the dashboard’s roles only', async () => {
    expect((await get<StatisticsOverview>(audit, 'statistic/overview_v1')).conn_count).toBe(6);
    const res = await erin.get(
      `/api/statistic/overview_v1?time_from=${WEEK.time_from}&time_end=${WEEK.time_end}`,
    );
    expect(res.statusCode).toBe(403);
  });
});
