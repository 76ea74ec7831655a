/**
 * The gateway's check of a code (resolveCode, for the control channel of issue 6): what a valid
 * code resolves to, and each way it fails closed.
 */
import { CODE_PATTERN, type ResolvedCode } from '@portcullis/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import type { AppError } from '../../lib/app-error';
import { newCode } from './code-value';
import { resolveCode, type ResolveCodeRequest } from './resolve';
import { codeWorld, nowSeconds, type CodeWorld } from './test-fixtures';

describe('resolving a code for the gateway', () => {
  let t: TestApp;
  let w: CodeWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await codeWorld(t);
  });
  afterAll(() => t.close());

  const resolve = (request: Partial<ResolveCodeRequest> & { code: string }) =>
    resolveCode(t.ctx, { networkId: w.lab, clientIp: '127.0.0.1', ...request });

  async function failsWith(
    request: Partial<ResolveCodeRequest> & { code: string },
  ): Promise<string> {
    try {
      await resolve(request);
      return 'resolved';
    } catch (error) {
      return (error as AppError).code;
    }
  }

  async function freshCode(body: Record<string, unknown> = {}) {
    const res = await w.erin.client.post('/api/tunnel', { project_resource_id: w.web, ...body });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json() as { id: number; code: string };
  }

  const disable = (id: number) => w.erin.client.patch(`/api/tunnel/${id}`, { status: 'disable' });

  it('draws codes of 100 random bits, all different', () => {
    const values = Array.from({ length: 2000 }, () =>
      t.ctx.sealer.open(newCode(t.ctx).code_sealed),
    );
    expect(values.every((v) => CODE_PATTERN.test(v))).toBe(true);
    expect(new Set(values).size).toBe(values.length);
  });

  it('resolves a valid code to its member, resource and login users, default first', async () => {
    await w.erin.client.request('PUT', `/api/project_resource/${w.web}/default_username`, {
      default_username: 'deploy',
    });
    const { id, code } = await freshCode();
    const resolved: ResolvedCode = await resolve({ code });
    expect(resolved).toMatchObject({
      tunnel_id: id,
      type: 'normal',
      company_id: 1,
      account: { id: w.erin.id, account: 'erin@demo.local' },
      project_id: w.wg,
      project_resource_id: w.web,
      resource: { name: 'web-1', os: 'linux', ip_address: '10.0.0.1', port: 22, network_id: w.lab },
      login_users: ['deploy', 'root'],
      safe_mode: 0,
    });
    // No credential of the target in it.
    expect(JSON.stringify(resolved)).not.toContain('Secret#Pass1');
    await disable(id);
  });

  it('refuses a malformed, unknown or deleted code, or one of another cluster', async () => {
    expect(await failsWith({ code: "x' or 1=1 --" })).toBe('TunnelNotFound');
    expect(await failsWith({ code: 'a'.repeat(20) })).toBe('TunnelNotFound');
    const { id, code } = await freshCode();
    expect(await failsWith({ code, networkId: w.dark })).toBe('TunnelNotFound');
    await disable(id);
    expect(await failsWith({ code })).toBe('TunnelNotFound');
  });

  it('refuses an expired code (TunnelExpire) and an address not allowed', async () => {
    const limited = await freshCode({ allow_ip: '10.8.8.8:10.9.9.9' });
    expect(await failsWith({ code: limited.code, clientIp: '10.9.9.9' })).toBe('resolved');
    expect(await failsWith({ code: limited.code, clientIp: '::ffff:10.8.8.8' })).toBe('resolved');
    expect(await failsWith({ code: limited.code, clientIp: '10.8.8.9' })).toBe('IPNotInWhiteList');
    await t.ctx.db
      .updateTable('tunnel')
      .set({ expire_time: nowSeconds() - 1 })
      .where('id', '=', limited.id)
      .execute();
    expect(await failsWith({ code: limited.code, clientIp: '10.9.9.9' })).toBe('TunnelExpire');
    await disable(limited.id);
  });

  it('refuses a disabled member, and one who no longer reaches the workgroup', async () => {
    const { id, code } = await freshCode();
    await t.ctx.db.updateTable('account').set({ status: 1 }).where('id', '=', w.erin.id).execute();
    expect(await failsWith({ code })).toBe('AccountDisabled');
    await t.ctx.db.updateTable('account').set({ status: 0 }).where('id', '=', w.erin.id).execute();
    // Membership changed behind the workgroup pages' back (say, a group edit).
    await t.ctx.db
      .deleteFrom('project_member')
      .where('project_id', '=', w.wg)
      .where('account_id', '=', w.erin.id)
      .execute();
    expect(await failsWith({ code })).toBe('TunnelNotFound');
    await t.ctx.db
      .insertInto('project_member')
      .values({ project_id: w.wg, account_id: w.erin.id, role: 0, created_at: nowSeconds() })
      .execute();
    expect(await failsWith({ code })).toBe('resolved');
    await disable(id);
  });

  it('applies safe mode only while the cluster runs it and the code keeps it', async () => {
    await t.ctx.db.updateTable('network').set({ safe_mode: 1 }).where('id', '=', w.lab).execute();
    const { id, code } = await freshCode();
    expect((await resolve({ code })).safe_mode).toBe(1);
    await t.ctx.db.updateTable('network').set({ safe_mode: 0 }).where('id', '=', w.lab).execute();
    expect((await resolve({ code })).safe_mode).toBe(0);
    await disable(id);
  });

  it('lets a temporary authorization in once, with its password', async () => {
    const share = (
      await w.erin.client.post('/api/tunnel/tmp_share', {
        project_resource_id: w.web,
        username: 'root',
        psw: 'Once#Only1',
      })
    ).json();
    expect(await failsWith({ code: share.code })).toBe('PasswordError');
    expect(await failsWith({ code: share.code, password: 'wrong' })).toBe('PasswordError');
    const resolved = await resolve({ code: share.code, password: 'Once#Only1' });
    expect(resolved).toMatchObject({ type: 'tmp_share', login_users: ['root'] });
    expect(await failsWith({ code: share.code, password: 'Once#Only1' })).toBe('TunnelExpire');
    expect((await w.erin.client.get(`/api/tunnel/${share.id}`)).json().used).toBe(true);
  });
});
