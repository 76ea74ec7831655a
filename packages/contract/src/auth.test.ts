import { describe, expect, it } from 'vitest';
import {
  LoginBodySchema,
  MfaCodeSchema,
  RegisterBodySchema,
  ResetPasswordMailBodySchema,
  nextLoginStep,
  type LoginReply,
} from './auth';

function reply(over: Partial<LoginReply>): LoginReply {
  return { otp_enabled: false, op: '', company_mfa: false, is_admin: 0, ...over };
}

describe('the four outcomes of a login, in order (spec 1 §2.2)', () => {
  it('asks for the one-time password first, whatever else is owed', () => {
    expect(nextLoginStep(reply({ otp_enabled: true }))).toBe('mfaComfirm');
    expect(nextLoginStep(reply({ otp_enabled: true, op: 'change_pwd', company_mfa: true }))).toBe(
      'mfaComfirm',
    );
  });

  it('then the password change, before the company MFA', () => {
    expect(nextLoginStep(reply({ op: 'change_pwd' }))).toBe('compelChangePassword');
    expect(nextLoginStep(reply({ op: 'change_pwd', company_mfa: true }))).toBe(
      'compelChangePassword',
    );
  });

  it('then the MFA binding the team requires, else the landing page', () => {
    expect(nextLoginStep(reply({ company_mfa: true }))).toBe('mfaOpen');
    expect(nextLoginStep(reply({}))).toBe('landing');
    expect(nextLoginStep(reply({ is_admin: 1 }))).toBe('landing');
  });
});

describe('sign-in request schemas (spec 1 §5)', () => {
  it('trims the team ID and the account, and requires domain, username and password', () => {
    const ok = LoginBodySchema.parse({
      domain: ' demo ',
      username: ' me@demo.local ',
      password: ' p ',
    });
    expect(ok).toEqual({ domain: 'demo', username: 'me@demo.local', password: ' p ', captcha: '' });
    for (const missing of ['domain', 'username', 'password']) {
      const body: Record<string, string> = { domain: 'demo', username: 'me', password: 'p' };
      delete body[missing];
      const res = LoginBodySchema.safeParse(body);
      expect(res.success, missing).toBe(false);
      expect(res.error?.issues[0]?.path).toEqual([missing]);
    }
    expect(LoginBodySchema.safeParse({ domain: '  ', username: 'me', password: 'p' }).success).toBe(
      false,
    );
  });

  it('takes MFA codes of exactly six digits', () => {
    expect(MfaCodeSchema.parse(' 123456 ')).toBe('123456');
    for (const bad of ['12345', '1234567', 'abcdef', '12 456', '']) {
      expect(MfaCodeSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('takes a team ID of 2-32 letters or digits at registration', () => {
    const base = {
      captcha: 'abcd',
      company: {
        domain: 'ab',
        email: 'boss@ab.example',
        full_name: 'AB Ltd',
        contact_name: 'Boss',
        contact_address: 'Road 1',
      },
      account: { account: 'boss@ab.example', name: 'Boss' },
    };
    for (const domain of ['ab', 'A1', 'x'.repeat(32), ' team42 ']) {
      expect(
        RegisterBodySchema.safeParse({ ...base, company: { ...base.company, domain } }).success,
        domain,
      ).toBe(true);
    }
    for (const domain of ['a', 'x'.repeat(33), 'my-team', 'my team', '团队']) {
      expect(
        RegisterBodySchema.safeParse({ ...base, company: { ...base.company, domain } }).success,
        domain,
      ).toBe(false);
    }
    for (const field of ['full_name', 'contact_address', 'email'] as const) {
      const company = { ...base.company, [field]: '' };
      expect(RegisterBodySchema.safeParse({ ...base, company }).success, field).toBe(false);
    }
    expect(RegisterBodySchema.safeParse({ ...base, captcha: '' }).success).toBe(false);
    expect(
      RegisterBodySchema.safeParse({ ...base, account: { ...base.account, name: '' } }).success,
    ).toBe(false);
  });

  it('needs an e-mail address as the account of a forgotten password', () => {
    const ok = { domain: 'demo', account: 'me@demo.local', captcha: 'abcd' };
    expect(ResetPasswordMailBodySchema.safeParse(ok).success).toBe(true);
    expect(ResetPasswordMailBodySchema.safeParse({ ...ok, account: 'me' }).success).toBe(false);
    expect(ResetPasswordMailBodySchema.safeParse({ ...ok, captcha: '' }).success).toBe(false);
  });
});
