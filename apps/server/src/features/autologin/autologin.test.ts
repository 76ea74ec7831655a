/**
 * Key upload and key test with real parts: the real server, the real gateway code dialing it
 * with the cluster key, and a real OpenSSH sshd on loopback that also reads the test account's
 * own ~/.ssh/authorized_keys (the file a key upload writes). The account is this file's own;
 * the SQLite and PostgreSQL runs share it, so checks count only their own key's lines.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../../../gateway/src/control/client';
import { createLogger } from '../../../../gateway/src/core/logger';
import { startSshd, type SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import { createOtherTeam, otherTeamAdmin } from '../team/test-fixtures';
import { clusterKey } from '../workgroups/test-fixtures';

const USER = 'portcullis-autologin';
const run = promisify(execFile);

async function poll<T>(read: () => Promise<T>, done: (v: T) => boolean, seconds = 30) {
  let value = await read();
  for (let i = 0; i < seconds * 10 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('key upload and key test (real gateway, real sshd)', () => {
  let t: TestApp;
  let admin: TestClient;
  let gateway: Gateway;
  let sshd: SshdPeer;
  let networkId: number;
  let linuxId: number;
  let authorizedKeys: string;
  const gatewayLogs: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedIn(t);
    networkId = (await admin.post('/api/v1/network', { name: 'Keys' })).json().id;
    const key = await clusterKey(admin, networkId);
    sshd = await startSshd({ user: USER, homeAuthorizedKeys: true });
    const home = (await run('getent', ['passwd', USER])).stdout.trim().split(':')[5] ?? '';
    authorizedKeys = path.join(home, '.ssh', 'authorized_keys');
    gateway = startGateway({
      server: address,
      key,
      host: 'gw.keys',
      logger: createLogger({ level: 'trace', write: (line) => gatewayLogs.push(line) }),
    });
    await gateway.connected;
    await poll(
      async () => (await admin.get(`/api/v1/network/${networkId}`)).json(),
      (c) => c.agent_status === 1,
    );
    const res = await admin.post('/api/v1/resource', {
      network_id: networkId,
      name: 'sshd',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [
        { username: sshd.user, auth_type: 1 },
        { username: 'nobody-here', auth_type: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    linuxId = res.json().id;
  });
  afterAll(async () => {
    await gateway?.stop();
    await sshd?.stop();
    await t?.close();
  });

  async function finish(start: LightMyRequestResponse, query: string) {
    expect(start.statusCode, start.body).toBe(200);
    return poll(
      async () => (await admin.get(`/api/${query}?task_id=${start.json().task_id}`)).json(),
      (s) => s.status !== 'pending',
    );
  }
  const upload = async (username: string, password: string, id = linuxId) =>
    finish(
      await admin.post(`/api/resource/${id}/autologin`, { username, password }),
      'autologin_query',
    );
  const keyTest = async (username: string, id = linuxId) =>
    finish(
      await admin.post(`/api/resource/${id}/test_autologin`, { username }),
      'test_autologin_query',
    );
  const publicKey = async () =>
    (
      await t.ctx.db
        .selectFrom('resource_keypair')
        .select('public_key')
        .where('resource_id', '=', linuxId)
        .executeTakeFirstOrThrow()
    ).public_key;
  const testResults = async () =>
    (await admin.get(`/api/v1/resource/${linuxId}`))
      .json()
      .extension.data.map((d: { test_result: string | null }) => d.test_result);

  it('uploads the resource’s own key with the password, then logs in with it', async () => {
    expect(await upload(sshd.user, sshd.password)).toEqual({ status: 'success', reason: '' });
    const line = await publicKey();
    expect(line).toMatch(new RegExp(`^ssh-ed25519 \\S+ portcullis-resource-${linuxId}$`));
    expect(await testResults()).toEqual(['enable', null]);
    expect(await keyTest(sshd.user)).toEqual({ status: 'success', reason: '' });

    // A second upload adds nothing: exactly one copy of the key.
    expect(await upload(sshd.user, sshd.password)).toEqual({ status: 'success', reason: '' });
    const copies = fs
      .readFileSync(authorizedKeys, 'utf8')
      .split('\n')
      .filter((l) => l === line);
    expect(copies).toHaveLength(1);
    expect(await publicKey()).toBe(line);
  });

  it('fails with SetAutologinFailed for a wrong password', async () => {
    expect(await upload(sshd.user, 'not-the-password')).toEqual({
      status: 'failed',
      reason: 'auth_failed',
      code: 'SetAutologinFailed',
    });
    // The key put there before still works; a failed upload changes no test result.
    expect(await testResults()).toEqual(['enable', null]);
  });

  it('reports a key test that cannot log in, and marks that SSH-key login disabled', async () => {
    expect(await keyTest('nobody-here')).toEqual({
      status: 'failed',
      reason: 'auth_failed',
      code: 'SetAutologinFailed',
    });
    expect(await testResults()).toEqual(['enable', 'disable']);
  });

  it('sends no password to a server whose host key is not the pinned one', async () => {
    const pin = (hostKey: string | null) =>
      t.ctx.db
        .updateTable('resource')
        .set({ host_key: hostKey })
        .where('id', '=', linuxId)
        .execute();
    await pin(`SHA256:${'B'.repeat(43)}`);
    try {
      const attempts = () => fs.readFileSync(sshd.logFile, 'utf8').match(/Failed|Accepted/g) ?? [];
      const before = attempts().length;
      expect(await upload(sshd.user, 'not-the-password')).toEqual({
        status: 'failed',
        reason: 'host_key_changed',
        code: 'SetAutologinFailed',
      });
      expect(await keyTest(sshd.user)).toEqual({
        status: 'failed',
        reason: 'host_key_changed',
        code: 'SetAutologinFailed',
      });
      // sshd saw neither the password nor the key.
      expect(attempts().length).toBe(before);
    } finally {
      await pin(null);
    }
    expect(await keyTest(sshd.user)).toEqual({ status: 'success', reason: '' });
  });

  it('refuses what it cannot do: not Linux, unknown user, another team, no gateway', async () => {
    const windows = await admin.post('/api/v1/resource', {
      network_id: networkId,
      name: 'windows',
      ip_address: '127.0.0.1',
      os: 'win32',
      port: 3389,
      login_users: [{ username: 'administrator', auth_type: 0, password: 'x' }],
    });
    const mysql = await admin.post('/api/v1/resource', {
      network_id: networkId,
      name: 'mysql',
      ip_address: '127.0.0.1',
      os: 'mysql',
      port: 3306,
      username: 'root',
      password: 'x',
      databases: '*',
    });
    for (const id of [windows.json().id, mysql.json().id]) {
      const up = await admin.post(`/api/resource/${id}/autologin`, {
        username: 'administrator',
        password: 'x',
      });
      expect(up.statusCode).toBe(400);
      expect(up.json().code).toBe('MustBeLinuxServer');
      const test = await admin.post(`/api/resource/${id}/test_autologin`, { username: 'root' });
      expect(test.json().code).toBe('MustBeLinuxServer');
    }

    const unknown = await admin.post(`/api/resource/${linuxId}/autologin`, {
      username: 'someone',
      password: 'x',
    });
    expect(unknown.json()).toMatchObject({ code: 'InvalidParameter', field: 'username' });
    const empty = await admin.post(`/api/resource/${linuxId}/autologin`, {
      username: sshd.user,
      password: '',
    });
    expect(empty.json().code).toBe('InvalidParameter');

    const task = await admin.post(`/api/resource/${linuxId}/test_autologin`, {
      username: sshd.user,
    });
    await createOtherTeam(t);
    const other = await otherTeamAdmin(t);
    const theirs = await other.post(`/api/resource/${linuxId}/autologin`, {
      username: sshd.user,
      password: sshd.password,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('ResourceNotFound');
    expect(
      (await other.post(`/api/resource/${linuxId}/test_autologin`, { username: sshd.user })).json()
        .code,
    ).toBe('ResourceNotFound');
    expect(
      (await other.get(`/api/test_autologin_query?task_id=${task.json().task_id}`)).json().code,
    ).toBe('TaskExpired');
    // A key test's id is not a key upload's.
    expect(
      (await admin.get(`/api/autologin_query?task_id=${task.json().task_id}`)).json().code,
    ).toBe('TaskExpired');

    const lonely = (await admin.post('/api/v1/network', { name: 'No gateway' })).json().id;
    const far = await admin.post('/api/v1/resource', {
      network_id: lonely,
      name: 'far',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [{ username: sshd.user, auth_type: 1 }],
    });
    const none = await admin.post(`/api/resource/${far.json().id}/autologin`, {
      username: sshd.user,
      password: sshd.password,
    });
    expect(none.statusCode).toBe(503);
    expect(none.json().code).toBe('AgentError');
  });

  it('keeps the password nowhere, and the private key only sealed', async () => {
    const privateKey = (await t.ctx.db
      .selectFrom('resource_keypair')
      .select('private_key_sealed')
      .where('resource_id', '=', linuxId)
      .executeTakeFirstOrThrow()
      .then((r) => t.ctx.sealer.open(r.private_key_sealed))) as string;
    const keyBody = privateKey.split('\n')[1]!;
    expect(keyBody.length).toBeGreaterThan(20);

    const tables =
      t.ctx.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
            t.ctx.db,
          )
        : await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            t.ctx.db,
          );
    let dump = '';
    for (const { name } of tables.rows) {
      const rows = await sql`select * from ${sql.table(name)}`.execute(t.ctx.db);
      dump += JSON.stringify(rows.rows);
    }
    expect(dump).toContain('portcullis-resource-');
    for (const secret of [sshd.password, 'not-the-password', keyBody]) {
      expect(dump).not.toContain(secret);
      expect(t.logs()).not.toContain(secret);
      expect(gatewayLogs.join('\n')).not.toContain(secret);
    }
    expect(gatewayLogs.join('\n')).toContain('"kind":"key_upload"');
  });

  it('forgets the key pair with its resource', async () => {
    const extra = await admin.post('/api/v1/resource', {
      network_id: networkId,
      name: 'short-lived',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [{ username: sshd.user, auth_type: 1 }],
    });
    const id = extra.json().id as number;
    expect((await keyTest(sshd.user, id)).status).toBe('failed');
    const count = async () =>
      (
        await t.ctx.db
          .selectFrom('resource_keypair')
          .select('resource_id')
          .where('resource_id', '=', id)
          .execute()
      ).length;
    expect(await count()).toBe(1);
    expect((await admin.delete(`/api/resource/${id}`)).statusCode).toBe(200);
    expect(await count()).toBe(0);
  });
});
