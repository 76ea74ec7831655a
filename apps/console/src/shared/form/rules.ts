/**
 * Ant Design form rules built from the contract: the limits, patterns and password levels are
 * the contract's, and the spec's exact texts come from its MESSAGES (translated under
 * `messages.*`). Each form asks for its rules here, so a rule is written once.
 */
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import {
  AVATAR_EXTENSIONS,
  AVATAR_MAX_BYTES,
  GROUP_NAME_MAX,
  GROUP_NAME_MIN,
  GROUP_NOTE_MAX,
  IP_WHITELIST_PATTERN,
  isPasswordLevel,
  MEMBER_NAME_MAX,
  MEMBER_NAME_MIN,
  MFA_CODE_PATTERN,
  MOBILE_PATTERN,
  NAME_MAX,
  PASSWORD_LEVEL_MESSAGE,
  PASSWORD_MAX,
  satisfiesLevel,
  SESSION_HOLD_MAX_MINUTES,
  SESSION_HOLD_MIN_MINUTES,
  SMS_CODE_LENGTH,
  SSH_KEY_NAME_MAX,
  SSO_ACCESS_DOMAIN_PATTERN,
  SSO_ID_VENDOR_MAX,
  SSO_METADATA_MAX_BYTES,
  TEAM_ID_MAX,
  TEAM_ID_MIN,
  TEAM_ID_PATTERN,
  type PasswordLevel,
} from '@portcullis/contract';

/** A team's strength level from anything (a query string, a reply); unknown values give 0. */
export function toPasswordLevel(value: unknown): PasswordLevel {
  const n = typeof value === 'string' ? Number.parseInt(value, 10) : value;
  return isPasswordLevel(n) ? n : 0;
}

/** The hint shown under a new-password field, or '' when the level has no rule. */
export function passwordLevelHint(level: PasswordLevel, t: TFunction): string {
  return level === 0 ? '' : t(`messages.${PASSWORD_LEVEL_MESSAGE[level]}`);
}

/** A required field with a translated message; whitespace alone counts as empty. */
export function requiredRule(message: string): FormRule {
  return { required: true, whitespace: true, message };
}

/** New password: required, then the team's strength level (spec 1 §5). */
export function passwordRules(level: PasswordLevel, t: TFunction): FormRule[] {
  return [
    { required: true, message: t('messages.passwordRequired') },
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value === '') return;
        if (value.length > PASSWORD_MAX) {
          throw new Error(t('common.rules.passwordTooLong', { max: PASSWORD_MAX }));
        }
        if (!satisfiesLevel(value, level)) throw new Error(passwordLevelHint(level, t));
      },
    },
  ];
}

/** The repeat field: required, and equal to the field named `passwordField`. */
export function confirmPasswordRules(passwordField: string, t: TFunction): FormRule[] {
  return [
    { required: true, message: t('messages.passwordAgainRequired') },
    ({ getFieldValue }) => ({
      validator: async (_rule, value: unknown) => {
        if (!value || getFieldValue(passwordField) === value) return;
        throw new Error(t('messages.passwordMismatch'));
      },
    }),
  ];
}

/** A password to sign in with: required, no strength rule. */
export function loginPasswordRules(t: TFunction): FormRule[] {
  return [{ required: true, message: t('messages.passwordRequired') }];
}

/** A 6-digit TOTP code: 'Enter the 6-digit security code'. */
export function mfaCodeRules(t: TFunction): FormRule[] {
  return [
    { required: true, message: t('messages.mfaCode') },
    { pattern: MFA_CODE_PATTERN, message: t('messages.mfaCode') },
  ];
}

/** A display name: required, not blank, at most NAME_MAX characters. */
export function nameRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.nameRequired')),
    { max: NAME_MAX, message: t('common.rules.nameMax', { max: NAME_MAX }) },
  ];
}

/** A mainland mobile number that differs from the current one. */
export function mobileRules(current: string, t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.mobileRequired')),
    { pattern: MOBILE_PATTERN, message: t('common.rules.mobileInvalid') },
    {
      validator: async (_rule, value: unknown) => {
        if (current && typeof value === 'string' && value.trim() === current) {
          throw new Error(t('common.rules.mobileSame'));
        }
      },
    },
  ];
}

const SMS_CODE_PATTERN = new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`);

export function smsCodeRules(t: TFunction): FormRule[] {
  const message = t('common.rules.smsCode', { length: SMS_CODE_LENGTH });
  return [
    { required: true, message },
    { pattern: SMS_CODE_PATTERN, message },
  ];
}

export function sshKeyNameRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.sshKeyNameRequired')),
    { max: SSH_KEY_NAME_MAX, message: t('common.rules.sshKeyNameMax', { max: SSH_KEY_NAME_MAX }) },
  ];
}

export function sshKeyRules(t: TFunction): FormRule[] {
  return [requiredRule(t('common.rules.sshKeyRequired'))];
}

export function teamIdRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.teamIdRequired')),
    {
      pattern: TEAM_ID_PATTERN,
      message: t('common.rules.teamIdPattern', { min: TEAM_ID_MIN, max: TEAM_ID_MAX }),
    },
  ];
}

export function emailRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.emailRequired')),
    { type: 'email', message: t('common.rules.emailInvalid') },
  ];
}

export type AvatarProblem = 'type' | 'size';

export type AvatarExtension = (typeof AVATAR_EXTENSIONS)[number];

const AVATAR_MIME: Record<string, AvatarExtension> = {
  'image/png': 'png',
  'image/gif': 'gif',
  'image/jpeg': 'jpeg',
};

/**
 * The upload extension of an avatar file, or null when it is not png, gif or jpeg. The browser's
 * MIME type decides when it has one; a file without one is judged by its name.
 */
export function avatarExtension(file: { name: string; type: string }): AvatarExtension | null {
  if (file.type) return AVATAR_MIME[file.type] ?? null;
  const byName = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (AVATAR_EXTENSIONS as readonly string[]).includes(byName)
    ? (byName as AvatarExtension)
    : null;
}

/** Why an avatar file cannot be uploaded, or null when it can (png, gif, jpeg; at most 1 MB). */
export function checkAvatarFile(file: {
  name: string;
  type: string;
  size: number;
}): AvatarProblem | null {
  if (avatarExtension(file) === null) return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return null;
}

/** Text whose trimmed length lies within [min, max] (the server trims before it checks). */
function trimmedLengthRule(min: number, max: number, message: string): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (typeof value !== 'string' || value.trim() === '') return;
      const length = [...value.trim()].length;
      if (length < min || length > max) throw new Error(message);
    },
  };
}

/** Add member: the e-mail, with the spec's one text for a missing and a wrong address. */
export function memberEmailRules(t: TFunction): FormRule[] {
  const message = t('common.rules.memberEmail');
  return [requiredRule(message), { type: 'email', message }];
}

/** Add member: the full name, 2 to 16 characters, not blank. */
export function memberNameRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.memberNameRequired')),
    trimmedLengthRule(
      MEMBER_NAME_MIN,
      MEMBER_NAME_MAX,
      t('common.rules.memberNameLength', { min: MEMBER_NAME_MIN, max: MEMBER_NAME_MAX }),
    ),
  ];
}

export function roleRules(t: TFunction): FormRule[] {
  return [{ required: true, message: t('common.rules.roleRequired') }];
}

/**
 * An optional new password (the member setting panel): empty keeps the current one, anything
 * else must meet the team's strength level.
 */
export function optionalPasswordRules(level: PasswordLevel, t: TFunction): FormRule[] {
  return [
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value === '') return;
        if (value.length > PASSWORD_MAX) {
          throw new Error(t('common.rules.passwordTooLong', { max: PASSWORD_MAX }));
        }
        if (!satisfiesLevel(value, level)) throw new Error(passwordLevelHint(level, t));
      },
    },
  ];
}

/** Group name: 2 to 20 characters when created; required and at most 20 when edited. */
export function groupNameRules(mode: 'create' | 'edit', t: TFunction): FormRule[] {
  const min = mode === 'create' ? GROUP_NAME_MIN : 1;
  return [
    requiredRule(t('common.rules.groupNameRequired')),
    trimmedLengthRule(
      min,
      GROUP_NAME_MAX,
      mode === 'create'
        ? t('common.rules.groupNameLength', { min, max: GROUP_NAME_MAX })
        : t('common.rules.groupNameMax', { max: GROUP_NAME_MAX }),
    ),
  ];
}

export function groupNoteRules(t: TFunction): FormRule[] {
  return [
    trimmedLengthRule(0, GROUP_NOTE_MAX, t('common.rules.groupNoteMax', { max: GROUP_NOTE_MAX })),
  ];
}

/** A required line of the team form, at most `max` characters. */
export function teamTextRules(requiredMessage: string, max: number, t: TFunction): FormRule[] {
  return [
    requiredRule(requiredMessage),
    trimmedLengthRule(1, max, t('common.rules.textMax', { max })),
  ];
}

/** The team's contact phone: required, the mainland mobile pattern. */
export function contactPhoneRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.mobileRequired')),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (!MOBILE_PATTERN.test(value.trim())) throw new Error(t('common.rules.mobileInvalid'));
      },
    },
  ];
}

/** An IP whitelist: comma-separated IPv4 addresses, `*` for any part, no CIDR; empty allows all. */
export function ipWhitelistRules(t: TFunction): FormRule[] {
  return [{ pattern: IP_WHITELIST_PATTERN, message: t('common.rules.ipWhitelist') }];
}

/** Session hold time: a whole number of minutes from 30 to 480. */
export function sessionExpireRules(t: TFunction): FormRule[] {
  const message = t('common.rules.sessionExpire', {
    min: SESSION_HOLD_MIN_MINUTES,
    max: SESSION_HOLD_MAX_MINUTES,
  });
  return [
    { required: true, message },
    {
      validator: async (_rule, value: unknown) => {
        if (value === null || value === undefined || value === '') return;
        const n = Number(value);
        if (!Number.isInteger(n) || n < SESSION_HOLD_MIN_MINUTES || n > SESSION_HOLD_MAX_MINUTES) {
          throw new Error(message);
        }
      },
    },
  ];
}

/** SSO: the identity provider's name, required, at most 64 characters. */
export function ssoIdVendorRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('common.rules.idVendorRequired')),
    trimmedLengthRule(
      1,
      SSO_ID_VENDOR_MAX,
      t('common.rules.idVendorMax', { max: SSO_ID_VENDOR_MAX }),
    ),
  ];
}

/** SSO: the e-mail domains that may sign in; at least one while SSO is open. */
export function ssoAccessDomainRules(open: boolean, t: TFunction): FormRule[] {
  return [
    {
      validator: async (_rule, value: unknown) => {
        const list = Array.isArray(value) ? value.map((d) => String(d).trim().toLowerCase()) : [];
        if (open && list.length === 0) throw new Error(t('common.rules.accessDomainsRequired'));
        const bad = list.find((d) => !SSO_ACCESS_DOMAIN_PATTERN.test(d));
        if (bad !== undefined)
          throw new Error(t('common.rules.accessDomainInvalid', { domain: bad }));
      },
    },
  ];
}

export type MetadataProblem = 'type' | 'size';

/** Why an SSO metadata file cannot be used, or null when it can (xml only, at most 5 MB). */
export function checkMetadataFile(file: { name: string; size: number }): MetadataProblem | null {
  if (!/\.xml$/i.test(file.name)) return 'type';
  if (file.size > SSO_METADATA_MAX_BYTES) return 'size';
  return null;
}

/** A picker that needs at least one choice; `message` is the spec's text for that form. */
export function pickRules(message: string): FormRule[] {
  return [{ required: true, type: 'array', min: 1, message }];
}
