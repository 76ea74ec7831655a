/**
 * Temporary authorization (spec 1 §2.7 dialogs, §3, §5): a server's code with a one-time
 * password, for 30, 60 or 120 minutes or custom minutes, at least 1 and within the
 * administrator's maximum; the password is shown once and stored hashed.
 */
import { MESSAGES } from '@portcullis/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { failure } from '../workgroups/test-fixtures';
import { codeWorld, nowSeconds, type CodeWorld } from './test-fixtures';

describe('temporary authorization', () => {
  let t: TestApp;
  let w: CodeWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await codeWorld(t);
  });
  afterAll(() => t.close());

  const share = (body: Record<string, unknown>) =>
    w.erin.client.post('/api/tunnel/tmp_share', {
      project_resource_id: w.web,
      username: 'root',
      psw: 'Once#Only1',
      ...body,
    });

  it('makes a code with a one-time password, shown once and stored hashed', async () => {
    const res = await share({ allow_ip: '203.0.113.5:198.51.100.7' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const reply = res.json();
    expect(reply).toMatchObject({
      type: 'tmp_share',
      psw: 'Once#Only1',
      tmp_username: 'root',
      allow_ip: '203.0.113.5:198.51.100.7',
      masked: false,
      used: false,
      status: 'enable',
    });
    expect(reply.code).toMatch(/^[a-z2-7]{20}$/);
    expect(Math.abs(reply.expire_time - (nowSeconds() + 1800))).toBeLessThanOrEqual(2);
    const row = await t.ctx.db
      .selectFrom('tunnel')
      .selectAll()
      .where('id', '=', reply.id)
      .executeTakeFirstOrThrow();
    expect(row.tmp_passwd_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain('Once#Only1');
    // Never again: not in the list, not in the code's own reply, not in the log.
    const again = await w.erin.client.get(`/api/tunnel/${reply.id}`);
    expect(again.body).not.toContain('Once#Only1');
    expect(again.json().psw).toBeUndefined();
    expect((await w.erin.client.get('/api/tunnel?type=tmp_share')).body).not.toContain(
      'Once#Only1',
    );
    expect(t.logs()).not.toContain('Once#Only1');
  });

  it('takes the presets and custom minutes, several shares per member', async () => {
    for (const minutes of [30, 60, 120]) {
      const reply = (await share({ expire_time: minutes })).json();
      expect(Math.abs(reply.expire_time - (nowSeconds() + minutes * 60))).toBeLessThanOrEqual(2);
    }
    const custom = (await share({ expire_time_customize: 1 })).json();
    expect(Math.abs(custom.expire_time - (nowSeconds() + 60))).toBeLessThanOrEqual(2);
    const wrongPreset = await share({ expire_time: 45 });
    expect(wrongPreset.json()).toMatchObject({ code: 'InvalidParameter', field: 'expire_time' });
    const both = await share({ expire_time: 30, expire_time_customize: 5 });
    expect(both.json()).toMatchObject({ code: 'InvalidParameter' });
  });

  it('refuses less than one minute and more than the administrator’s maximum', async () => {
    const zero = await share({ expire_time_customize: 0 });
    expect(zero.json()).toMatchObject({ code: 'InvalidParameter', field: 'expire_time_customize' });
    expect(MESSAGES.tmpAuthMinMinutes.en).toBe(
      'the maximum effective time cannot be less than 1 minutes',
    );
    await w.admin.patch(`/api/network/${w.lab}`, { max_tunnel_expire_time: 3600 });
    expect(failure(await share({ expire_time: 120 }))).toBe('400 ExpireTimeTooBig');
    expect(failure(await share({ expire_time_customize: 61 }))).toBe('400 ExpireTimeTooBig');
    expect((await share({ expire_time: 60 })).statusCode).toBe(200);
    expect((await share({ expire_time_customize: 60 })).statusCode).toBe(200);
    await w.admin.patch(`/api/network/${w.lab}`, { max_tunnel_expire_time: 0 });
  });

  it('needs a username the workgroup grants and a password, on a server', async () => {
    const stranger = await share({ username: 'nobody' });
    expect(stranger.json()).toMatchObject({ code: 'InvalidParameter', field: 'username' });
    for (const missing of ['username', 'psw']) {
      const body: Record<string, unknown> = {
        project_resource_id: w.web,
        username: 'root',
        psw: 'x',
      };
      delete body[missing];
      const res = await w.erin.client.post('/api/tunnel/tmp_share', body);
      expect(res.json(), missing).toMatchObject({ code: 'InvalidParameter', field: missing });
    }
    expect(failure(await share({ allow_ip: '10.0.0.1;10.0.0.2' }))).toBe('400 InvalidParameter');
    const onDb = await share({ project_resource_id: w.db, username: 'app' });
    expect(failure(onDb)).toBe('400 InvalidResource');
    const windows = await share({ project_resource_id: w.win, username: 'administrator' });
    expect(windows.json()).toMatchObject({
      type: 'tmp_share',
      connect: { port: 9389, command: '' },
    });
    expect(failure(await share({ project_resource_id: w.darkWeb }))).toBe('503 AgentError');
    const gina = await w.gina.client.post('/api/tunnel/tmp_share', {
      project_resource_id: w.web,
      username: 'root',
      psw: 'x',
    });
    expect(failure(gina)).toBe('404 ProjectResourceNotFound');
  });

  it('cannot be changed, only deleted', async () => {
    const reply = (await share({})).json();
    for (const body of [{ expire: 1 }, { allow_ip: '10.0.0.1' }, { safe_mode: 0 }]) {
      const res = await w.erin.client.patch(`/api/tunnel/${reply.id}`, body);
      expect(failure(res), JSON.stringify(body)).toBe('400 TunnelCannotChange');
    }
    const deleted = await w.erin.client.patch(`/api/tunnel/${reply.id}`, { status: 'disable' });
    expect(deleted.json()).toMatchObject({ status: 'disable', type: 'tmp_share' });
  });

  it('does not count against the one ordinary code per resource', async () => {
    const code = await w.erin.client.post('/api/tunnel', { project_resource_id: w.web });
    expect(code.statusCode).toBe(200);
    expect((await share({})).statusCode).toBe(200);
  });
});
