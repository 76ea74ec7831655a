import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  lastMailLink,
  outbox,
  solveCaptcha,
  type TestApp,
} from '../../test/harness';
import { nowSeconds } from '../../lib/time';

const payload = (domain: string, captcha: string) => ({
  captcha,
  company: {
    domain,
    email: 'owner@acme.test',
    full_name: 'Acme Ltd',
    contact_name: 'Olive Owner',
    contact_address: '1 Harbour Road',
    contact_phone: '13800138000',
  },
  account: { account: 'owner@acme.test', name: 'Olive' },
});

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a bad team ID and a wrong captcha without creating anything', async () => {
    const c = t.client();
    for (const domain of ['a', 'has space', 'x'.repeat(33), 'dash-ed']) {
      const res = await c.post('/api/auth/register', payload(domain, 'zzzz'));
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'company.domain' });
    }
    const wrong = await c.post('/api/auth/register', payload('acme', 'zzzz'));
    expect(wrong.json().code).toBe('CaptchaIncorrect');
    expect(
      await t.ctx.db
        .selectFrom('company')
        .select('id')
        .where('domain_key', '=', 'acme')
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('creates the team with a 30-day Trial and mails the administrator a password link', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/register', payload('Acme', await solveCaptcha(t, c)));
    expect(res.statusCode).toBe(200);
    const company = await t.ctx.db
      .selectFrom('company')
      .selectAll()
      .where('domain_key', '=', 'acme')
      .executeTakeFirstOrThrow();
    expect(company).toMatchObject({
      domain: 'Acme',
      full_name: 'Acme Ltd',
      contact_name: 'Olive Owner',
    });
    const plan = await t.ctx.db
      .selectFrom('plan')
      .selectAll()
      .where('company_id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(plan.name).toBe('Trial');
    expect(plan.expire_time! - nowSeconds()).toBeGreaterThan(29 * 86_400);
    expect(outbox(t, 'mail').at(-1)).toMatch(/^To: owner@acme\.test/m);

    const link = lastMailLink(t);
    const code = link.searchParams.get('code')!;
    // No password yet: nobody can sign in until the link is used.
    expect((await t.client().login('acme', 'owner@acme.test', '')).statusCode).toBe(400);
    expect(
      (
        await c.post('/api/auth/reset_passwd', {
          code,
          account: 'owner@acme.test',
          pwd: 'Owner#Pass1',
        })
      ).statusCode,
    ).toBe(200);
    const login = await t.client().login('ACME', 'owner@acme.test', 'Owner#Pass1');
    expect(login.json()).toMatchObject({ is_admin: 1, op: '' });
  });

  it('refuses a team ID in use, whatever its case', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/register', payload('ACME', await solveCaptcha(t, c)));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('DomainInUse');
  });
});
