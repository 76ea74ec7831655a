import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_GATEWAY_VERSION } from './gateway-version';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { expectTypedAsText, insertFormulaLikeResource } from '../../test/xlsx';

describe('clusters', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
  });
  afterAll(() => t.close());

  it('creates a cluster with a trimmed name, unavailable until a gateway connects', async () => {
    const res = await admin.post('/api/v1/network', { name: '  Shanghai DC  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Shanghai DC',
      agent_status: 0,
      agent: null,
      need_update: false,
      resource_count: 0,
      info: { max_tunnel_expire_time: 0, is_open_map: false, port_map_info: [] },
    });
    // The key never appears in a cluster reply; only the install commands carry it.
    expect(res.body).not.toMatch(/pck_/);
    const scripts = await admin.get(`/api/v1/network/${res.json().id}/agent_scripts`);
    // The key goes to curl on its standard input (printf is a shell builtin) and comes back
    // inside the script: no process's arguments carry it.
    expect(scripts.json().install).toMatch(
      /^printf 'Authorization: Bearer %s\\n' 'pck_[A-Za-z0-9_-]{43}' \| curl -fsSL -H @- '[^']+\/api\/agent\/install\.sh' \| sudo sh -s -- install$/,
    );
    expect(scripts.json().latest_version).toBe(PUBLISHED_GATEWAY_VERSION);
    // A server on this machine's address: nothing to warn of. On plain http:// to another
    // machine, gateways refuse it and the console says why.
    expect(scripts.json().insecure_http).toBe(false);
    const own = t.ctx.config.publicUrl;
    t.ctx.config.publicUrl = 'http://10.0.0.5:8080';
    try {
      const lan = await admin.get(`/api/v1/network/${res.json().id}/agent_scripts`);
      expect(lan.json().insecure_http).toBe(true);
    } finally {
      t.ctx.config.publicUrl = own;
    }
  });

  it('refuses a duplicate name (any case), a blank name and one over 50 characters', async () => {
    expect((await admin.post('/api/v1/network', { name: 'shanghai dc' })).json().code).toBe(
      'NetworkNameExist',
    );
    for (const name of ['   ', 'x'.repeat(51)]) {
      const res = await admin.post('/api/v1/network', { name });
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'name' });
    }
  });

  it('enforces the plan’s cluster quota', async () => {
    // Trial allows 2 clusters.
    expect((await admin.post('/api/v1/network', { name: 'Second' })).statusCode).toBe(200);
    const third = await admin.post('/api/v1/network', { name: 'Third' });
    expect(third.json().code).toBe('NetworkExceeded');
    const summary = await admin.get('/api/v1/summary');
    expect(summary.json().networks).toBe(2);
  });

  it('sets the maximum code validity and port mapping with the spec’s bounds', async () => {
    const id = (await admin.get('/api/v1/network/list')).json().objects[0].id;
    for (const [body, field] of [
      [{ max_tunnel_expire_time: 1799 }, 'max_tunnel_expire_time'],
      [{ max_tunnel_expire_time: 31_536_001 }, 'max_tunnel_expire_time'],
      [
        { port_map_info: [{ ip_name: 'a', origin_port: 22, map_port: 70000 }] },
        'port_map_info.0.map_port',
      ],
      [
        {
          port_map_info: [
            { ip_name: 'a', origin_port: 22, map_port: 2222 },
            { ip_name: 'b', origin_port: 23, map_port: 2222 },
          ],
        },
        'port_map_info',
      ],
    ] as const) {
      const res = await admin.patch(`/api/network/${id}`, body);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 'InvalidParameter', field });
    }
    const ok = await admin.patch(`/api/network/${id}`, {
      max_tunnel_expire_time: 86_400,
      is_open_map: true,
      port_map_info: [{ ip_name: '10.0.0.5', origin_port: 22, map_port: 2222 }],
    });
    expect(ok.json().info).toEqual({
      max_tunnel_expire_time: 86_400,
      is_open_map: true,
      port_map_info: [{ ip_name: '10.0.0.5', origin_port: 22, map_port: 2222 }],
    });
    expect(
      (await admin.patch(`/api/network/${id}`, { max_tunnel_expire_time: 0 })).json().info
        .max_tunnel_expire_time,
    ).toBe(0);
  });

  it('lists every cluster for pickers and exports a cluster’s resources without credentials', async () => {
    const all = (await admin.get('/api/network')).json();
    expect(all.map((c: { name: string }) => c.name)).toEqual(['Second', 'Shanghai DC']);
    const id = all[1].id;
    await admin.post('/api/v1/resource', {
      network_id: id,
      name: '=cmd|x',
      ip_address: '10.0.0.9',
      os: 'linux',
      port: 22,
      login_users: [{ username: 'root', auth_type: 0, password: 'Hidden#Pass9' }],
    });
    const res = await admin.get(`/api/v1/project/resources/export/${id}`);
    expect(res.headers['content-disposition']).toContain('.xlsx');
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const row = book.worksheets[0]!.getRow(2);
    expect(row.getCell(1).value).toBe('=cmd|x');
    expect(row.getCell(3).value).toBe('10.0.0.9');
    expect(res.rawPayload.includes(Buffer.from('Hidden#Pass9'))).toBe(false);
    const resourceId = (await admin.get(`/api/v1/network/${id}/resource`)).json().objects[0].id;
    await admin.delete(`/api/resource/${resourceId}`);
  });

  it('exports names as they were typed, as text cells and never formulas', async () => {
    const id = (await admin.get('/api/network')).json()[0].id;
    const resourceId = await insertFormulaLikeResource(t, id);
    const res = await admin.get(`/api/v1/project/resources/export/${id}`);
    await expectTypedAsText(res.rawPayload, { name: 1, ip_address: 3, databases: 6 });
    await t.ctx.db.deleteFrom('resource').where('id', '=', resourceId).execute();
  });

  it('lists and searches clusters, deletes one, and writes cluster events', async () => {
    const list = await admin.get('/api/v1/network/list?q_name=SECOND');
    expect(list.json()).toMatchObject({ num_results: 1, objects: [{ name: 'Second' }] });
    const id = list.json().objects[0].id;
    expect((await admin.delete(`/api/network/${id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/v1/network/${id}`)).json().code).toBe('NetworkNotFound');
    const events = await admin.get('/api/event/get_net_log');
    expect(events.json().objects.map((e: { event: string }) => e.event)).toEqual(
      expect.arrayContaining(['createNet', 'updateNet', 'deleteNet']),
    );
  });

  it('keeps clusters to their team and to the configuration roles', async () => {
    const id = (await admin.get('/api/v1/network/list')).json().objects[0].id;
    await addMember(t, 'opt@demo.local', 3);
    await addMember(t, 'plain@demo.local', 0);
    const opt = await signedIn(t, 'opt@demo.local', 'Member#Pass1');
    expect((await opt.get(`/api/v1/network/${id}`)).statusCode).toBe(200);
    const plain = await signedIn(t, 'plain@demo.local', 'Member#Pass1');
    expect((await plain.get(`/api/v1/network/${id}`)).json().code).toBe('NeedPrivilege');
    // Another team's administrator finds nothing.
    await t.ctx.db
      .insertInto('company')
      .values({
        domain: 'other',
        domain_key: 'other',
        full_name: 'Other',
        contact_name: '',
        contact_address: '',
        contact_phone: '',
        email: '',
        password_strength: 1,
        company_mfa: 0,
        reset_password: 0,
        session_expire_time: 30,
        ip_whitelist: '',
        admin_whitelist: '',
        sso_open: 0,
        sso_login_url: '',
        created_at: 0,
        domain_token: 'x',
        ee_work_space_id: '',
        ee_work_space_name: '',
        binding_admin_id: null,
      })
      .execute();
    const otherId = (
      await t.ctx.db
        .selectFrom('company')
        .select('id')
        .where('domain_key', '=', 'other')
        .executeTakeFirstOrThrow()
    ).id;
    await addMember(t, 'boss@other.test', 1, 'Member#Pass1', otherId);
    const boss = t.client();
    await boss.login('other', 'boss@other.test', 'Member#Pass1');
    expect((await boss.get(`/api/v1/network/${id}`)).json().code).toBe('NetworkNotFound');
    expect((await boss.get(`/api/v1/network/${id}/agent_scripts`)).json().code).toBe(
      'NetworkNotFound',
    );
  });
});
