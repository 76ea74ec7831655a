import { describe, expect, it } from 'vitest';
import { PLAN_EXPIRY_WARN_DAYS, QUOTA_REMINDER_SILENCE_DAYS } from '@portcullis/contract';
import { plan, summary } from '../../test/fixtures';
import {
  dismissBanner,
  isBannerDismissed,
  isQuotaReminderSilenced,
  planExpiry,
  quotaOverages,
  silenceQuotaReminder,
} from './plan';

const NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400;
const nowS = NOW / 1000;

describe('planExpiry', () => {
  it("shows 'none' without an expiry or a plan", () => {
    expect(planExpiry(plan({ expire: null }), NOW)).toEqual({ kind: 'none' });
    expect(planExpiry(null, NOW)).toEqual({ kind: 'none' });
  });

  it(`flags ${PLAN_EXPIRY_WARN_DAYS} days or fewer`, () => {
    const at30 = planExpiry(plan({ expire: nowS + PLAN_EXPIRY_WARN_DAYS * DAY }), NOW);
    expect(at30).toMatchObject({ kind: 'date', warn: true, daysLeft: 30, expired: false });
    const at31 = planExpiry(plan({ expire: nowS + 31 * DAY }), NOW);
    expect(at31).toMatchObject({ warn: false, daysLeft: 31 });
    const justOver = planExpiry(plan({ expire: nowS + PLAN_EXPIRY_WARN_DAYS * DAY + 60 }), NOW);
    expect(justOver).toMatchObject({ warn: false });
  });

  it('marks a past expiry as expired', () => {
    expect(planExpiry(plan({ expire: nowS - 10 }), NOW)).toMatchObject({
      expired: true,
      warn: true,
      daysLeft: 0,
    });
  });
});

describe('quotaOverages', () => {
  it('lists the counters above their limit', () => {
    const p = plan({ account_limit: 5, network_limit: 1, resource_limit: 10 });
    const s = summary({ accounts: 6, networks: 1, resources: 11 });
    expect(quotaOverages(s, p)).toEqual([
      { kind: 'accounts', used: 6, limit: 5 },
      { kind: 'resources', used: 11, limit: 10 },
    ]);
  });

  it('treats 0 as unlimited', () => {
    const p = plan({ account_limit: 0, network_limit: 0, resource_limit: 0 });
    expect(quotaOverages(summary({ accounts: 999, networks: 99, resources: 9999 }), p)).toEqual([]);
  });

  it('has nothing to say without a plan', () => {
    expect(quotaOverages(summary({ accounts: 999 }), null)).toEqual([]);
  });
});

describe('local memory', () => {
  it(`silences the quota reminder for ${QUOTA_REMINDER_SILENCE_DAYS} days`, () => {
    expect(isQuotaReminderSilenced(NOW)).toBe(false);
    silenceQuotaReminder(NOW);
    expect(isQuotaReminderSilenced(NOW + 6 * DAY * 1000)).toBe(true);
    expect(isQuotaReminderSilenced(NOW + 7 * DAY * 1000 + 1)).toBe(false);
  });

  it('remembers a dismissed banner by id only', () => {
    dismissBanner('b1');
    expect(isBannerDismissed('b1')).toBe(true);
    expect(isBannerDismissed('b2')).toBe(false);
  });
});
