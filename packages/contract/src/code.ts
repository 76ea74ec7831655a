/**
 * Connection codes and temporary authorizations (spec 1 §2.7 Manage Code panel and dialogs,
 * §3 connection code and temporary authorization, §5 code, temporary authorization and
 * modify-code rules, §7 Codes). Operation roles 0 and 1.
 *
 * A code is the login a member gives the gateway (`ssh -p 9998 CODE@gateway`, `mysql -u CODE`,
 * `psql -U CODE`). It is bound to one resource of one workgroup and works only while the member
 * still reaches that resource. A temporary authorization is a code with a one-time password,
 * for a server; it works for one session. Codes are addressed by their numeric `id` in paths,
 * never by their value, so a code never lands in a URL or an access log, and administrators can
 * manage codes whose value they are not shown.
 */
import { z } from 'zod';
import { defineRoute } from './http';
import { IdParamsSchema, PageQuerySchema, pagedReply } from './common';
import { TMP_AUTH_PRESETS_MINUTES } from './constants';
import { MESSAGES } from './messages';
import { ResourceAgentSchema, WORKGROUP_MEMBERS } from './workgroup';

/** 20 characters of lower-case base32: 100 random bits, and a valid user name for every client. */
export const CODE_LENGTH = 20;
export const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const CODE_PATTERN = /^[a-z2-7]{20}$/;

/** Quick expiries of the create dialog, in hours: default 30 minutes, one day, one month. */
export const CODE_QUICK_EXPIRES_HOURS = { default: 0.5, day: 24, month: 720 } as const;

const IPV4 = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}';
/** One dotted IPv4 address or several joined by ':'; empty means no limit (spec 1 §5). */
export const ALLOW_IP_PATTERN = new RegExp(`^(${IPV4}(:${IPV4})*)?$`);

export const AllowIpSchema = z.string().trim().max(1000).regex(ALLOW_IP_PATTERN);

/** True when `ip` may use a code limited to `allowIp` (an IPv4-mapped IPv6 address counts as IPv4). */
export function allowIpMatches(allowIp: string, ip: string): boolean {
  if (allowIp === '') return true;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return allowIp.split(':').includes(v4);
}

/** Shows the first four and last two characters, so a code is recognisable but not usable. */
export function maskCode(code: string): string {
  return code.length <= 6 ? '*'.repeat(code.length) : `${code.slice(0, 4)}****${code.slice(-2)}`;
}

export const CODE_TYPES = ['normal', 'tmp_share'] as const;
export const CODE_STATUSES = ['enable', 'disable'] as const;

/** How a client reaches the resource through the gateway with this code. */
export const ConnectInfoSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  /** The command line for SSH, MySQL and PostgreSQL; '' for the others. */
  command: z.string(),
});

export const CodeSchema = z.object({
  id: z.number().int(),
  /** The code itself for its owner; masked for anyone else. */
  code: z.string(),
  masked: z.boolean(),
  /** tmp_share: a temporary authorization (cannot be changed, works once). */
  type: z.enum(CODE_TYPES),
  account: z.object({ id: z.number().int(), name: z.string(), avatar: z.string() }),
  /** Colon-separated IPv4 addresses; '' means no limit. */
  allow_ip: z.string(),
  status: z.enum(CODE_STATUSES),
  create_time: z.number().int(),
  expire_time: z.number().int(),
  /** expire_time is in the past (the panel highlights it). */
  expired: z.boolean(),
  safe_mode: z.union([z.literal(0), z.literal(1)]),
  project_id: z.number().int(),
  project_resource_id: z.number().int(),
  resource: z.object({
    id: z.number().int(),
    name: z.string(),
    ip: z.string(),
    os: z.string(),
  }),
  /** Temporary authorization: the server login user it connects as; '' otherwise. */
  tmp_username: z.string(),
  /** Temporary authorization: its one session has been used. */
  used: z.boolean(),
  agent: ResourceAgentSchema.nullable(),
  /** For the owner while a gateway address is known; null otherwise. */
  connect: ConnectInfoSchema.nullable(),
});
export type Code = z.infer<typeof CodeSchema>;

export const CodeListQuerySchema = PageQuerySchema.extend({
  project_resource_id: z.coerce.number().int().positive().optional(),
  account_id: z.coerce.number().int().positive().optional(),
  type: z.enum(CODE_TYPES).optional(),
  /** Deleted codes are disabled ones; the panel lists enabled codes (the default). */
  status: z.enum(CODE_STATUSES).default('enable'),
  /** Only codes expiring after this time (epoch seconds), e.g. now for the valid ones. */
  expire_time_gt: z.coerce.number().int().min(0).optional(),
});

/** Hours from now (a quick expiry) or an absolute time (a custom date-time); not both. */
const ExpiryFields = {
  expire: z
    .number()
    .positive()
    .max(24 * 366)
    .optional(),
  expire_time: z.number().int().positive().optional(),
};
const oneExpiry = (b: { expire?: number | undefined; expire_time?: number | undefined }) =>
  b.expire === undefined || b.expire_time === undefined;

export const CreateCodeBodySchema = z
  .object({
    project_resource_id: z.number().int().positive(),
    allow_ip: AllowIpSchema.default(''),
    ...ExpiryFields,
    /** Only for a Linux server of a cluster in safe mode. */
    safe_mode: z.union([z.literal(0), z.literal(1)]).optional(),
  })
  .refine(oneExpiry, { message: 'expire or expire_time, not both', path: ['expire_time'] });

export const UpdateCodeBodySchema = z
  .object({
    ...ExpiryFields,
    safe_mode: z.union([z.literal(0), z.literal(1)]).optional(),
    allow_ip: AllowIpSchema.optional(),
    /** 'disable' deletes the code (spec 1 §2.7: deleting is a status change). */
    status: z.literal('disable').optional(),
  })
  .refine(oneExpiry, { message: 'expire or expire_time, not both', path: ['expire_time'] })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'nothing to change',
    path: ['expire_time'],
  });

export const TmpSharePresetSchema = z.literal(TMP_AUTH_PRESETS_MINUTES);

export const TmpShareBodySchema = z
  .object({
    project_resource_id: z.number().int().positive(),
    /** The server login user the authorization connects as. */
    username: z.string().trim().min(1).max(128),
    /** The one-time password; stored hashed, shown once in the reply. */
    psw: z.string().min(1).max(128),
    allow_ip: AllowIpSchema.default(''),
    /** A preset in minutes (30, 60 or 120) … */
    expire_time: TmpSharePresetSchema.optional(),
    /** … or custom minutes, at least 1 and at most the administrator's maximum. */
    expire_time_customize: z
      .number()
      .int()
      .min(1, { message: MESSAGES.tmpAuthMinMinutes.en })
      .max(525_600)
      .optional(),
  })
  .refine((b) => b.expire_time === undefined || b.expire_time_customize === undefined, {
    message: 'a preset or custom minutes, not both',
    path: ['expire_time_customize'],
  });

export const TmpShareReplySchema = CodeSchema.extend({
  /** The password, this once; it is stored only as a hash. */
  psw: z.string(),
});

/**
 * What the gateway learns about a code it was given (issue 6 carries it on the control
 * channel). No credential of the target is in it; the gateway fetches that per session.
 */
export const ResolvedCodeSchema = z.object({
  tunnel_id: z.number().int(),
  type: z.enum(CODE_TYPES),
  company_id: z.number().int(),
  account: z.object({ id: z.number().int(), name: z.string(), account: z.string() }),
  project_id: z.number().int(),
  project_resource_id: z.number().int(),
  resource: z.object({
    id: z.number().int(),
    name: z.string(),
    os: z.string(),
    ip_address: z.string(),
    port: z.number().int(),
    network_id: z.number().int(),
    databases: z.array(z.string()),
  }),
  /** Login users the code may use; the first is the default (the member's choice or tmp user). */
  login_users: z.array(z.string()),
  /** 1 when the session runs under the cluster's safe mode. */
  safe_mode: z.union([z.literal(0), z.literal(1)]),
  expire_time: z.number().int(),
});
export type ResolvedCode = z.infer<typeof ResolvedCodeSchema>;

export const codeRoutes = {
  listCodes: defineRoute({
    method: 'GET',
    path: '/tunnel',
    summary: 'Codes the caller may manage: their own, and every code of workgroups they administer',
    access: WORKGROUP_MEMBERS,
    query: CodeListQuerySchema,
    reply: pagedReply(CodeSchema),
  }),
  getCode: defineRoute({
    method: 'GET',
    path: '/tunnel/:id',
    summary: 'One code the caller may manage',
    access: WORKGROUP_MEMBERS,
    params: IdParamsSchema,
    reply: CodeSchema,
  }),
  createCode: defineRoute({
    method: 'POST',
    path: '/tunnel',
    summary: 'Create the caller’s code for a resource of a workgroup (one per resource)',
    access: WORKGROUP_MEMBERS,
    body: CreateCodeBodySchema,
    reply: CodeSchema,
  }),
  updateCode: defineRoute({
    method: 'PATCH',
    path: '/tunnel/:id',
    summary: 'Change a code’s expiry, allowed addresses or safe mode, or delete it (disable)',
    access: WORKGROUP_MEMBERS,
    params: IdParamsSchema,
    body: UpdateCodeBodySchema,
    reply: CodeSchema,
  }),
  clientIp: defineRoute({
    method: 'GET',
    path: '/client_ip',
    summary: 'The address this request came from (the code dialogs offer it as an allowed IP)',
    access: WORKGROUP_MEMBERS,
    reply: z.object({ ip: z.string() }),
  }),
  createTmpShare: defineRoute({
    method: 'POST',
    path: '/tunnel/tmp_share',
    summary: 'Temporary authorization of a server: a code with a one-time password',
    access: WORKGROUP_MEMBERS,
    body: TmpShareBodySchema,
    reply: TmpShareReplySchema,
  }),
} as const;
