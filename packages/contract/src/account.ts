/**
 * The signed-in account, its team and plan, and the personal pages (spec 1 §2.4, §2.11, §3).
 */
import { z } from 'zod';
import { ANY_MEMBER, anyStage, defineRoute, PUBLIC } from './http';
import { IdParamsSchema, OkReplySchema, PageQuerySchema, pagedReply } from './common';
import {
  AVATAR_EXTENSIONS,
  AVATAR_MAX_BYTES,
  MOBILE_PATTERN,
  NAME_MAX,
  SMS_CODE_LENGTH,
  SSH_KEY_NAME_MAX,
  PLAN_NAMES,
} from './constants';
import { MfaCodeSchema, PasswordSchema } from './auth';

export const PlanSchema = z.object({
  name: z.enum(PLAN_NAMES),
  /** 0 means unlimited. */
  account_limit: z.number().int(),
  network_limit: z.number().int(),
  resource_limit: z.number().int(),
  log_back_days: z.number().int(),
  /** Epoch seconds; null when the plan never expires. */
  expire: z.number().int().nullable(),
});
export type Plan = z.infer<typeof PlanSchema>;

export const CurrentAccountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
  is_admin: z.number().int(),
  avatar: z.string(),
  mobile: z.string(),
  otp_enabled: z.boolean(),
  company_mfa: z.boolean(),
  /** The step this session still owes ('change_pwd'), or ''. */
  op: z.enum(['change_pwd', '']),
  current_plan: PlanSchema.nullable(),
  password_strength: z.object({
    level: z.number().int(),
    password_ok: z.boolean(),
  }),
  company: z.object({ id: z.number().int(), domain: z.string(), full_name: z.string() }),
  /** The sign-in before this session's (null and '' when there was none). */
  last_login_time: z.number().int().nullable(),
  last_login_ip: z.string(),
});
export type CurrentAccount = z.infer<typeof CurrentAccountSchema>;

/** An account as other members of the team see it: no secrets, no security state. */
export const TeamAccountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
  avatar: z.string(),
  is_admin: z.number().int(),
  /** Truthy means disabled (spec 2 §3). */
  status: z.boolean(),
});

export const UpdateCurrentAccountBodySchema = z
  .object({
    name: z.string().trim().min(1).max(NAME_MAX).optional(),
    /** A file_uuid returned by POST /file. */
    avatar: z.string().trim().max(64).optional(),
  })
  .refine((b) => b.name !== undefined || b.avatar !== undefined, {
    message: 'name or avatar is required',
    path: ['name'],
  });

export const ChangePasswordBodySchema = z.object({ pwd: PasswordSchema });

export const MobileSchema = z.string().trim().regex(MOBILE_PATTERN);
export const SendSmsBodySchema = z.object({ mobile: MobileSchema });
export const VerifyMobileBodySchema = z.object({
  mobile: MobileSchema,
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`)),
});

export const AccountMfaBodySchema = z.object({
  first_code: MfaCodeSchema,
  second_code: MfaCodeSchema,
  otp_enabled: z.union([z.literal(0), z.literal(1)]),
});

export const MfaSecretReplySchema = z.object({
  secret: z.string(),
  issuer: z.string(),
  account: z.string(),
});

export const UploadFileBodySchema = z.object({
  content: z.string().min(1),
  extension: z.enum(AVATAR_EXTENSIONS),
  file_name: z.string().trim().min(1).max(255),
  file_size: z.number().int().min(1).max(AVATAR_MAX_BYTES),
});
export const UploadFileReplySchema = z.object({ file_uuid: z.string(), path: z.string() });

export const CompanySchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  full_name: z.string(),
  setting: z.object({
    password_strength: z.number().int(),
    full_name: z.string(),
    company_mfa: z.boolean(),
    reset_password: z.boolean(),
    session_expire_time: z.number().int(),
  }),
  current_plan: PlanSchema.nullable(),
});
export type Company = z.infer<typeof CompanySchema>;

export const SummarySchema = z.object({
  accounts: z.number().int(),
  networks: z.number().int(),
  resources: z.number().int(),
  shared_resources: z.number().int(),
  projects: z.number().int(),
  current_plan: PlanSchema.nullable(),
  expire: z.number().int().nullable(),
});
export type Summary = z.infer<typeof SummarySchema>;

export const BannerReplySchema = z.object({
  /** Identifies this text, so a dismissal is remembered for it and not for the next one. */
  id: z.string(),
  text: z.string(),
});

export const SshKeySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  fingerprint: z.string(),
  key_type: z.string(),
  create_time: z.number().int(),
  /** The last time the gateway verified a login with this key; null until then. */
  last_time: z.number().int().nullable(),
});
export type SshKey = z.infer<typeof SshKeySchema>;

export const CreateSshKeyBodySchema = z.object({
  title: z.string().trim().min(1).max(SSH_KEY_NAME_MAX),
  pubkey: z.string().trim().min(1).max(16_384),
});

export const accountRoutes = {
  currentAccount: defineRoute({
    method: 'GET',
    path: '/current_account',
    summary: 'The signed-in account',
    access: anyStage(['full', 'change_pwd', 'bind_mfa']),
    reply: CurrentAccountSchema,
  }),
  getAccount: defineRoute({
    method: 'GET',
    path: '/account/:id',
    summary: 'One account of the team (oneself; any member for administrators)',
    access: ANY_MEMBER,
    params: IdParamsSchema,
    reply: TeamAccountSchema,
  }),
  updateCurrentAccount: defineRoute({
    method: 'PATCH',
    path: '/current_account',
    summary: 'Change the name or avatar',
    access: ANY_MEMBER,
    body: UpdateCurrentAccountBodySchema,
    reply: OkReplySchema,
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/current_account/change_password',
    summary: "Change one's own password (the team's strength rule applies)",
    access: anyStage(['full', 'change_pwd']),
    body: ChangePasswordBodySchema,
    reply: OkReplySchema,
  }),
  sendVerifySms: defineRoute({
    method: 'POST',
    path: '/current_account/send_verify_sms',
    summary: 'Send a 6-digit code to a new mobile number',
    access: ANY_MEMBER,
    body: SendSmsBodySchema,
    reply: OkReplySchema,
  }),
  verifyMobile: defineRoute({
    method: 'POST',
    path: '/current_account/verify_mobile',
    summary: 'Bind the mobile number with the code sent to it',
    access: ANY_MEMBER,
    body: VerifyMobileBodySchema,
    reply: OkReplySchema,
  }),
  accountMfa: defineRoute({
    method: 'POST',
    path: '/account/mfa',
    summary: 'Open or close the virtual MFA, each with two consecutive codes',
    access: anyStage(['full', 'bind_mfa']),
    body: AccountMfaBodySchema,
    reply: OkReplySchema,
  }),
  mfaSecret: defineRoute({
    method: 'GET',
    path: '/mfa/secret',
    summary: 'The pending MFA secret, for manual entry while binding',
    access: anyStage(['full', 'bind_mfa']),
    reply: MfaSecretReplySchema,
  }),
  mfaImg: defineRoute({
    method: 'GET',
    path: '/mfa/img',
    summary: 'The pending MFA secret as a QR code (PNG)',
    access: anyStage(['full', 'bind_mfa']),
  }),
  uploadFile: defineRoute({
    method: 'POST',
    path: '/file',
    summary: 'Upload an avatar image (png, gif or jpeg, at most 1 MB)',
    access: ANY_MEMBER,
    body: UploadFileBodySchema,
    reply: UploadFileReplySchema,
  }),
  getFile: defineRoute({
    method: 'GET',
    path: '/file/:uuid',
    summary: 'An uploaded avatar image of the same team',
    access: ANY_MEMBER,
    params: z.object({ uuid: z.string().regex(/^[0-9a-f-]{36}$/) }),
  }),
  currentCompany: defineRoute({
    method: 'GET',
    path: '/current_company',
    summary: 'The signed-in team, its settings and plan',
    access: ANY_MEMBER,
    reply: CompanySchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/v1/summary',
    summary: 'Team counters against the plan quota',
    access: ANY_MEMBER,
    reply: SummarySchema,
  }),
  onlineCount: defineRoute({
    method: 'GET',
    path: '/v1/tunnel_connection/count',
    summary: 'How many sessions are online (team-wide for administrators, own for members)',
    access: ANY_MEMBER,
    reply: z.object({ count: z.number().int() }),
  }),
  banner: defineRoute({
    method: 'GET',
    path: '/v2/utils/notification_banner/csos',
    summary: 'The notification banner set in server configuration, or null',
    access: PUBLIC,
    reply: BannerReplySchema.nullable(),
  }),
  listSshKeys: defineRoute({
    method: 'GET',
    path: '/account_pubkey',
    summary: "The signed-in account's SSH public keys",
    access: ANY_MEMBER,
    query: PageQuerySchema,
    reply: pagedReply(SshKeySchema),
  }),
  createSshKey: defineRoute({
    method: 'POST',
    path: '/account_pubkey',
    summary: 'Add an OpenSSH public key',
    access: ANY_MEMBER,
    body: CreateSshKeyBodySchema,
    reply: SshKeySchema,
  }),
  deleteSshKey: defineRoute({
    method: 'DELETE',
    path: '/account_pubkey/:id',
    summary: 'Delete one of the signed-in account’s SSH keys',
    access: ANY_MEMBER,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
} as const;
