/**
 * Team administration (spec 2 §2 team page, §3 member/group/team/plan, §5, §6, §7 Team):
 * members, groups, team settings and the plan panel.
 */
import { z } from 'zod';
import { defineRoute, roles } from './http';
import {
  EmailSchema,
  IdParamsSchema,
  OkReplySchema,
  optionalQueryNumber,
  PageQuerySchema,
  pagedReply,
} from './common';
import {
  GROUP_NAME_MAX,
  GROUP_NAME_MIN,
  GROUP_NOTE_MAX,
  MEMBER_NAME_MAX,
  MEMBER_NAME_MIN,
  MOBILE_PATTERN,
  NAME_MAX,
  SESSION_HOLD_MAX_MINUTES,
  SESSION_HOLD_MIN_MINUTES,
  PLAN_NAMES,
} from './constants';
import { PasswordSchema } from './auth';

const TEAM_ADMIN = roles([1]);
/** Approver pickers of cluster safe mode (Configuration: roles 1 and 3) read the member list too. */
const MEMBER_READERS = roles([1, 3]);

/** Roles an administrator may give when adding a member (spec 2 §6: not the safe admin). */
export const ADDABLE_ROLES = [0, 1, 3, 2] as const;

const RoleNumber = z.number().int().min(0).max(4);

/** Comma-separated IPv4 addresses, each part a number or `*`; no CIDR (spec 2 §5). */
export const IP_WHITELIST_PATTERN =
  /^$|^(\s*((25[0-5]|2[0-4]\d|1?\d?\d|\*)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d|\*)\s*)(,\s*((25[0-5]|2[0-4]\d|1?\d?\d|\*)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d|\*)\s*)*$/;

/** True when `ip` matches one entry of a whitelist; an empty list allows everyone. */
export function ipAllowed(whitelist: string, ip: string): boolean {
  const entries = whitelist
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return true;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const parts = v4.split('.');
  if (parts.length !== 4) return false;
  return entries.some((entry) => entry.split('.').every((p, i) => p === '*' || p === parts[i]));
}

export const MemberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
  avatar: z.string(),
  mobile: z.string(),
  is_admin: z.number().int(),
  /** Truthy means disabled (spec 2 §3). */
  status: z.boolean(),
  unique_id: z.string(),
  otp_enabled: z.boolean(),
  /** The team's owner (the bound primary administrator): cannot be deleted or demoted. */
  is_owner: z.boolean(),
  create_time: z.number().int(),
  last_login_time: z.number().int().nullable(),
});
export type Member = z.infer<typeof MemberSchema>;

export const MemberListQuerySchema = PageQuerySchema.extend({
  q_is_admin: optionalQueryNumber(z.number().int().min(0).max(4)),
  /** Matches name or account. */
  key: z.string().trim().max(100).optional(),
});

export const MemberNameSchema = z.string().trim().min(MEMBER_NAME_MIN).max(MEMBER_NAME_MAX);

export const AddMemberBodySchema = z.object({
  account: EmailSchema,
  name: MemberNameSchema,
  is_admin: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
});

export const UpdateMemberBodySchema = z
  .object({
    // Editing follows the personal page's rule (required, at most 20), so a name a member
    // gave themselves can always be saved back.
    name: z.string().trim().min(1).max(NAME_MAX).optional(),
    is_admin: RoleNumber.optional(),
    /** A password set by an administrator must be changed at the member's next login. */
    pwd: PasswordSchema.optional(),
    /** true disables the member (and ends their sessions), false enables. */
    status: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'nothing to change',
    path: ['name'],
  });

export const NameListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
});

export const GroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  note: z.string(),
  member_count: z.number().int(),
  create_time: z.number().int(),
});
export type Group = z.infer<typeof GroupSchema>;

export const CreateGroupBodySchema = z.object({
  name: z.string().trim().min(GROUP_NAME_MIN).max(GROUP_NAME_MAX),
  note: z.string().trim().max(GROUP_NOTE_MAX).default(''),
});
export const UpdateGroupBodySchema = z.object({
  name: z.string().trim().min(1).max(GROUP_NAME_MAX),
  note: z.string().trim().max(GROUP_NOTE_MAX).default(''),
});
export const GroupListQuerySchema = PageQuerySchema.extend({
  q_name: z.string().trim().max(100).optional(),
});
export const GroupMembersQuerySchema = PageQuerySchema.extend({
  key: z.string().trim().max(100).optional(),
});
export const GroupMembersBodySchema = z.object({
  members: z.array(z.number().int().positive()).min(1).max(1000),
});

export const TeamSettingsSchema = z.object({
  full_name: z.string(),
  contact_name: z.string(),
  contact_phone: z.string(),
  contact_address: z.string(),
  ip_whitelist: z.string(),
  admin_whitelist: z.string(),
  session_expire_time: z.number().int(),
  company_mfa: z.boolean(),
  reset_password: z.boolean(),
  password_strength: z.number().int(),
  /** The bound primary administrator. */
  binding_admin: z.object({ id: z.number().int(), account: z.string() }).nullable(),
  domain_token: z.string(),
  ee_work_space_id: z.string(),
  ee_work_space_name: z.string(),
});
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

export const UpdateTeamBodySchema = z.object({
  full_name: z.string().trim().min(1).max(100),
  contact_name: z.string().trim().min(1).max(50),
  contact_phone: z.string().trim().regex(MOBILE_PATTERN),
  contact_address: z.string().trim().min(1).max(200),
  ip_whitelist: z.string().trim().max(2000).regex(IP_WHITELIST_PATTERN),
  admin_whitelist: z.string().trim().max(2000).regex(IP_WHITELIST_PATTERN),
  session_expire_time: z.number().int().min(SESSION_HOLD_MIN_MINUTES).max(SESSION_HOLD_MAX_MINUTES),
  company_mfa: z.union([z.literal(0), z.literal(1)]),
  reset_password: z.union([z.literal(0), z.literal(1)]),
  password_strength: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** Account (e-mail) of the binding administrator; only accounts with a unique_id qualify. */
  email: z.string().trim().max(254).optional(),
});

export const PlanInfoSchema = z.object({
  name: z.enum(PLAN_NAMES),
  /** Limits; 0 means unlimited. */
  resources: z.number().int(),
  networks: z.number().int(),
  accounts: z.number().int(),
  shared_resources: z.number().int(),
  shared_networks: z.number().int(),
  expire: z.number().int().nullable(),
  used: z.object({
    resources: z.number().int(),
    networks: z.number().int(),
    accounts: z.number().int(),
  }),
});

export const teamRoutes = {
  listMembers: defineRoute({
    method: 'GET',
    path: '/account',
    summary: 'Team members, by role and search key',
    access: MEMBER_READERS,
    query: MemberListQuerySchema,
    reply: pagedReply(MemberSchema),
  }),
  memberNames: defineRoute({
    method: 'GET',
    path: '/v1/account/list',
    summary: 'Every member’s id, name and account (for pickers and log search)',
    access: roles([1, 2, 3, 4]),
    reply: z.array(NameListItemSchema),
  }),
  addMember: defineRoute({
    method: 'POST',
    path: '/v1/account',
    summary: 'Add a member; they get a mail to set their password',
    access: TEAM_ADMIN,
    body: AddMemberBodySchema,
    reply: MemberSchema,
  }),
  updateMember: defineRoute({
    method: 'PATCH',
    path: '/v1/account/:id',
    summary: 'Change a member’s name, role, password or enabled state',
    access: TEAM_ADMIN,
    params: IdParamsSchema,
    body: UpdateMemberBodySchema,
    reply: MemberSchema,
  }),
  deleteMember: defineRoute({
    method: 'DELETE',
    path: '/v1/account/:id',
    summary: 'Delete a member (not oneself, not another administrator, not the owner)',
    access: TEAM_ADMIN,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  resetMemberMfa: defineRoute({
    method: 'GET',
    path: '/v1/account/reset_mfa',
    summary: 'Reset a member’s virtual MFA (they bind again at next login if the team requires it)',
    access: TEAM_ADMIN,
    query: z.object({ account_id: z.coerce.number().int().positive() }),
    reply: OkReplySchema,
    changesState: true,
  }),
  listGroups: defineRoute({
    method: 'GET',
    path: '/v1/group/list',
    summary: 'Groups of the team',
    access: MEMBER_READERS,
    query: GroupListQuerySchema,
    reply: pagedReply(GroupSchema),
  }),
  createGroup: defineRoute({
    method: 'POST',
    path: '/v1/group',
    summary: 'Create a group',
    access: TEAM_ADMIN,
    body: CreateGroupBodySchema,
    reply: GroupSchema,
  }),
  getGroup: defineRoute({
    method: 'GET',
    path: '/v1/group/:id',
    summary: 'One group',
    access: MEMBER_READERS,
    params: IdParamsSchema,
    reply: GroupSchema,
  }),
  updateGroup: defineRoute({
    method: 'PATCH',
    path: '/v1/group/:id',
    summary: 'Rename a group or change its note',
    access: TEAM_ADMIN,
    params: IdParamsSchema,
    body: UpdateGroupBodySchema,
    reply: GroupSchema,
  }),
  deleteGroup: defineRoute({
    method: 'DELETE',
    path: '/group/:id',
    summary: 'Delete a group (its members stay in the team)',
    access: TEAM_ADMIN,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  groupMembers: defineRoute({
    method: 'GET',
    path: '/v1/group/members/:id',
    summary: 'Members of a group, searchable by name or account',
    access: MEMBER_READERS,
    params: IdParamsSchema,
    query: GroupMembersQuerySchema,
    reply: pagedReply(MemberSchema),
  }),
  addGroupMembers: defineRoute({
    method: 'POST',
    path: '/v1/group/members/:id',
    summary: 'Add members to a group',
    access: TEAM_ADMIN,
    params: IdParamsSchema,
    body: GroupMembersBodySchema,
    reply: OkReplySchema,
  }),
  removeGroupMembers: defineRoute({
    method: 'DELETE',
    path: '/v1/group/members/:id',
    summary: 'Remove members from a group',
    access: TEAM_ADMIN,
    params: IdParamsSchema,
    body: GroupMembersBodySchema,
    reply: OkReplySchema,
  }),
  teamSettings: defineRoute({
    method: 'GET',
    path: '/v1/company/settings',
    summary: 'The team’s settings tab',
    access: TEAM_ADMIN,
    reply: TeamSettingsSchema,
  }),
  updateTeam: defineRoute({
    method: 'PATCH',
    path: '/current_company',
    summary: 'Change the team’s settings',
    access: TEAM_ADMIN,
    body: UpdateTeamBodySchema,
    reply: TeamSettingsSchema,
  }),
  updateDomainToken: defineRoute({
    method: 'POST',
    path: '/company/update_domain_token',
    summary: 'Issue a new domain token (unbinds the bound workspace)',
    access: TEAM_ADMIN,
    reply: TeamSettingsSchema,
  }),
  unbindWorkspace: defineRoute({
    method: 'POST',
    path: '/company/ee/unbind',
    summary: 'Unbind the bound workspace',
    access: TEAM_ADMIN,
    body: z.object({
      work_space_id: z.string().trim().min(1).max(128),
      domain: z.string().trim().min(1).max(64),
    }),
    reply: TeamSettingsSchema,
  }),
  plan: defineRoute({
    method: 'GET',
    path: '/v1/plan',
    summary: 'The plan in force, its limits and what is used',
    access: TEAM_ADMIN,
    reply: PlanInfoSchema.nullable(),
  }),
} as const;
