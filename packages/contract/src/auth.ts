/**
 * Sign-in and account-recovery calls (spec 1 §2.2, §2.3, §7 'Authentication and account').
 */
import { z } from 'zod';
import { anyStage, defineRoute, PUBLIC } from './http';
import { EmailSchema, OkReplySchema } from './common';
import { MFA_CODE_PATTERN, PASSWORD_MAX, TEAM_ID_PATTERN } from './constants';
import { ALL_ROLES, type Role } from './roles';

const RoleSchema = z
  .number()
  .int()
  .refine((v): v is Role => (ALL_ROLES as readonly number[]).includes(v));

export const DomainSchema = z.string().trim().min(1).max(64);
export const UsernameSchema = z.string().trim().min(1).max(254);
export const PasswordSchema = z.string().min(1).max(PASSWORD_MAX);
export const CaptchaSchema = z.string().trim().max(16);
export const MfaCodeSchema = z.string().trim().regex(MFA_CODE_PATTERN);

export const LoginBodySchema = z.object({
  domain: DomainSchema,
  username: UsernameSchema,
  password: PasswordSchema,
  /** Required only when the server asked for it (show_captcha, or after CaptchaIncorrect). */
  captcha: CaptchaSchema.optional().default(''),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** What the console does next; see {@link nextLoginStep}. */
export const LoginReplySchema = z.object({
  otp_enabled: z.boolean(),
  op: z.enum(['change_pwd', '']),
  /** True when the team requires MFA and this account has none bound yet. */
  company_mfa: z.boolean(),
  is_admin: RoleSchema,
});
export type LoginReply = z.infer<typeof LoginReplySchema>;

export type LoginStep = 'mfaComfirm' | 'compelChangePassword' | 'mfaOpen' | 'landing';

/** The four outcomes of a successful login, in the spec's order (spec 1 §2.2). */
export function nextLoginStep(reply: LoginReply): LoginStep {
  if (reply.otp_enabled) return 'mfaComfirm';
  if (reply.op === 'change_pwd') return 'compelChangePassword';
  if (reply.company_mfa) return 'mfaOpen';
  return 'landing';
}

export const MfaLoginBodySchema = z.object({ code: MfaCodeSchema });

export const ShowCaptchaQuerySchema = z.object({
  domain: z.string().trim().max(64).default(''),
  username: z.string().trim().max(254).default(''),
});
export const ShowCaptchaReplySchema = z.object({ captcha: z.boolean() });

export const SsoOptionReplySchema = z.object({
  is_open_sso: z.boolean(),
  mfa: z.boolean(),
  is_account_password: z.boolean(),
  sso_service: z.string(),
});

export const RegisterBodySchema = z.object({
  captcha: z.string().trim().min(1).max(16),
  company: z.object({
    domain: z.string().trim().regex(TEAM_ID_PATTERN),
    email: EmailSchema,
    full_name: z.string().trim().min(1).max(100),
    contact_name: z.string().trim().min(1).max(50),
    contact_address: z.string().trim().min(1).max(200),
    contact_phone: z.string().trim().max(32).default(''),
  }),
  account: z.object({
    account: EmailSchema,
    name: z.string().trim().min(1).max(20),
  }),
});
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const ResetPasswordMailBodySchema = z.object({
  domain: DomainSchema,
  account: EmailSchema,
  captcha: z.string().trim().min(1).max(16),
});

export const ResetPasswordBodySchema = z.object({
  code: z.string().trim().min(1).max(128),
  account: z.string().trim().min(1).max(254),
  pwd: PasswordSchema,
});

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/auth/login',
    summary: 'Sign in with team, account and password',
    access: PUBLIC,
    body: LoginBodySchema,
    reply: LoginReplySchema,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/auth/logout',
    summary: 'Sign out',
    access: anyStage(['mfa', 'change_pwd', 'bind_mfa', 'full']),
    reply: OkReplySchema,
  }),
  mfa: defineRoute({
    method: 'POST',
    path: '/auth/mfa',
    summary: 'Finish a login with a TOTP code',
    access: anyStage(['mfa']),
    body: MfaLoginBodySchema,
    reply: LoginReplySchema,
  }),
  captcha: defineRoute({
    method: 'GET',
    path: '/auth/captcha',
    summary: 'A new captcha image (SVG); the answer is bound to a cookie',
    access: PUBLIC,
  }),
  showCaptcha: defineRoute({
    method: 'GET',
    path: '/auth/show_captcha',
    summary: 'Whether the login for this team and account needs a captcha',
    access: PUBLIC,
    query: ShowCaptchaQuerySchema,
    reply: ShowCaptchaReplySchema,
  }),
  isOpenSso: defineRoute({
    method: 'GET',
    path: '/auth/is_open_sso/:domain',
    summary: 'Whether single sign-on is open for a team',
    access: PUBLIC,
    params: z.object({ domain: DomainSchema }),
    reply: SsoOptionReplySchema,
  }),
  register: defineRoute({
    method: 'POST',
    path: '/auth/register',
    summary: 'Register a new team and its administrator',
    access: PUBLIC,
    body: RegisterBodySchema,
    reply: OkReplySchema,
  }),
  resetPasswordMail: defineRoute({
    method: 'POST',
    path: '/auth/reset_passwd_mail',
    summary: 'Mail a password-reset link',
    access: PUBLIC,
    body: ResetPasswordMailBodySchema,
    reply: OkReplySchema,
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/auth/reset_passwd',
    summary: 'Set a password with a reset link (once)',
    access: PUBLIC,
    body: ResetPasswordBodySchema,
    reply: OkReplySchema,
  }),
} as const;
