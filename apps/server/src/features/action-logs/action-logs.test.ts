/**
 * The action log (GET /search_tunnel) over sessions written straight into tunnel_connection:
 * every filter of spec 1 §7, paging by 25, who sees what across two teams, the masked code,
 * `play` from a stored recording (downloaded through /download_tunnel_log), and the xlsx export.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionLogEntry, SearchTunnelReply } from '@portcullis/contract';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, otherTeamAdmin } from '../team/test-fixtures';
import {
  addLinux,
  connectGateway,
  createCluster,
  defaultWorkgroupOf,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { recordingStore } from '../recordings/tiered-store';

const CODE = 'ABCDEFGH12345678';
const T0 = 1_700_000_000;
const DAY = 86_400;

describe('GET /search_tunnel', () => {
  let t: TestApp;
  let admin: TestClient;
  let audit: TestClient;
  let erin: TestClient;
  let optAdmin: TestClient;
  let other: TestClient;
  let erinId: number;
  let web: number;
  let db: number;
  let recorded: number;

  const search = async (c: TestClient, query = '') => {
    const res = await c.get(`/api/search_tunnel${query ? `?${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SearchTunnelReply;
  };
  const ids = (r: SearchTunnelReply) => r.data.map((e: ActionLogEntry) => e.connection_id);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    erinId = (await addMember(t, 'erin@demo.local', 0)).id;
    await addMember(t, 'audit@demo.local', 2);
    await addMember(t, 'opt@demo.local', 3);
    erin = await signedIn(t, 'erin@demo.local', 'Member#Pass1');
    audit = await signedIn(t, 'audit@demo.local', 'Member#Pass1');
    optAdmin = await signedIn(t, 'opt@demo.local', 'Member#Pass1');
    const { companyId, adminId } = await createOtherTeam(t);
    other = await otherTeamAdmin(t);

    const lab = await createCluster(admin, 'lab');
    await connectGateway(t, lab.id, { version: '3.1.0' });
    web = await addLinux(admin, lab.id, 'web-1', '10.0.0.5');
    db = await addLinux(admin, lab.id, 'db_%-1', '10.0.9.9');
    const pr = await projectResourceId(admin, await defaultWorkgroupOf(admin, lab.id), db);
    const tunnel = await t.ctx.db
      .insertInto('tunnel')
      .values({
        company_id: 1,
        account_id: erinId,
        project_resource_id: pr,
        code_hash: 'test-hash',
        code_sealed: t.ctx.sealer.seal(CODE),
        type: 'normal',
        allow_ip: '',
        status: 'enable',
        safe_mode: 0,
        tmp_username: '',
        created_at: T0,
        expire_time: T0 + 30 * DAY,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // 30 of the administrator's on web-1 by ssh, one a day back from T0 …
    const rows = Array.from({ length: 30 }, (_, i) => ({
      company_id: 1,
      account_id: 1,
      resource_id: web,
      created_at: T0 - i * DAY,
      ended_at: T0 - i * DAY + 65,
      way: 'terminal',
      client_ip: '192.168.1.7',
    }));
    await t.ctx.db.insertInto('tunnel_connection').values(rows).execute();
    // … Erin's two on db_%-1 through her code (one still open), and one of the other team's.
    recorded = (
      await t.ctx.db
        .insertInto('tunnel_connection')
        .values({
          company_id: 1,
          account_id: erinId,
          resource_id: db,
          tunnel_id: tunnel.id,
          created_at: T0 + 100,
          ended_at: T0 + 3_725,
          way: 'wetty',
          client_ip: '172.16.0.3',
          recording: 1,
          safe_mode: 0, // as the server writes it when the session starts
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await t.ctx.db
      .insertInto('tunnel_connection')
      .values([
        {
          company_id: 1,
          account_id: erinId,
          resource_id: db,
          tunnel_id: tunnel.id,
          created_at: T0 + 200,
          ended_at: null,
          way: 'terminal',
          client_ip: '172.16.0.3',
          recording: 1,
          safe_mode: 0,
        },
        {
          company_id: companyId,
          account_id: adminId,
          resource_id: null,
          tunnel_id: null,
          created_at: T0 + 300,
          ended_at: T0 + 400,
          way: 'terminal',
          client_ip: '192.168.1.7',
          recording: 0,
        },
      ])
      .execute();
    const cast =
      '{"version":2,"width":80,"height":24}\n[0.1,"i","ls\\r"]\n[0.2,"o","hello action log\\r\\n"]\n';
    await recordingStore(t.ctx).write(
      { companyId: 1, connectionId: recorded },
      0,
      Buffer.from(cast),
      { recorded: true },
    );
  });
  afterAll(() => t.close());

  it('pages the team’s sessions by 25, newest first', async () => {
    const first = await search(admin);
    expect(first.total).toBe(32);
    expect(first.data).toHaveLength(25);
    expect(first.data[0]!.start_date).toBe(T0 + 200);
    const second = await search(admin, 'page_index=2');
    expect(second.data).toHaveLength(7);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(32);
    const starts = [...first.data, ...second.data].map((e) => e.start_date);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  it('shapes an entry as spec 1 §3 says, the code masked', async () => {
    const { data } = await search(admin, 'way=wetty');
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      way: 'wetty',
      code: 'ABCD****78',
      resource_id: db,
      resource_name: 'db_%-1',
      account_name: 'erin',
      account_id: erinId,
      agent_version: '3.1.0',
      start_date: T0 + 100,
      date: T0 + 3_725,
      connection_id: recorded,
      client_ip_address: '172.16.0.3',
      unsafe_mode: 1,
      play: 1,
    });
    expect(JSON.stringify(data)).not.toContain(CODE);
  });

  it('says play 0 for an open session and one without a recording', async () => {
    const { data } = await search(admin, 'account_name=erin');
    expect(data.map((e) => [e.way, e.play])).toEqual([
      ['terminal', 0],
      ['wetty', 1],
    ]);
    expect((await search(admin, 'page_size=1')).data[0]!.date).toBe(0);
    expect((await search(admin, `resource_id=${web}&page_size=1`)).data[0]!.play).toBe(0);
  });

  it('says play 1 for a recorded session that began and ended in the same second', async () => {
    // `ssh host uptime`, a one-query psql session: the recording exists and downloads, though
    // there is nothing to play back (before, play was 0 and the console offered no download).
    const { id } = await t.ctx.db
      .insertInto('tunnel_connection')
      .values({
        company_id: 1,
        account_id: erinId,
        resource_id: db,
        created_at: T0 + 500,
        ended_at: T0 + 500,
        way: 'postgresql',
        client_ip: '172.16.0.3',
        recording: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const { data } = await search(admin, 'way=postgresql');
      expect(data.map((e) => [e.connection_id, e.start_date, e.date, e.play])).toEqual([
        [id, T0 + 500, T0 + 500, 1],
      ]);
    } finally {
      await t.ctx.db.deleteFrom('tunnel_connection').where('id', '=', id).execute();
    }
  });

  it('applies each filter of spec 1 §7', async () => {
    expect((await search(admin, `resource_id=${web}`)).total).toBe(30);
    expect((await search(admin, `resource_id=${db}`)).total).toBe(2);
    expect((await search(admin, 'way=terminal')).total).toBe(31);
    // A terminal's way before it had the spec's name still finds the same sessions.
    expect((await search(admin, 'way=ssh')).total).toBe(31);
    expect((await search(admin, 'account_name=ERI')).total).toBe(2);
    expect((await search(admin, 'ip=172.16')).total).toBe(2); // the client's address
    expect((await search(admin, 'ip=10.0.0.5')).total).toBe(30); // the resource's
    expect((await search(admin, 'resource_name=web')).total).toBe(30);
    // LIKE wildcards in the text are taken literally.
    expect((await search(admin, 'resource_name=_%25')).total).toBe(2);
    expect((await search(admin, 'unsafe_mode=1')).total).toBe(2);
    expect((await search(admin, 'unsafe_mode=0')).total).toBe(0);
    // Security mode turned on for the code afterwards does not rewrite the sessions it made
    // (before, they were read through the code as it is now).
    await t.ctx.db.updateTable('tunnel').set({ safe_mode: 1 }).execute();
    expect((await search(admin, 'unsafe_mode=1')).total).toBe(2);
    expect((await search(admin, 'unsafe_mode=0')).total).toBe(0);
    await t.ctx.db.updateTable('tunnel').set({ safe_mode: 0 }).execute();
    expect((await search(admin, 'keywords=db_')).total).toBe(2);
    expect((await search(admin, 'keywords=192.168.1')).total).toBe(30);
    // Seven days back from T0 (the end padded past T0's sessions).
    const week = await search(admin, `time_from=${T0 - 6 * DAY}&time_end=${T0 + DAY}`);
    expect(week.total).toBe(9);
    const combined = await search(admin, `time_from=${T0}&way=terminal&account_name=erin`);
    expect(combined.total).toBe(1);
    // Empty filters are no filters.
    expect((await search(admin, 'time_from=&time_end=&resource_id=&unsafe_mode=&way=')).total).toBe(
      32,
    );
  });

  it('shows a member only their own sessions, an audit administrator the team’s', async () => {
    expect((await search(erin)).total).toBe(2);
    expect((await search(erin, `resource_id=${web}`)).total).toBe(0);
    expect((await search(audit)).total).toBe(32);
    expect(ids(await search(other))).toHaveLength(1);
    expect((await search(other, 'account_name=erin')).total).toBe(0);
    expect((await optAdmin.get('/api/search_tunnel')).statusCode).toBe(403);
  });

  it('offers the recording of a playable entry for download', async () => {
    const res = await erin.get(`/api/download_tunnel_log?connection_id=${recorded}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('hello action log');
    expect(res.body).not.toContain('"i"'); // input stays with the administrators
    const asAdmin = await admin.get(`/api/download_tunnel_log?connection_id=${recorded}`);
    expect(asAdmin.body).toContain('"i"');
  });

  it('exports the match as a real xlsx file', async () => {
    const res = await admin.get('/api/search_tunnel?export=true&account_name=erin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/action-log-\d{8}\.xlsx/);
    expect(res.headers['x-total-count']).toBe('2');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(3); // the header and both, with no note: nothing was left out
    const wetty = sheet.getRow(3).values as unknown[];
    expect(wetty).toContain('erin');
    expect(wetty).toContain('ABCD****78');
    expect(wetty).toContain('01:00:25');
    expect(res.rawPayload.toString('latin1')).not.toContain(CODE);
    const member = await erin.get('/api/search_tunnel?export=true');
    const mine = new ExcelJS.Workbook();
    await mine.xlsx.load(member.rawPayload as unknown as ArrayBuffer);
    expect(mine.worksheets[0]!.rowCount).toBe(3);
  });
});
