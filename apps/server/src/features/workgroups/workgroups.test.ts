/**
 * Workgroup administration (spec 2 §2 workgroup list and detail, §5 names, §7 Workgroup
 * calls): create, search, rename, delete, every cluster's default workgroup, resources (at most
 * 1000), a server's login users, the resource export, and the workgroup events.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { expectTypedAsText, insertFormulaLikeResource } from '../../test/xlsx';
import {
  addLinux,
  addMysql,
  addResourcesTo,
  addWindows,
  createCluster,
  createWorkgroup,
  defaultWorkgroupOf,
  failure,
  projectResourceId,
  type ClusterFixture,
} from './test-fixtures';

interface WorkgroupReply {
  id: number;
  name: string;
  desc: string;
  network_id: number;
  is_default: boolean;
  resource_count: number;
  account_count: number;
  group_count: number;
}

describe('workgroup administration', () => {
  let t: TestApp;
  let admin: TestClient;
  let lab: ClusterFixture;
  let web: number;
  let win: number;
  let db: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    lab = await createCluster(admin, 'Lab');
    web = await addLinux(admin, lab.id, 'web-1', '10.0.0.1');
    win = await addWindows(admin, lab.id, 'win-1', '10.0.0.2');
    db = await addMysql(admin, lab.id, 'orders-db', '10.0.0.3');
  });
  afterAll(() => t.close());

  const list = async (query = ''): Promise<{ objects: WorkgroupReply[]; num_results: number }> =>
    (await admin.get(`/api/v1/project/list${query}`)).json();

  describe('create, read, rename, delete', () => {
    it('creates a workgroup with a trimmed name and description, empty', async () => {
      const res = await admin.post('/api/v1/project', { name: '  Ops team ', desc: ' night ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'Ops team',
        project_name: 'Ops team',
        desc: 'night',
        network_id: -1,
        is_default: false,
        resource_count: 0,
        account_count: 0,
        group_count: 0,
        favourite: 0,
        my_role: null,
        can_manage: true,
      });
      const read = await admin.get(`/api/v1/project/${res.json().id}`);
      expect(read.json()).toMatchObject({ name: 'Ops team', desc: 'night' });
    });

    it('takes names of 2 to 255 characters and descriptions up to 140', async () => {
      expect((await admin.post('/api/v1/project', { name: 'ab' })).statusCode).toBe(200);
      const long = await admin.post('/api/v1/project', {
        name: 'n'.repeat(255),
        desc: 'd'.repeat(140),
      });
      expect(long.statusCode).toBe(200);
      for (const [body, field] of [
        [{ name: 'a' }, 'name'],
        [{ name: 'n'.repeat(256) }, 'name'],
        [{ name: '   ' }, 'name'],
        [{}, 'name'],
        [{ name: 'Fine', desc: 'd'.repeat(141) }, 'desc'],
      ] as const) {
        const res = await admin.post('/api/v1/project', body);
        expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 'InvalidParameter', field });
      }
    });

    it('refuses a name the team already uses, in any case (ProjectNameExist)', async () => {
      await createWorkgroup(admin, 'Payments');
      for (const name of ['Payments', 'PAYMENTS', ' payments ']) {
        expect(failure(await admin.post('/api/v1/project', { name })), name).toBe(
          '409 ProjectNameExist',
        );
      }
      const other = await createWorkgroup(admin, 'Billing');
      expect(failure(await admin.patch(`/api/v1/project/${other}`, { name: 'payments' }))).toBe(
        '409 ProjectNameExist',
      );
      // Its own name in another case is no clash.
      const renamed = await admin.patch(`/api/v1/project/${other}`, { name: 'BILLING', desc: 'x' });
      expect(renamed.json()).toMatchObject({ name: 'BILLING', desc: 'x' });
    });

    it('deletes a workgroup; it is then not found, nor counted on the dashboard', async () => {
      const projects = async () => (await admin.get('/api/v1/summary')).json().projects as number;
      const before = await projects();
      const id = await createWorkgroup(admin, 'Short lived');
      expect(await projects()).toBe(before + 1);
      expect((await admin.delete(`/api/v1/project/${id}`)).statusCode).toBe(200);
      expect(failure(await admin.get(`/api/v1/project/${id}`))).toBe('404 ProjectNotFound');
      expect(failure(await admin.delete(`/api/v1/project/${id}`))).toBe('404 ProjectNotFound');
      expect(await projects()).toBe(before);
    });

    it('searches by name or by a resource address, and pages', async () => {
      const a = await createWorkgroup(admin, 'Search alpha');
      await createWorkgroup(admin, 'Search beta');
      await addResourcesTo(admin, a, [web]);
      const byName = await list('?q_name=SEARCH&page_size=1');
      expect(byName.num_results).toBe(2);
      expect(byName.objects.map((w) => w.name)).toEqual(['Search beta']);
      const page2 = await list('?q_name=search&page_size=1&page=2');
      expect(page2.objects.map((w) => w.name)).toEqual(['Search alpha']);
      // The default workgroup holds web-1 as well.
      const byIp = await list('?q_ip=10.0.0.1');
      expect(byIp.objects.map((w) => w.name).sort()).toEqual(['Lab', 'Search alpha']);
      expect((await list('?q_ip=192.168')).num_results).toBe(0);
    });
  });

  describe('default workgroups', () => {
    it('gives every cluster one, named after it, holding all its resources', async () => {
      const id = await defaultWorkgroupOf(admin, lab.id);
      const row = (await admin.get(`/api/v1/project/${id}`)).json();
      expect(row).toMatchObject({
        name: 'Lab',
        network_id: lab.id,
        is_default: true,
        resource_count: 3,
      });
      const ecs = (await admin.get(`/api/v1/project/resources/${id}?type=ecs`)).json();
      expect(ecs.objects.map((r: { name: string }) => r.name).sort()).toEqual(['web-1', 'win-1']);
      const rds = (await admin.get(`/api/v1/project/resources/${id}?type=rds`)).json();
      expect(rds.objects.map((r: { name: string }) => r.name)).toEqual(['orders-db']);
    });

    it('follows the cluster: a new resource joins it, a deleted one leaves it', async () => {
      const id = await defaultWorkgroupOf(admin, lab.id);
      const extra = await addLinux(admin, lab.id, 'late-1', '10.0.0.9');
      expect((await admin.get(`/api/v1/project/${id}`)).json().resource_count).toBe(4);
      await admin.delete(`/api/resource/${extra}`);
      expect((await admin.get(`/api/v1/project/${id}`)).json().resource_count).toBe(3);
    });

    it('cannot be deleted, nor its resources added or removed by hand', async () => {
      const id = await defaultWorkgroupOf(admin, lab.id);
      expect(failure(await admin.delete(`/api/v1/project/${id}`))).toBe(
        '400 DefaultProjectCannotDelete',
      );
      expect(
        failure(await admin.post(`/api/v1/project/resources/${id}`, { resource_ids: [web] })),
      ).toBe('400 DefaultProjectResourcesFixed');
      expect(
        failure(
          await admin.request('DELETE', `/api/v1/project/resources/${id}`, { resource_ids: [web] }),
        ),
      ).toBe('400 DefaultProjectResourcesFixed');
      // Its description can still be set.
      const res = await admin.patch(`/api/v1/project/${id}`, { desc: 'everything in Lab' });
      expect(res.json()).toMatchObject({ desc: 'everything in Lab', is_default: true });
    });

    it('is made for a cluster whose name a workgroup already has, and goes with its cluster', async () => {
      await createWorkgroup(admin, 'Second');
      const second = await createCluster(admin, 'second');
      const id = await defaultWorkgroupOf(admin, second.id);
      expect((await admin.get(`/api/v1/project/${id}`)).json().name).toBe('second (2)');
      expect((await admin.delete(`/api/network/${second.id}`)).statusCode).toBe(200);
      expect(failure(await admin.get(`/api/v1/project/${id}`))).toBe('404 ProjectNotFound');
    });
  });

  describe('resources of a workgroup', () => {
    let wg: number;
    beforeAll(async () => {
      wg = await createWorkgroup(admin, 'Resources');
    });

    it('offers the team’s resources it does not hold, then adds them', async () => {
      const before = (await admin.get(`/api/v1/project/resources/${wg}/candidates`)).json();
      expect(before.objects.map((r: { name: string }) => r.name).sort()).toEqual([
        'orders-db',
        'web-1',
        'win-1',
      ]);
      expect(before.objects[0]).toMatchObject({
        network_id: lab.id,
        network_name: 'Lab',
        shared: false,
      });
      await addResourcesTo(admin, wg, [web, db]);
      // Adding one it holds again changes nothing.
      await addResourcesTo(admin, wg, [web]);
      const after = (await admin.get(`/api/v1/project/resources/${wg}/candidates?type=ecs`)).json();
      expect(after.objects.map((r: { name: string }) => r.name)).toEqual(['win-1']);
      const held = (await admin.get(`/api/v1/project/resources/${wg}`)).json();
      expect(held.num_results).toBe(2);
      expect(held.objects[0]).toMatchObject({
        network_name: 'Lab',
        resource: { extension: { username: [], login_username: [] } },
      });
      const byName = (await admin.get(`/api/v1/project/resources/${wg}?q_name=ORDERS`)).json();
      expect(byName.objects.map((r: { name: string }) => r.name)).toEqual(['orders-db']);
      const byIp = (await admin.get(`/api/v1/project/resources/${wg}?q_ip=10.0.0.1`)).json();
      expect(byIp.objects.map((r: { name: string }) => r.name)).toEqual(['web-1']);
    });

    it('refuses a resource of another team or one that does not exist', async () => {
      expect(
        failure(await admin.post(`/api/v1/project/resources/${wg}`, { resource_ids: [999_999] })),
      ).toBe('404 ResourceNotFound');
      expect(
        failure(await admin.post(`/api/v1/project/resources/${wg}`, { resource_ids: [] })),
      ).toBe('400 InvalidParameter');
    });

    it('chooses a server’s login users from its own, at least one', async () => {
      const pr = await projectResourceId(admin, wg, web);
      const row = (await admin.get(`/api/project_resource/${pr}`)).json();
      expect(row.resource.extension).toEqual({
        username: ['root', 'deploy'],
        login_username: ['root', 'deploy'],
      });
      const res = await admin.request('PUT', `/api/project_resource/${pr}/login_username`, {
        login_username: ['deploy'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        login_user: ['deploy'],
        resource: { extension: { username: ['root', 'deploy'], login_username: ['deploy'] } },
      });
      for (const body of [{ login_username: [] }, { login_username: ['nobody'] }]) {
        const bad = await admin.request('PUT', `/api/project_resource/${pr}/login_username`, body);
        expect(bad.json(), JSON.stringify(body)).toMatchObject({
          code: 'InvalidParameter',
          field: 'login_username',
        });
      }
      const dbRow = await projectResourceId(admin, wg, db);
      const onDb = await admin.request('PUT', `/api/project_resource/${dbRow}/login_username`, {
        login_username: ['app'],
      });
      expect(failure(onDb)).toBe('400 InvalidResource');
    });

    it('removes resources it holds, refusing ones it does not', async () => {
      expect(
        failure(
          await admin.request('DELETE', `/api/v1/project/resources/${wg}`, {
            resource_ids: [db, win],
          }),
        ),
      ).toBe('404 ProjectResourceNotFound');
      const res = await admin.request('DELETE', `/api/v1/project/resources/${wg}`, {
        resource_ids: [db],
      });
      expect(res.statusCode).toBe(200);
      expect((await admin.get(`/api/v1/project/${wg}`)).json().resource_count).toBe(1);
    });

    it('holds at most 1000 resources (ResourceExceeded), adding none past that', async () => {
      const big = await createWorkgroup(admin, 'Big');
      const now = Math.floor(Date.now() / 1000);
      const rows = Array.from({ length: 1001 }, (_, i) => ({
        company_id: 1,
        network_id: lab.id,
        name: `bulk-${i}`,
        name_key: `bulk-${i}`,
        os: 'mysql',
        ip_address: `10.1.${Math.floor(i / 250)}.${i % 250}`,
        port: 3306,
        instance_id: '',
        flavor: '',
        databases: 'x',
        status: 1,
        created_at: now,
      }));
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 200) {
        const inserted = await t.ctx.db
          .insertInto('resource')
          .values(rows.slice(i, i + 200))
          .returning('id')
          .execute();
        ids.push(...inserted.map((r) => r.id));
      }
      await addResourcesTo(admin, big, ids.slice(0, 999));
      const over = await admin.post(`/api/v1/project/resources/${big}`, {
        resource_ids: ids.slice(999, 1001),
      });
      expect(failure(over)).toBe('400 ResourceExceeded');
      expect((await admin.get(`/api/v1/project/${big}`)).json().resource_count).toBe(999);
      await addResourcesTo(admin, big, [ids[999]!]);
      expect((await admin.get(`/api/v1/project/${big}`)).json().resource_count).toBe(1000);
      const tooMany = await admin.post(`/api/v1/project/resources/${big}`, {
        resource_ids: ids,
      });
      expect(tooMany.json()).toMatchObject({ code: 'InvalidParameter', field: 'resource_ids' });
      await admin.delete(`/api/v1/project/${big}`);
      await t.ctx.db.deleteFrom('resource').where('id', 'in', ids).execute();
    });
  });

  it('exports a workgroup’s resources as xlsx, without credentials', async () => {
    const wg = await createWorkgroup(admin, 'Export me');
    await addResourcesTo(admin, wg, [web, db]);
    const res = await admin.get(`/api/v1/project/resources/${wg}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="workgroup-${wg}-resources.xlsx"`,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Name',
      'Type',
      'Address',
      'Port',
      'Cluster',
      'Login users',
      'Databases',
    ]);
    const names = [sheet.getRow(2).getCell(1).value, sheet.getRow(3).getCell(1).value];
    expect(names).toEqual(['orders-db', 'web-1']);
    expect(sheet.getRow(3).getCell(6).value).toBe('root;deploy');
    for (const secret of ['Secret#Pass1', 'Db#Secret3'])
      expect(res.rawPayload.includes(Buffer.from(secret))).toBe(false);
  });

  it('exports names as they were typed, as text cells and never formulas', async () => {
    const wg = await createWorkgroup(admin, 'Export typed');
    await addResourcesTo(admin, wg, [await insertFormulaLikeResource(t, lab.id)]);
    const res = await admin.get(`/api/v1/project/resources/${wg}/export`);
    await expectTypedAsText(res.rawPayload, { name: 1, ip_address: 3, databases: 7 });
  });

  it('writes a workgroup event for every act', async () => {
    const wg = await createWorkgroup(admin, 'Evented');
    await admin.patch(`/api/v1/project/${wg}`, { desc: 'changed' });
    await addResourcesTo(admin, wg, [web, win, db]);
    const pr = await projectResourceId(admin, wg, web);
    await admin.request('PUT', `/api/project_resource/${pr}/login_username`, {
      login_username: ['root'],
    });
    await admin.request('DELETE', `/api/v1/project/resources/${wg}`, { resource_ids: [win] });
    await admin.delete(`/api/v1/project/${wg}`);
    const log = (await admin.get('/api/event/get_project_log?project_name=Evented&page_size=50'))
      .json()
      .objects.map((e: { event: string; resource_name: string }) =>
        [e.event, e.resource_name].join(' ').trim(),
      );
    expect(log.sort()).toEqual(
      [
        'createProject',
        'updateProject',
        'addLinuxServer web-1',
        'addWinServer win-1',
        'addMySQLDatabase orders-db',
        'updateProjectLoginUser web-1',
        'removeWinServer win-1',
        'deleteProject',
      ].sort(),
    );
  });
});
