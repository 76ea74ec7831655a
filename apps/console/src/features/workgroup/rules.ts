/**
 * The code rules of spec 1 §5, written once for the dialogs and their tests: the expiry of a new
 * or changed code (never past the cluster's maximum, `ExpireTimeTooBig`; never in the past,
 * `TimeNotValid`; a custom time must be chosen, 'select date'), the validity of a temporary
 * authorization (presets 30, 60, 120 minutes or custom minutes between 1 and the administrator's
 * maximum, with the spec's two messages), and the allowed-IP rule from the contract. The server
 * checks all of them again; these only spare the member a round trip.
 */
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import {
  ALLOW_IP_PATTERN,
  CODE_QUICK_EXPIRES_HOURS,
  TUNNEL_MAX_SECONDS,
  type Code,
  type ProjectResource,
  type TMP_AUTH_PRESETS_MINUTES,
} from '@portcullis/contract';

const HOUR = 3600;

/** The quick expiries in the order the dialog offers them (spec 1 §5). */
export const QUICK_EXPIRIES = ['day', 'month', 'default'] as const;
export type QuickExpiry = (typeof QUICK_EXPIRIES)[number];
export type ExpiryChoice = QuickExpiry | 'custom';
/** Changing a code may also keep its expiry as it is. */
export type ModifyExpiryChoice = 'keep' | ExpiryChoice;

export type TmpAuthPreset = (typeof TMP_AUTH_PRESETS_MINUTES)[number];
export type TmpAuthChoice = TmpAuthPreset | 'custom';

/** What is wrong with a chosen expiry: an error code of the catalogue, or the 'select date' prompt. */
export type ExpiryProblem = 'ExpireTimeTooBig' | 'TimeNotValid' | 'selectDate';
/** What is wrong with a temporary authorization's validity (keys of the contract's MESSAGES). */
export type TmpAuthProblem = 'tmpAuthMinMinutes' | 'tmpAuthTooLong';

/**
 * The longest a code of this resource may live, in seconds: the cluster's maximum, where 0 means
 * no limit beyond the product's one year.
 */
export function maxCodeSeconds(maxTunnelExpireTime: number): number {
  return maxTunnelExpireTime > 0
    ? Math.min(maxTunnelExpireTime, TUNNEL_MAX_SECONDS)
    : TUNNEL_MAX_SECONDS;
}

export function quickExpirySeconds(choice: QuickExpiry): number {
  return CODE_QUICK_EXPIRES_HOURS[choice] * HOUR;
}

/**
 * Create code: a quick expiry runs from now and may not pass the maximum; a custom time must be
 * chosen, lie in the future and lie within the maximum from now.
 */
export function createExpiryProblem(
  choice: ExpiryChoice,
  customTime: number | undefined,
  now: number,
  maxSeconds: number,
): ExpiryProblem | null {
  if (choice !== 'custom') {
    return quickExpirySeconds(choice) > maxSeconds ? 'ExpireTimeTooBig' : null;
  }
  if (customTime === undefined) return 'selectDate';
  if (customTime <= now) return 'TimeNotValid';
  return customTime - now > maxSeconds ? 'ExpireTimeTooBig' : null;
}

/**
 * Modify code: the new expiry (a quick one from now, or a custom time) may not pass the code's
 * creation time plus the maximum (spec 1 §5), and a custom time must be chosen and be ahead.
 */
export function modifyExpiryProblem(
  choice: ModifyExpiryChoice,
  customTime: number | undefined,
  now: number,
  createTime: number,
  maxSeconds: number,
): ExpiryProblem | null {
  if (choice === 'keep') return null;
  const cap = createTime + maxSeconds;
  if (choice !== 'custom') {
    return now + quickExpirySeconds(choice) > cap ? 'ExpireTimeTooBig' : null;
  }
  if (customTime === undefined) return 'selectDate';
  if (customTime <= now) return 'TimeNotValid';
  return customTime > cap ? 'ExpireTimeTooBig' : null;
}

/** The expiry fields of a create or change body: hours from now, or an absolute time. */
export function expiryFields(
  choice: ModifyExpiryChoice,
  customTime: number | undefined,
): { expire?: number; expire_time?: number } {
  if (choice === 'keep') return {};
  if (choice === 'custom') return customTime === undefined ? {} : { expire_time: customTime };
  return { expire: CODE_QUICK_EXPIRES_HOURS[choice] };
}

/** The administrator's maximum for a temporary authorization, in whole minutes. */
export function tmpAuthMaxMinutes(maxSeconds: number): number {
  return Math.floor(maxSeconds / 60);
}

/**
 * Temporary authorization validity: custom minutes are at least 1; neither a preset nor custom
 * minutes may pass the administrator's maximum.
 */
export function tmpAuthProblem(
  choice: TmpAuthChoice,
  customMinutes: number | null | undefined,
  maxMinutes: number,
): TmpAuthProblem | null {
  const minutes = choice === 'custom' ? customMinutes : choice;
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes < 1) {
    return 'tmpAuthMinMinutes';
  }
  return minutes > maxMinutes ? 'tmpAuthTooLong' : null;
}

/** The text of an expiry problem in the current language. */
export function expiryProblemText(problem: ExpiryProblem, t: TFunction): string {
  return problem === 'selectDate' ? t('messages.selectDate') : t(`errors.${problem}`);
}

/** Allowed IPs: one dotted IPv4 address or several joined by ':'; empty means no limit. */
export function allowIpRules(t: TFunction): FormRule[] {
  return [
    {
      validator: async (_rule, value: unknown) => {
        const text = typeof value === 'string' ? value.trim() : '';
        if (!ALLOW_IP_PATTERN.test(text)) throw new Error(t('workgroup.code.allowIpInvalid'));
      },
    },
  ];
}

/** An expired code: its expiry is now or past (the server flags it too). */
export function isExpired(code: Pick<Code, 'expired' | 'expire_time'>, now: number): boolean {
  return code.expired || code.expire_time <= now;
}

/**
 * The safe-mode switch of a code appears only for a Linux server of a cluster that allows
 * network safe mode (spec 1 §4).
 */
export function offersSafeMode(resource: Pick<ProjectResource, 'type' | 'os' | 'safe'>): boolean {
  return (
    resource.safe.network_safe_mode === 1 && resource.type === 'ecs' && resource.os === 'linux'
  );
}

/** Creation is allowed only while the member has no non-temporary code for the resource. */
export function hasOwnCode(codes: readonly Code[], accountId: number | undefined): boolean {
  return codes.some(
    (c) => c.type === 'normal' && c.status === 'enable' && c.account.id === accountId,
  );
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789#%+=@';

/** A fresh one-time password for a temporary authorization (from the browser's CSPRNG). */
export function oneTimePassword(length = 16): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  // 256 is not a multiple of the alphabet's size: rejecting the tail keeps every character equally likely.
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of bytes) {
      if (b < limit && out.length < length) out += PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length];
    }
    crypto.getRandomValues(bytes);
  }
  return out;
}

/** A duration as its largest whole unit (the cluster setting picks one unit). */
export function durationParts(seconds: number): { unit: 'day' | 'hour' | 'minute'; count: number } {
  if (seconds % 86_400 === 0) return { unit: 'day', count: seconds / 86_400 };
  if (seconds % HOUR === 0) return { unit: 'hour', count: seconds / HOUR };
  return { unit: 'minute', count: Math.floor(seconds / 60) };
}

/** "30 days", "2 hours" … in the current language. */
export function durationText(seconds: number, t: TFunction): string {
  const { unit, count } = durationParts(seconds);
  return t(`workgroup.duration.${unit}`, { count });
}
