/**
 * The members' view (spec 1 §2.6, §2.7, §3 project resource, §7 Workgroups and codes): the
 * workgroup list with stars, a workgroup's servers and databases with the gateway, masked code
 * and session counts, the default login user, the resource export and the Ansible inventory.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import {
  addLinux,
  addMembersTo,
  addMysql,
  addResourcesTo,
  addWindows,
  connectGateway,
  createCluster,
  createWorkgroup,
  failure,
  GATEWAY_HOST,
  member,
  projectResourceId,
} from './test-fixtures';

function hasAnsibleInventory(): boolean {
  try {
    execFileSync('ansible-inventory', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A structural reading of an INI inventory: groups, and each host line's variables. */
function parseInventory(text: string): Map<string, Map<string, Record<string, string>>> {
  const groups = new Map<string, Map<string, Record<string, string>>>();
  let current: Map<string, Record<string, string>> | undefined;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(line);
    if (header) {
      current = new Map();
      groups.set(header[1]!, current);
      continue;
    }
    const [alias, ...vars] = line.split(' ');
    if (!current || !alias || !/^[A-Za-z0-9._-]+$/.test(alias))
      throw new Error(`bad line: ${line}`);
    current.set(
      alias,
      Object.fromEntries(
        vars.map((v) => {
          const m = /^(ansible_[a-z]+)=([A-Za-z0-9.-]+)$/.exec(v);
          if (!m) throw new Error(`bad variable: ${v}`);
          return [m[1]!, m[2]!];
        }),
      ),
    );
  }
  return groups;
}

describe('members’ view of workgroups', () => {
  let t: TestApp;
  let admin: TestClient;
  let dana: { id: number; client: TestClient };
  let lab: number;
  let wg: number;
  let starless: number;
  let web: number;
  let win: number;
  let db: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    dana = await member(t, 'dana@demo.local');
    lab = (await createCluster(admin, 'Lab')).id;
    await connectGateway(t, lab);
    web = await addLinux(admin, lab, '=web 1', '10.0.0.1');
    await addLinux(admin, lab, 'web-2', '10.0.0.2');
    win = await addWindows(admin, lab, 'win-1', '10.0.0.3');
    db = await addMysql(admin, lab, 'orders-db', '10.0.0.4');
    wg = await createWorkgroup(admin, 'Ops 1', 'operations');
    starless = await createWorkgroup(admin, 'Other');
    await addResourcesTo(admin, wg, [web, win, db]);
    await addMembersTo(admin, wg, [dana.id]);
    await addMembersTo(admin, starless, [dana.id]);
  });
  afterAll(() => t.close());

  it('lists the member’s workgroups, stars them and filters by star', async () => {
    const all = (await dana.client.get('/api/v1/project/list')).json();
    expect(all.num_results).toBe(2);
    expect(all.objects.find((w: { id: number }) => w.id === wg)).toMatchObject({
      name: 'Ops 1',
      desc: 'operations',
      resource_count: 3,
      favourite: 0,
      my_role: 0,
    });
    expect((await dana.client.get('/api/v1/project/list?q_favourite=1')).json().num_results).toBe(
      0,
    );
    const starred = await dana.client.request('PUT', `/api/project/${wg}/favourite`, {
      favourite: 1,
    });
    expect(starred.json()).toMatchObject({ id: wg, favourite: 1 });
    // Starring twice is still one star.
    await dana.client.request('PUT', `/api/project/${wg}/favourite`, { favourite: 1 });
    const stars = (await dana.client.get('/api/v1/project/list?q_favourite=1')).json();
    expect(stars.objects.map((w: { id: number }) => w.id)).toEqual([wg]);
    // Stars are the member's own.
    expect((await admin.get(`/api/v1/project/${wg}`)).json().favourite).toBe(0);
    const bad = await dana.client.request('PUT', `/api/project/${wg}/favourite`, { favourite: 2 });
    expect(bad.json()).toMatchObject({ code: 'InvalidParameter', field: 'favourite' });
    await dana.client.request('PUT', `/api/project/${wg}/favourite`, { favourite: 0 });
    expect((await dana.client.get('/api/v1/project/list?q_favourite=1')).json().num_results).toBe(
      0,
    );
    const byIp = (await dana.client.get('/api/v1/project/list?q_ip=10.0.0.4')).json();
    expect(byIp.objects.map((w: { name: string }) => w.name)).toEqual(['Ops 1']);
  });

  it('shows servers and databases with the gateway, login users and counts', async () => {
    const servers = (await dana.client.get(`/api/v1/project/resources/${wg}?type=ecs`)).json();
    expect(servers.objects.map((r: { name: string }) => r.name).sort()).toEqual([
      '=web 1',
      'win-1',
    ]);
    const row = servers.objects.find((r: { name: string }) => r.name === '=web 1');
    expect(row).toMatchObject({
      project_id: wg,
      resource_id: web,
      type: 'ecs',
      os: 'linux',
      ip: '10.0.0.1',
      network_name: 'Lab',
      login_user: ['root', 'deploy'],
      default_username: '',
      agent_status: 1,
      agent_version: '3.0.0',
      agent: { host: GATEWAY_HOST, status: 1, ports: { ssh_port: 9998 } },
      code: '',
      online_connections: 0,
      logs: 0,
      safe: { network_safe_mode: 0 },
      max_tunnel_expire_time: 0,
    });
    const dbs = (await dana.client.get(`/api/v1/project/resources/${wg}?type=rds`)).json();
    expect(dbs.objects).toEqual([
      expect.objectContaining({
        name: 'orders-db',
        type: 'rds',
        db_name: ['orders', 'billing'],
        login_user: [],
        resource: expect.objectContaining({ status: 1, resource_type: 'MySQLDatabase' }),
      }),
    ]);
    const byName = (await dana.client.get(`/api/v1/project/resources/${wg}?q_name=win`)).json();
    expect(byName.objects.map((r: { name: string }) => r.name)).toEqual(['win-1']);
  });

  it('counts online sessions as the row’s online panel lists them, and logged ones', async () => {
    const now = Math.floor(Date.now() / 1000);
    // A server of its own, in both workgroups, so that nothing here touches the other tests.
    const box = await addLinux(admin, lab, 'count-1', '10.0.0.9');
    await addResourcesTo(admin, wg, [box]);
    await addResourcesTo(admin, starless, [box]);
    const pr = await projectResourceId(admin, wg, box);
    const prOther = await projectResourceId(admin, starless, box);
    const codes = new Map<string, number>();
    /** The code of `account` for the workgroup link `link` (one per member and link). */
    const codeOf = async (account: number, link: number): Promise<number> => {
      const known = codes.get(`${account}:${link}`);
      if (known) return known;
      const { id } = await t.ctx.db
        .insertInto('tunnel')
        .values({
          company_id: 1,
          account_id: account,
          project_resource_id: link,
          code_hash: `view-test-${account}-${link}`,
          code_sealed: t.ctx.sealer.seal(`VIEWTEST${account}X${link}`),
          type: 'normal',
          allow_ip: '',
          status: 'enable',
          safe_mode: 0,
          tmp_username: '',
          tmp_passwd_hash: null,
          used_at: null,
          created_at: now,
          expire_time: now + 3600,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      codes.set(`${account}:${link}`, id);
      return id;
    };
    /** A session of `account` through the workgroup link `link`. */
    const session = async (account: number, link: number, ended: boolean) => {
      await t.ctx.db
        .insertInto('tunnel_connection')
        .values({
          company_id: 1,
          account_id: account,
          resource_id: box,
          tunnel_id: await codeOf(account, link),
          created_at: now,
          ended_at: ended ? now : null,
        })
        .execute();
    };
    await session(dana.id, pr, false);
    await session(dana.id, pr, true);
    await session(1, pr, false);
    // Through the other workgroup: its row counts these, not this one's.
    await session(1, prOther, false);
    await session(1, prOther, false);
    const row = async (client: TestClient, link: number) =>
      (await client.get(`/api/project_resource/${link}`)).json();
    expect(await row(dana.client, pr)).toMatchObject({ online_connections: 1, logs: 2 });
    expect(await row(admin, pr)).toMatchObject({ online_connections: 2, logs: 5 });
    expect(await row(admin, prOther)).toMatchObject({ online_connections: 2 });
    // A member who administers a workgroup sees its sessions online, as its panel lists them.
    const administers = (role: number) =>
      t.ctx.db
        .updateTable('project_member')
        .set({ role })
        .where('project_id', '=', starless)
        .where('account_id', '=', dana.id)
        .execute();
    await administers(1);
    try {
      expect(await row(dana.client, prOther)).toMatchObject({ online_connections: 2 });
      const listed = await dana.client.get(
        `/api/v1/tunnel_connection/list?q_project=${starless}&q_resource=${box}`,
      );
      expect(listed.json().num_results).toBe(2);
    } finally {
      await administers(0);
    }
  });

  it('keeps a default login user per member, among the workgroup’s', async () => {
    const pr = await projectResourceId(admin, wg, web);
    const res = await dana.client.request('PUT', `/api/project_resource/${pr}/default_username`, {
      default_username: 'deploy',
    });
    expect(res.json()).toMatchObject({ default_username: 'deploy' });
    expect((await admin.get(`/api/project_resource/${pr}`)).json().default_username).toBe('');
    const bad = await dana.client.request('PUT', `/api/project_resource/${pr}/default_username`, {
      default_username: 'nobody',
    });
    expect(bad.json()).toMatchObject({ code: 'InvalidParameter', field: 'default_username' });
    // When the workgroup stops granting it, it is no longer the default.
    await admin.request('PUT', `/api/project_resource/${pr}/login_username`, {
      login_username: ['root'],
    });
    const after = (await dana.client.get(`/api/project_resource/${pr}`)).json();
    expect(after).toMatchObject({ default_username: '', login_user: ['root'] });
    expect(after.resource.extension).toEqual({ username: ['root'], login_username: ['root'] });
    await admin.request('PUT', `/api/project_resource/${pr}/login_username`, {
      login_username: ['root', 'deploy'],
    });
    const dbPr = await projectResourceId(admin, wg, db);
    expect(
      failure(
        await dana.client.request('PUT', `/api/project_resource/${dbPr}/default_username`, {
          default_username: 'app',
        }),
      ),
    ).toBe('400 InvalidResource');
  });

  it('exports the workgroup’s resources for the member', async () => {
    const res = await dana.client.get(`/api/v1/project/resources/${wg}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(failure(await dana.client.get(`/api/v1/project/resources/999999/export`))).toBe(
      '404 ProjectNotFound',
    );
  });

  describe('Ansible inventory', () => {
    it('lists Linux servers through the gateway with the member’s codes', async () => {
      const pr = await projectResourceId(admin, wg, web);
      const code = (await dana.client.post('/api/tunnel', { project_resource_id: pr })).json().code;
      expect(code).toMatch(/^[a-z2-7]{20}$/);
      const res = await dana.client.get(`/api/project/${wg}/hosts?type=ansible&export=true`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="workgroup-${wg}-hosts.ini"`,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      const groups = parseInventory(res.body);
      expect([...groups.keys()]).toEqual(['Ops_1']);
      expect(Object.fromEntries(groups.get('Ops_1')!)).toEqual({
        web_1: { ansible_host: GATEWAY_HOST, ansible_port: '9998', ansible_user: code },
      });
      // Windows servers and databases are not Ansible hosts here.
      expect(res.body).not.toContain('win-1');
      expect(res.body).not.toContain('orders-db');

      if (hasAnsibleInventory()) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-ansible-'));
        const file = path.join(dir, 'hosts.ini');
        fs.writeFileSync(file, res.body);
        const out = execFileSync('ansible-inventory', ['-i', file, '--list'], {
          encoding: 'utf8',
          env: { ...process.env, ANSIBLE_INVENTORY_UNPARSED_FAILED: 'true', ANSIBLE_NOCOLOR: '1' },
        });
        fs.rmSync(dir, { recursive: true, force: true });
        const parsed = JSON.parse(out);
        expect(parsed.Ops_1.hosts).toEqual(['web_1']);
        expect(parsed._meta.hostvars.web_1).toEqual({
          ansible_host: GATEWAY_HOST,
          ansible_port: 9998,
          ansible_user: code,
        });
      }
    });

    it('says why a server is left out, and carries no one else’s code', async () => {
      const other = await createWorkgroup(admin, '9 lives');
      const extra = await addLinux(admin, lab, 'web 3', '10.0.0.5');
      await addResourcesTo(admin, other, [web, extra]);
      await addMembersTo(admin, other, [dana.id]);
      // The administrator's code on web 3 is theirs alone.
      const adminCode = (
        await admin.post('/api/tunnel', {
          project_resource_id: await projectResourceId(admin, other, extra),
        })
      ).json().code;
      const res = await dana.client.get(`/api/project/${other}/hosts?type=ansible`);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.body).not.toContain(adminCode);
      expect(res.body).toContain('# web_1: no valid connection code of yours');
      expect(res.body).toContain('# web_3: no valid connection code of yours');
      expect([...parseInventory(res.body).keys()]).toEqual(['workgroup_9_lives']);
    });

    it('answers HostsTypeError for another type, and not found outside the member’s workgroups', async () => {
      expect(failure(await dana.client.get(`/api/project/${wg}/hosts?type=salt`))).toBe(
        '400 HostsTypeError',
      );
      const hidden = await createWorkgroup(admin, 'Hidden');
      expect(failure(await dana.client.get(`/api/project/${hidden}/hosts?type=ansible`))).toBe(
        '404 ProjectNotFound',
      );
    });
  });
});
