import { describe, expect, it } from 'vitest';
import {
  CreateSshKeyBodySchema,
  SendSmsBodySchema,
  UpdateCurrentAccountBodySchema,
  UploadFileBodySchema,
  VerifyMobileBodySchema,
} from './account';
import { AVATAR_MAX_BYTES, MOBILE_PATTERN } from './constants';
import { ALL_ROUTES } from './index';

describe('personal-page request schemas (spec 1 §5)', () => {
  it('takes a name of 1-20 characters, trimmed, and refuses a blank one', () => {
    expect(UpdateCurrentAccountBodySchema.parse({ name: '  Ann  ' })).toEqual({ name: 'Ann' });
    expect(UpdateCurrentAccountBodySchema.safeParse({ name: 'x'.repeat(20) }).success).toBe(true);
    for (const name of ['x'.repeat(21), '   ', '']) {
      const res = UpdateCurrentAccountBodySchema.safeParse({ name });
      expect(res.success, name).toBe(false);
      expect(res.error?.issues[0]?.path).toEqual(['name']);
    }
    expect(UpdateCurrentAccountBodySchema.safeParse({}).success).toBe(false);
  });

  it('takes a mainland mobile number: 1, then 3, 4, 5, 7 or 8, then 9 digits', () => {
    for (const m of ['13012345678', '14012345678', '15012345678', '17012345678', '18012345678']) {
      expect(MOBILE_PATTERN.test(m), m).toBe(true);
    }
    for (const m of [
      '12012345678',
      '16012345678',
      '19012345678',
      '1301234567',
      '130123456789',
      '+8613012345678',
    ]) {
      expect(MOBILE_PATTERN.test(m), m).toBe(false);
    }
    expect(SendSmsBodySchema.parse({ mobile: ' 13012345678 ' })).toEqual({ mobile: '13012345678' });
    expect(VerifyMobileBodySchema.safeParse({ mobile: '13012345678', code: '12345' }).success).toBe(
      false,
    );
    expect(
      VerifyMobileBodySchema.safeParse({ mobile: '13012345678', code: '123456' }).success,
    ).toBe(true);
  });

  it('takes avatars of png, gif or jpeg, at most 1 MB', () => {
    const ok = { content: 'iVBORw0KGgo=', extension: 'png', file_name: 'a.png', file_size: 8 };
    expect(UploadFileBodySchema.safeParse(ok).success).toBe(true);
    for (const extension of ['png', 'gif', 'jpeg']) {
      expect(UploadFileBodySchema.safeParse({ ...ok, extension }).success, extension).toBe(true);
    }
    for (const extension of ['svg', 'bmp', 'webp', 'html']) {
      expect(UploadFileBodySchema.safeParse({ ...ok, extension }).success, extension).toBe(false);
    }
    expect(UploadFileBodySchema.safeParse({ ...ok, file_size: AVATAR_MAX_BYTES }).success).toBe(
      true,
    );
    expect(UploadFileBodySchema.safeParse({ ...ok, file_size: AVATAR_MAX_BYTES + 1 }).success).toBe(
      false,
    );
  });

  it('takes an SSH key with a name of 1-20 characters', () => {
    expect(
      CreateSshKeyBodySchema.safeParse({ title: 'x'.repeat(20), pubkey: 'ssh-ed25519 AAAA' })
        .success,
    ).toBe(true);
    expect(
      CreateSshKeyBodySchema.safeParse({ title: 'x'.repeat(21), pubkey: 'ssh-ed25519 AAAA' })
        .success,
    ).toBe(false);
    expect(
      CreateSshKeyBodySchema.safeParse({ title: ' ', pubkey: 'ssh-ed25519 AAAA' }).success,
    ).toBe(false);
    expect(CreateSshKeyBodySchema.safeParse({ title: 'a', pubkey: '' }).success).toBe(false);
  });
});

describe('routes', () => {
  it('cover the authentication and account calls of spec 1 §7 (single sign-on aside)', () => {
    const calls = [
      'POST /auth/login',
      'POST /auth/register',
      'POST /auth/logout',
      'POST /auth/reset_passwd',
      'POST /auth/reset_passwd_mail',
      'GET /auth/captcha',
      'GET /auth/show_captcha',
      'GET /auth/is_open_sso/:domain',
      'POST /auth/mfa',
      'GET /current_account',
      'PATCH /current_account',
      'POST /current_account/change_password',
      'POST /current_account/send_verify_sms',
      'POST /current_account/verify_mobile',
      'GET /account/:id',
      'POST /account/mfa',
      'GET /mfa/secret',
      'GET /mfa/img',
      'POST /file',
      'GET /v2/utils/notification_banner/csos',
      'GET /account_pubkey',
      'POST /account_pubkey',
      'DELETE /account_pubkey/:id',
    ];
    const defined = ALL_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(calls.filter((c) => !defined.includes(c))).toEqual([]);
    expect(new Set(defined).size).toBe(defined.length);
  });
});
