import { describe, expect, it } from 'vitest';
import {
  ALLOW_IP_PATTERN,
  allowIpMatches,
  CreateCodeBodySchema,
  maskCode,
  TmpShareBodySchema,
  UpdateCodeBodySchema,
} from './code';
import { MESSAGES } from './messages';

describe('code rules', () => {
  it('takes one dotted IPv4 address or several joined by colons, or nothing', () => {
    for (const ok of ['', '10.0.0.1', '10.0.0.1:192.168.1.255', '0.0.0.0:1.2.3.4:255.255.255.255'])
      expect(ALLOW_IP_PATTERN.test(ok), ok).toBe(true);
    for (const bad of [
      '10.0.0',
      '10.0.0.256',
      '10.0.0.1,10.0.0.2',
      '10.0.0.1:',
      ':10.0.0.1',
      '10.0.0.*',
      '10.0.0.0/24',
      '::1',
      '010.0.0.1',
    ])
      expect(ALLOW_IP_PATTERN.test(bad), bad).toBe(false);
  });

  it('matches a client address against the allowed list', () => {
    expect(allowIpMatches('', '203.0.113.9')).toBe(true);
    expect(allowIpMatches('10.0.0.1:10.0.0.2', '10.0.0.2')).toBe(true);
    expect(allowIpMatches('10.0.0.1:10.0.0.2', '::ffff:10.0.0.1')).toBe(true);
    expect(allowIpMatches('10.0.0.1', '10.0.0.11')).toBe(false);
  });

  it('masks all but the first four and last two characters', () => {
    expect(maskCode('abcdefghijklmnopqrst')).toBe('abcd****st');
    expect(maskCode('abc')).toBe('***');
  });

  it('takes an expiry in hours or as a time, not both', () => {
    const base = { project_resource_id: 1 };
    expect(CreateCodeBodySchema.safeParse({ ...base, expire: 0.5 }).success).toBe(true);
    expect(CreateCodeBodySchema.safeParse({ ...base, expire_time: 2_000_000_000 }).success).toBe(
      true,
    );
    expect(
      CreateCodeBodySchema.safeParse({ ...base, expire: 1, expire_time: 2_000_000_000 }).success,
    ).toBe(false);
    expect(UpdateCodeBodySchema.safeParse({}).success).toBe(false);
    expect(UpdateCodeBodySchema.safeParse({ status: 'enable' }).success).toBe(false);
    expect(UpdateCodeBodySchema.safeParse({ status: 'disable' }).success).toBe(true);
  });

  it('takes the temporary authorization presets or custom minutes of at least 1', () => {
    const base = { project_resource_id: 1, username: 'root', psw: 'x' };
    for (const expire_time of [30, 60, 120])
      expect(TmpShareBodySchema.safeParse({ ...base, expire_time }).success).toBe(true);
    expect(TmpShareBodySchema.safeParse({ ...base, expire_time: 45 }).success).toBe(false);
    expect(TmpShareBodySchema.safeParse({ ...base, expire_time_customize: 1 }).success).toBe(true);
    const zero = TmpShareBodySchema.safeParse({ ...base, expire_time_customize: 0 });
    expect(zero.success).toBe(false);
    expect(zero.error?.issues[0]?.message).toBe(
      'the maximum effective time cannot be less than 1 minutes',
    );
    for (const missing of ['username', 'psw'] as const) {
      const body: Record<string, unknown> = { ...base };
      delete body[missing];
      expect(TmpShareBodySchema.safeParse(body).success, missing).toBe(false);
    }
  });

  it('quotes the spec’s texts', () => {
    expect(MESSAGES.tmpAuthTooLong.en).toBe(
      'Creation failed, the effective time has exceeded the maximum effective time of the code set by the administrator',
    );
    expect(MESSAGES.tmpAuthMinMinutes.en).toBe(
      'the maximum effective time cannot be less than 1 minutes',
    );
    expect(MESSAGES.selectDate.en).toBe('select date');
    expect(MESSAGES.memberNotChosen.en).toBe('Member is found');
    expect(MESSAGES.groupNotChosen.en).toBe('Group is not found');
    expect(MESSAGES.exitSuccess.en).toBe('Exit successfully!');
    expect(MESSAGES.removeSuccess.en).toBe('Remove successfully!');
  });
});
