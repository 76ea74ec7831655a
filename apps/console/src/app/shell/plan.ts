/**
 * The shell's plan logic, kept pure so it is tested without a browser: the expiry display
 * (flagged at PLAN_EXPIRY_WARN_DAYS or fewer, 'none' without an expiry), the quota reminder
 * (accounts, clusters and resources over the plan's limits, 0 meaning unlimited, silenced for
 * QUOTA_REMINDER_SILENCE_DAYS) and the dismissible banner.
 */
import {
  PLAN_EXPIRY_WARN_DAYS,
  QUOTA_REMINDER_SILENCE_DAYS,
  type Plan,
  type Summary,
} from '@portcullis/contract';
import { DAY_MS } from '../../shared/time/format';

export type PlanExpiry =
  | { kind: 'none' }
  | { kind: 'date'; expire: number; daysLeft: number; warn: boolean; expired: boolean };

/** How the header shows the plan's expiry. */
export function planExpiry(
  plan: Pick<Plan, 'expire'> | null,
  nowMs: number = Date.now(),
): PlanExpiry {
  if (!plan || plan.expire === null) return { kind: 'none' };
  const remainingMs = plan.expire * 1000 - nowMs;
  return {
    kind: 'date',
    expire: plan.expire,
    daysLeft: Math.max(0, Math.ceil(remainingMs / DAY_MS)),
    warn: remainingMs <= PLAN_EXPIRY_WARN_DAYS * DAY_MS,
    expired: remainingMs <= 0,
  };
}

export type QuotaKind = 'accounts' | 'networks' | 'resources';

export interface QuotaOverage {
  kind: QuotaKind;
  used: number;
  limit: number;
}

const LIMIT_FIELD: Record<QuotaKind, 'account_limit' | 'network_limit' | 'resource_limit'> = {
  accounts: 'account_limit',
  networks: 'network_limit',
  resources: 'resource_limit',
};

/** Counters above their plan limit; a limit of 0 is unlimited and never exceeded. */
export function quotaOverages(
  summary: Pick<Summary, QuotaKind>,
  plan: Pick<Plan, 'account_limit' | 'network_limit' | 'resource_limit'> | null,
): QuotaOverage[] {
  if (!plan) return [];
  const overages: QuotaOverage[] = [];
  for (const kind of Object.keys(LIMIT_FIELD) as QuotaKind[]) {
    const limit = plan[LIMIT_FIELD[kind]];
    const used = summary[kind];
    if (limit > 0 && used > limit) overages.push({ kind, used, limit });
  }
  return overages;
}

export const QUOTA_SILENCE_STORAGE_KEY = 'portcullis.quotaReminder.silencedUntil';
export const BANNER_DISMISS_STORAGE_KEY = 'portcullis.banner.dismissed';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not remembered past this page; nothing else to do.
  }
}

export function isQuotaReminderSilenced(nowMs: number = Date.now()): boolean {
  const until = Number(read(QUOTA_SILENCE_STORAGE_KEY));
  return Number.isFinite(until) && until > nowMs;
}

/** Silences the quota reminder for QUOTA_REMINDER_SILENCE_DAYS from now. */
export function silenceQuotaReminder(nowMs: number = Date.now()): void {
  write(QUOTA_SILENCE_STORAGE_KEY, String(nowMs + QUOTA_REMINDER_SILENCE_DAYS * DAY_MS));
}

export function isBannerDismissed(id: string): boolean {
  return read(BANNER_DISMISS_STORAGE_KEY) === id;
}

/** Remembers that this banner (by id) was closed; a banner with a new id shows again. */
export function dismissBanner(id: string): void {
  write(BANNER_DISMISS_STORAGE_KEY, id);
}
