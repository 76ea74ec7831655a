/**
 * Workgroups (projects): administration (spec 2 §2 workgroup list and detail, the member's
 * workgroups page, §3 workgroup and membership, §5, §7 Workgroup calls) and the members' view
 * (spec 1 §2.6, §2.7, §3 workgroup and project resource, §7 Workgroups and codes).
 *
 * Who may call what: Configuration (WorkGroup Manage) is roles 1 and 3; the members' view
 * (Operation WorkGroup) is roles 0 and 1. A few calls serve both pages and take 0, 1 and 3.
 * Beyond the role, the server answers only about workgroups the caller sees: administrators
 * (1, 3) see all of their team's; anyone else sees a workgroup only as a member of it, directly
 * or through a group. A workgroup, resource or member the caller may not see answers exactly
 * like one that does not exist. A workgroup administrator (a direct member with role 1) also
 * manages the workgroup's members and every code on its resources.
 *
 * The file is long because it is one area's declarations (schemas and the route table the
 * console and server share); there is no logic in it to split.
 */
import { z } from 'zod';
import { defineRoute, roles } from './http';
import { IdParamsSchema, OkReplySchema, PageQuerySchema, pagedReply } from './common';
import {
  PAGE_SIZE_PROJECT_RESOURCES,
  WORKGROUP_DESC_MAX,
  WORKGROUP_MAX_RESOURCES,
  WORKGROUP_NAME_MAX,
  WORKGROUP_NAME_MIN,
} from './constants';
import { GatewayPortsSchema } from './gateway-ports';

/** WorkGroup Manage (spec 2 §6: Configuration, roles 1 and 3). */
export const WORKGROUP_ADMINS = roles([1, 3]);
/** Operation WorkGroup (spec 1 §6: roles 0 and 1): the members' view and codes. */
export const WORKGROUP_MEMBERS = roles([0, 1]);
/**
 * Calls both pages make (list, detail, resources, members). Role 0 gets an answer only about
 * workgroups it belongs to, and changes members only as that workgroup's administrator.
 */
export const WORKGROUP_READERS = roles([0, 1, 3]);

/** Membership roles inside a workgroup (spec 2 §6: administrator or ordinary). */
export const WorkgroupRole = { Ordinary: 0, Admin: 1 } as const;
export const WorkgroupRoleSchema = z.union([z.literal(0), z.literal(1)]);

/** The cluster id of a cluster's default workgroup; -1 for every other (spec 2 §3). */
export const NO_NETWORK = -1;

export const WorkgroupNameSchema = z
  .string()
  .trim()
  .min(WORKGROUP_NAME_MIN)
  .max(WORKGROUP_NAME_MAX);
export const WorkgroupDescSchema = z.string().trim().max(WORKGROUP_DESC_MAX);

export const WorkgroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The same as name (the spec uses both). */
  project_name: z.string(),
  desc: z.string(),
  /** The cluster whose default workgroup this is, or -1. */
  network_id: z.number().int(),
  /** A cluster's default workgroup: marked with a globe, cannot be deleted. */
  is_default: z.boolean(),
  /** Resources the workgroup holds (that its team can still reach). */
  resource_count: z.number().int(),
  /** Direct members. */
  account_count: z.number().int(),
  group_count: z.number().int(),
  /** 1 when the caller starred it. */
  favourite: z.union([z.literal(0), z.literal(1)]),
  /** The caller's direct membership role (0 ordinary, 1 administrator), or null. */
  my_role: WorkgroupRoleSchema.nullable(),
  /** The caller may manage its members and every code on its resources. */
  can_manage: z.boolean(),
  create_time: z.number().int(),
});
export type Workgroup = z.infer<typeof WorkgroupSchema>;

const SearchText = z.string().trim().max(100).optional();
const ZeroOrOne = z.coerce.number().int().min(0).max(1);

export const WorkgroupListQuerySchema = PageQuerySchema.extend({
  q_name: SearchText,
  /** Workgroups holding a resource whose address contains this text. */
  q_ip: SearchText,
  /** 1: only the caller's starred workgroups. */
  q_favourite: ZeroOrOne.optional(),
  /** Administrators (1, 3) only: the workgroups this member reaches. Ignored for role 0. */
  account_id: z.coerce.number().int().positive().optional(),
});

export const CreateWorkgroupBodySchema = z.object({
  name: WorkgroupNameSchema,
  desc: WorkgroupDescSchema.default(''),
});
export const UpdateWorkgroupBodySchema = z
  .object({ name: WorkgroupNameSchema.optional(), desc: WorkgroupDescSchema.optional() })
  .refine((b) => b.name !== undefined || b.desc !== undefined, {
    message: 'nothing to change',
    path: ['name'],
  });

export const FavouriteBodySchema = z.object({ favourite: z.union([z.literal(0), z.literal(1)]) });

/** A gateway as the members' view needs it (spec 1 §3 project resource: agent host, ports). */
export const ResourceAgentSchema = z.object({
  host: z.string(),
  version: z.string(),
  /** 1 while a gateway of the cluster is connected. */
  status: z.number().int(),
  features: z.array(z.string()),
  ports: GatewayPortsSchema,
});
export type ResourceAgent = z.infer<typeof ResourceAgentSchema>;

export const RESOURCE_KINDS = ['ecs', 'rds'] as const;

/** A resource as a member of a workgroup sees it (spec 1 §3 project resource). */
export const ProjectResourceSchema = z.object({
  /** The project resource: a resource inside one workgroup. */
  id: z.number().int(),
  project_resource_id: z.number().int(),
  project_id: z.number().int(),
  resource_id: z.number().int(),
  name: z.string(),
  ip: z.string(),
  port: z.number().int(),
  os: z.enum(['linux', 'win32', 'mysql', 'postgresql', 'mssql']),
  type: z.enum(RESOURCE_KINDS),
  flavor: z.string(),
  network_id: z.number().int(),
  network_name: z.string(),
  resource: z.object({
    /** Databases: 2 SQL approval on, 1 off (Start Application needs 2). */
    status: z.number().int(),
    resource_type: z.string(),
    network_id: z.number().int(),
    extension: z.object({
      /**
       * The resource's login users: all of them for administrators (1, 3), who pick the
       * workgroup's from them; the workgroup's for anyone else.
       */
      username: z.array(z.string()),
      /** The login users this workgroup grants (spec 2 §3 project_resource_login_username). */
      login_username: z.array(z.string()),
    }),
  }),
  /** Login users the caller may use on this resource through this workgroup. */
  login_user: z.array(z.string()),
  db_name: z.array(z.string()),
  /** The caller's default login user for Connect (servers), '' when not chosen. */
  default_username: z.string(),
  /** The cluster's maximum code validity in seconds; 0 means no limit beyond one year. */
  max_tunnel_expire_time: z.number().int(),
  safe: z.object({
    /** The cluster runs safe mode (a code's safe-mode switch is offered for Linux only). */
    network_safe_mode: z.number().int(),
    /** Switching to non-security mode needs an approved application. */
    safe_mode_approver: z.number().int(),
  }),
  agent: ResourceAgentSchema.nullable(),
  agent_status: z.number().int(),
  agent_version: z.string(),
  /** The caller's own active code for it, masked; '' when none. */
  code: z.string(),
  /** Sessions open on it now (the caller's own; every member's for an administrator). */
  online_connections: z.number().int(),
  /** Sessions logged on it (counted like online_connections). */
  logs: z.number().int(),
  create_time: z.number().int(),
});
export type ProjectResource = z.infer<typeof ProjectResourceSchema>;

export const ProjectResourceQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(65535).default(PAGE_SIZE_PROJECT_RESOURCES),
  /** ecs: servers; rds: databases. */
  type: z.enum(RESOURCE_KINDS).optional(),
  q_name: SearchText,
  q_ip: SearchText,
  q_os: z.enum(['linux', 'win32', 'mysql', 'postgresql', 'mssql']).optional(),
});

/** A resource the team could add to a workgroup (the Distribute instances picker). */
export const ResourceCandidateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ip: z.string(),
  os: z.string(),
  resource_type: z.string(),
  network_id: z.number().int(),
  network_name: z.string(),
  /** Its cluster belongs to another team that shared it. */
  shared: z.boolean(),
});

const IdList = z.array(z.number().int().positive()).min(1).max(WORKGROUP_MAX_RESOURCES);

export const WorkgroupResourcesBodySchema = z.object({
  /** Resource ids (not project-resource ids). */
  resource_ids: IdList,
});

export const LoginUsernameBodySchema = z.object({
  /** At least one; each must be a login user of the resource (spec 2 §5 change host). */
  login_username: z.array(z.string().trim().min(1).max(128)).min(1).max(50),
});
export const DefaultUsernameBodySchema = z.object({
  default_username: z.string().trim().min(1).max(128),
});

export const HostsQuerySchema = z.object({
  /** Only ansible is offered; anything else answers HostsTypeError. */
  type: z.string().trim().max(32),
  /** true: download as a file; otherwise shown inline. */
  export: z.enum(['true', 'false']).default('false'),
});

export const WorkgroupMemberSchema = z.object({
  /** The account id. */
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
  avatar: z.string(),
  /** 1 administrator, 0 ordinary. */
  role: WorkgroupRoleSchema,
  create_time: z.number().int(),
});
export const WorkgroupMembersQuerySchema = PageQuerySchema.extend({
  /** Matches name or account. */
  key: SearchText,
});
/** The Distribute picker's search: members not in the workgroup yet, by name or account. */
export const MemberCandidatesQuerySchema = z.object({
  key: SearchText,
});
/** The picker shows at most this many candidates; typing narrows the search. */
export const MEMBER_CANDIDATES_MAX = 50;
export const MemberCandidateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
});
export type MemberCandidate = z.infer<typeof MemberCandidateSchema>;

export const AddWorkgroupMembersBodySchema = z.object({
  account_ids: z.array(z.number().int().positive()).min(1).max(1000),
  role: WorkgroupRoleSchema.default(0),
});
export const ChangeMemberRoleBodySchema = z.object({
  account_id: z.number().int().positive(),
  role: WorkgroupRoleSchema,
});
export const RemoveWorkgroupMembersBodySchema = z.object({
  account_ids: z.array(z.number().int().positive()).min(1).max(1000),
});

export const WorkgroupGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  note: z.string(),
  member_count: z.number().int(),
  create_time: z.number().int(),
});
export const WorkgroupGroupsBodySchema = z.object({
  group_ids: z.array(z.number().int().positive()).min(1).max(1000),
});
export const WorkgroupGroupMembersQuerySchema = PageQuerySchema.extend({
  group_id: z.coerce.number().int().positive(),
});
export const GroupMemberRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string(),
  avatar: z.string(),
});

/** One of a member's workgroups (the /settings/account/{id} page). */
export const AccountWorkgroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  desc: z.string(),
  network_id: z.number().int(),
  is_default: z.boolean(),
  /** The direct membership role, or null when the member reaches it only through groups. */
  role: WorkgroupRoleSchema.nullable(),
  /** The member's groups that hold the workgroup. */
  groups: z.array(z.string()),
});
export const BulkAddBodySchema = z.object({
  account_id: z.number().int().positive(),
  project_ids: z.array(z.number().int().positive()).min(1).max(1000),
  role: WorkgroupRoleSchema.default(0),
});
export const BulkDeleteBodySchema = z.object({
  account_id: z.number().int().positive(),
  project_ids: z.array(z.number().int().positive()).min(1).max(1000),
});

export const workgroupRoutes = {
  listWorkgroups: defineRoute({
    method: 'GET',
    path: '/v1/project/list',
    summary:
      'Workgroups the caller sees (all of the team’s for administrators), by name, address or star',
    access: WORKGROUP_READERS,
    query: WorkgroupListQuerySchema,
    reply: pagedReply(WorkgroupSchema),
  }),
  createWorkgroup: defineRoute({
    method: 'POST',
    path: '/v1/project',
    summary: 'Create a workgroup',
    access: WORKGROUP_ADMINS,
    body: CreateWorkgroupBodySchema,
    reply: WorkgroupSchema,
  }),
  getWorkgroup: defineRoute({
    method: 'GET',
    path: '/v1/project/:id',
    summary: 'One workgroup the caller sees',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    reply: WorkgroupSchema,
  }),
  updateWorkgroup: defineRoute({
    method: 'PATCH',
    path: '/v1/project/:id',
    summary: 'Rename a workgroup or change its description',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    body: UpdateWorkgroupBodySchema,
    reply: WorkgroupSchema,
  }),
  deleteWorkgroup: defineRoute({
    method: 'DELETE',
    path: '/v1/project/:id',
    summary: 'Delete a workgroup (not a cluster’s default one); its codes stop working',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  setFavourite: defineRoute({
    method: 'PUT',
    path: '/project/:id/favourite',
    summary: 'Star (1) or unstar (0) a workgroup for the caller',
    access: WORKGROUP_MEMBERS,
    params: IdParamsSchema,
    body: FavouriteBodySchema,
    reply: WorkgroupSchema,
  }),
  listWorkgroupResources: defineRoute({
    method: 'GET',
    path: '/v1/project/resources/:id',
    summary: 'Resources of a workgroup: servers (ecs) or databases (rds), by name or address',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    query: ProjectResourceQuerySchema,
    reply: pagedReply(ProjectResourceSchema),
  }),
  listResourceCandidates: defineRoute({
    method: 'GET',
    path: '/v1/project/resources/:id/candidates',
    summary:
      'Resources of the team’s clusters (own and shared) not yet in the workgroup (the spec’s exclude_pid list)',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    query: ProjectResourceQuerySchema,
    reply: pagedReply(ResourceCandidateSchema),
  }),
  addWorkgroupResources: defineRoute({
    method: 'POST',
    path: '/v1/project/resources/:id',
    summary: 'Add resources to a workgroup (at most 1000 in all; not to a default workgroup)',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    body: WorkgroupResourcesBodySchema,
    reply: OkReplySchema,
  }),
  removeWorkgroupResources: defineRoute({
    method: 'DELETE',
    path: '/v1/project/resources/:id',
    summary: 'Remove resources from a workgroup; their codes in it stop working',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    body: WorkgroupResourcesBodySchema,
    reply: OkReplySchema,
  }),
  exportWorkgroupResources: defineRoute({
    method: 'GET',
    path: '/v1/project/resources/:id/export',
    summary: 'A workgroup’s resources as an xlsx file (no credentials, no codes)',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
  }),
  workgroupHosts: defineRoute({
    method: 'GET',
    path: '/project/:id/hosts',
    summary:
      'An Ansible INI inventory of the workgroup’s Linux servers, reached through the gateway with the caller’s codes',
    access: WORKGROUP_MEMBERS,
    params: IdParamsSchema,
    query: HostsQuerySchema,
  }),
  getProjectResource: defineRoute({
    method: 'GET',
    path: '/project_resource/:id',
    summary: 'One resource of a workgroup the caller sees',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    reply: ProjectResourceSchema,
  }),
  setLoginUsernames: defineRoute({
    method: 'PUT',
    path: '/project_resource/:id/login_username',
    summary: 'Choose which of a server’s login users the workgroup grants',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    body: LoginUsernameBodySchema,
    reply: ProjectResourceSchema,
  }),
  setDefaultUsername: defineRoute({
    method: 'PUT',
    path: '/project_resource/:id/default_username',
    summary: 'The caller’s default login user for a Linux or Windows server (Config panel)',
    access: WORKGROUP_MEMBERS,
    params: IdParamsSchema,
    body: DefaultUsernameBodySchema,
    reply: ProjectResourceSchema,
  }),
  listWorkgroupMembers: defineRoute({
    method: 'GET',
    path: '/v1/project/members/:id',
    summary: 'Direct members of a workgroup, by name or account',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    query: WorkgroupMembersQuerySchema,
    reply: pagedReply(WorkgroupMemberSchema),
  }),
  workgroupMemberCandidates: defineRoute({
    method: 'GET',
    path: '/v1/project/members/:id/candidates',
    summary:
      'Team members who are not direct members yet, for Distribute (by name or account, at most 50)',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    query: MemberCandidatesQuerySchema,
    reply: z.array(MemberCandidateSchema),
  }),
  addWorkgroupMembers: defineRoute({
    method: 'POST',
    path: '/v1/project/members/:id',
    summary: 'Distribute members to a workgroup as administrators or ordinary members',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    body: AddWorkgroupMembersBodySchema,
    reply: OkReplySchema,
  }),
  changeMemberRole: defineRoute({
    method: 'PATCH',
    path: '/project/:id/member',
    summary: 'Make a member the workgroup’s administrator (1) or an ordinary member (0)',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    body: ChangeMemberRoleBodySchema,
    reply: WorkgroupMemberSchema,
  }),
  removeWorkgroupMembers: defineRoute({
    method: 'DELETE',
    path: '/v1/project/members/:id',
    summary: 'Remove members from a workgroup',
    access: WORKGROUP_READERS,
    params: IdParamsSchema,
    body: RemoveWorkgroupMembersBodySchema,
    reply: OkReplySchema,
  }),
  listWorkgroupGroups: defineRoute({
    method: 'GET',
    path: '/v1/project/groups/:id',
    summary: 'Groups that hold a workgroup',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    query: PageQuerySchema,
    reply: pagedReply(WorkgroupGroupSchema),
  }),
  addWorkgroupGroups: defineRoute({
    method: 'POST',
    path: '/v1/project/groups/:id',
    summary: 'Give groups a workgroup: every member of each group sees it',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    body: WorkgroupGroupsBodySchema,
    reply: OkReplySchema,
  }),
  removeWorkgroupGroups: defineRoute({
    method: 'DELETE',
    path: '/v1/project/groups/:id',
    summary: 'Take a workgroup from groups',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    body: WorkgroupGroupsBodySchema,
    reply: OkReplySchema,
  }),
  workgroupGroupMembers: defineRoute({
    method: 'GET',
    path: '/project/:id/group',
    summary: 'Members of one of the workgroup’s groups (View group members, 10 a page)',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    query: WorkgroupGroupMembersQuerySchema,
    reply: pagedReply(GroupMemberRowSchema),
  }),
  accountWorkgroups: defineRoute({
    method: 'GET',
    path: '/v1/project/get_project_by_account/:id',
    summary: 'The workgroups a member reaches, directly or through groups',
    access: WORKGROUP_ADMINS,
    params: IdParamsSchema,
    query: PageQuerySchema,
    reply: pagedReply(AccountWorkgroupSchema),
  }),
  bulkAddToWorkgroups: defineRoute({
    method: 'POST',
    path: '/project/bulk_add_project',
    summary: 'Distribute one member to several workgroups (Join WorkGroup)',
    access: WORKGROUP_ADMINS,
    body: BulkAddBodySchema,
    reply: OkReplySchema,
  }),
  bulkRemoveFromWorkgroups: defineRoute({
    method: 'DELETE',
    path: '/project/bulk_delete_project',
    summary: 'Take one member out of several workgroups (Exit)',
    access: WORKGROUP_ADMINS,
    body: BulkDeleteBodySchema,
    reply: OkReplySchema,
  }),
} as const;
