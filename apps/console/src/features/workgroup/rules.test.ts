import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { MESSAGES, TUNNEL_MAX_SECONDS } from '@portcullis/contract';
import {
  createExpiryProblem,
  durationText,
  expiryFields,
  expiryProblemText,
  hasOwnCode,
  isExpired,
  maxCodeSeconds,
  modifyExpiryProblem,
  offersSafeMode,
  oneTimePassword,
  tmpAuthMaxMinutes,
  tmpAuthProblem,
} from './rules';
import { code } from './test-fixtures';

const NOW = 1_800_000_000;
const HOUR = 3600;
const DAY = 86_400;

describe('code expiry (spec 1 §5)', () => {
  it('takes the cluster maximum, or one year when the cluster sets none', () => {
    expect(maxCodeSeconds(0)).toBe(TUNNEL_MAX_SECONDS);
    expect(maxCodeSeconds(2 * HOUR)).toBe(2 * HOUR);
    expect(maxCodeSeconds(10 * TUNNEL_MAX_SECONDS)).toBe(TUNNEL_MAX_SECONDS);
  });

  it('refuses a quick expiry beyond the maximum (ExpireTimeTooBig)', () => {
    const max = 2 * HOUR;
    expect(createExpiryProblem('default', undefined, NOW, max)).toBeNull();
    expect(createExpiryProblem('day', undefined, NOW, max)).toBe('ExpireTimeTooBig');
    expect(createExpiryProblem('month', undefined, NOW, 30 * DAY)).toBeNull();
    expect(createExpiryProblem('month', undefined, NOW, 29 * DAY)).toBe('ExpireTimeTooBig');
  });

  it('needs a custom time, in the future (TimeNotValid), within the maximum', () => {
    const max = DAY;
    expect(createExpiryProblem('custom', undefined, NOW, max)).toBe('selectDate');
    expect(createExpiryProblem('custom', NOW - 1, NOW, max)).toBe('TimeNotValid');
    expect(createExpiryProblem('custom', NOW, NOW, max)).toBe('TimeNotValid');
    expect(createExpiryProblem('custom', NOW + 60, NOW, max)).toBeNull();
    expect(createExpiryProblem('custom', NOW + DAY, NOW, max)).toBeNull();
    expect(createExpiryProblem('custom', NOW + DAY + 1, NOW, max)).toBe('ExpireTimeTooBig');
  });

  it('caps a changed expiry at the creation time plus the maximum', () => {
    const created = NOW - 20 * HOUR;
    const max = DAY;
    expect(modifyExpiryProblem('keep', undefined, NOW, created, max)).toBeNull();
    // 4 hours are left of the cap: 30 minutes fit, one day does not.
    expect(modifyExpiryProblem('default', undefined, NOW, created, max)).toBeNull();
    expect(modifyExpiryProblem('day', undefined, NOW, created, max)).toBe('ExpireTimeTooBig');
    expect(modifyExpiryProblem('custom', undefined, NOW, created, max)).toBe('selectDate');
    expect(modifyExpiryProblem('custom', NOW - 5, NOW, created, max)).toBe('TimeNotValid');
    expect(modifyExpiryProblem('custom', created + DAY, NOW, created, max)).toBeNull();
    expect(modifyExpiryProblem('custom', created + DAY + 1, NOW, created, max)).toBe(
      'ExpireTimeTooBig',
    );
  });

  it('sends hours for a quick expiry, the time for a custom one, nothing to keep it', () => {
    expect(expiryFields('default', undefined)).toEqual({ expire: 0.5 });
    expect(expiryFields('day', undefined)).toEqual({ expire: 24 });
    expect(expiryFields('month', undefined)).toEqual({ expire: 720 });
    expect(expiryFields('custom', NOW + 99)).toEqual({ expire_time: NOW + 99 });
    expect(expiryFields('keep', undefined)).toEqual({});
  });

  it('words the problems with the catalogue and the spec, in both languages', () => {
    const en = i18next.getFixedT('en_US');
    const zh = i18next.getFixedT('zh_CN');
    expect(expiryProblemText('TimeNotValid', en)).toBe('Need future time');
    expect(expiryProblemText('selectDate', en)).toBe('select date');
    expect(expiryProblemText('ExpireTimeTooBig', en)).toMatch(/exceeds the maximum/);
    expect(expiryProblemText('TimeNotValid', zh)).toBe('需要未来的时间');
    expect(expiryProblemText('selectDate', zh)).toBe(MESSAGES.selectDate.zh);
    expect(durationText(2 * HOUR, en)).toBe('2 hours');
    expect(durationText(DAY, en)).toBe('1 day');
    expect(durationText(90 * 60, en)).toBe('90 minutes');
    expect(durationText(30 * DAY, zh)).toBe('30 天');
  });
});

describe('temporary authorization validity (spec 1 §5)', () => {
  it('takes a preset or custom minutes from 1 to the administrator maximum', () => {
    const max = tmpAuthMaxMinutes(2 * HOUR);
    expect(max).toBe(120);
    for (const preset of [30, 60, 120] as const)
      expect(tmpAuthProblem(preset, null, max)).toBeNull();
    expect(tmpAuthProblem('custom', 1, max)).toBeNull();
    expect(tmpAuthProblem('custom', 120, max)).toBeNull();
    expect(tmpAuthProblem('custom', 0, max)).toBe('tmpAuthMinMinutes');
    expect(tmpAuthProblem('custom', -3, max)).toBe('tmpAuthMinMinutes');
    expect(tmpAuthProblem('custom', null, max)).toBe('tmpAuthMinMinutes');
    expect(tmpAuthProblem('custom', 121, max)).toBe('tmpAuthTooLong');
  });

  it('refuses a preset above the maximum', () => {
    const max = tmpAuthMaxMinutes(HOUR);
    expect(tmpAuthProblem(60, null, max)).toBeNull();
    expect(tmpAuthProblem(120, null, max)).toBe('tmpAuthTooLong');
  });

  it('says so with the spec’s exact sentences', () => {
    const en = i18next.getFixedT('en_US');
    expect(en('messages.tmpAuthMinMinutes')).toBe(
      'the maximum effective time cannot be less than 1 minutes',
    );
    expect(en('messages.tmpAuthTooLong')).toBe(
      'Creation failed, the effective time has exceeded the maximum effective time of the code set by the administrator',
    );
    expect(i18next.getFixedT('zh_CN')('messages.tmpAuthTooLong')).toBe(MESSAGES.tmpAuthTooLong.zh);
  });

  it('proposes a fresh random password each time', () => {
    const a = oneTimePassword();
    const b = oneTimePassword();
    expect(a).toHaveLength(16);
    expect(a).not.toBe(b);
    expect(oneTimePassword(40)).toMatch(/^[A-Za-z0-9#%+=@]{40}$/);
  });
});

describe('codes in the panel', () => {
  it('marks a code expired when its end is now or past', () => {
    const now = 1_700_000_000;
    expect(isExpired(code({ expire_time: now + 1 }), now)).toBe(false);
    expect(isExpired(code({ expire_time: now }), now)).toBe(true);
    expect(isExpired(code({ expire_time: now - 1 }), now)).toBe(true);
    expect(isExpired(code({ expire_time: now + 100, expired: true }), now)).toBe(true);
  });

  it('allows creation only without an own non-temporary code', () => {
    const mine = code({ account: { id: 7, name: 'Me', avatar: '' } });
    const tmp = code({ id: 2, type: 'tmp_share', account: { id: 7, name: 'Me', avatar: '' } });
    const other = code({ id: 3, account: { id: 8, name: 'Bo', avatar: '' } });
    expect(hasOwnCode([mine], 7)).toBe(true);
    expect(hasOwnCode([tmp, other], 7)).toBe(false);
    expect(hasOwnCode([], 7)).toBe(false);
  });

  it('offers the safe-mode switch only for a Linux server of a safe-mode cluster', () => {
    const safe = { network_safe_mode: 1, safe_mode_approver: 0 };
    expect(offersSafeMode({ type: 'ecs', os: 'linux', safe })).toBe(true);
    expect(offersSafeMode({ type: 'ecs', os: 'win32', safe })).toBe(false);
    expect(offersSafeMode({ type: 'rds', os: 'mysql', safe })).toBe(false);
    expect(
      offersSafeMode({ type: 'ecs', os: 'linux', safe: { ...safe, network_safe_mode: 0 } }),
    ).toBe(false);
  });
});
