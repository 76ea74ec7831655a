/**
 * Clusters (networks) and their gateways (spec 2 §2 cluster list and detail, §3 cluster, §5
 * cluster rules, §7 Cluster calls). Configuration pages: roles 1 and 3.
 */
import { z } from 'zod';
import { defineRoute, roles } from './http';
import { IdParamsSchema, OkReplySchema, PageQuerySchema, pagedReply } from './common';
import {
  CLUSTER_NAME_MAX,
  PAGE_SIZE_CLUSTER_LIST,
  TUNNEL_MAX_SECONDS,
  TUNNEL_MIN_SECONDS,
} from './constants';
import { GatewayPortsSchema } from './control';

export const CONFIGURATION = roles([1, 3]);

export const ClusterNameSchema = z.string().trim().min(1).max(CLUSTER_NAME_MAX);

/** 0 means no limit; otherwise 30 minutes to 1 year (spec 2 §5). */
export const MaxTunnelExpireSchema = z
  .number()
  .int()
  .refine((v) => v === 0 || (v >= TUNNEL_MIN_SECONDS && v <= TUNNEL_MAX_SECONDS), {
    message: 'between 1800 and 31536000 seconds, or 0',
  });

export const PortMapSchema = z.object({
  ip_name: z.string().trim().max(255),
  origin_port: z.number().int().min(1).max(65535),
  map_port: z.number().int().min(1).max(65535),
});

export const AgentSchema = z.object({
  version: z.string(),
  host: z.string(),
  features: z.array(z.string()),
  ports: GatewayPortsSchema,
  /** How many gateways of the pool are connected now. */
  connected: z.number().int(),
});

export const ClusterSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int().nullable(),
  parent_company: z.object({ full_name: z.string() }).nullable(),
  /** 1 while at least one gateway of the cluster is connected. */
  agent_status: z.number().int(),
  agent_version: z.string(),
  agent: AgentSchema.nullable(),
  need_update: z.boolean(),
  resource_count: z.number().int(),
  safe_mode: z.number().int(),
  info: z.object({
    max_tunnel_expire_time: z.number().int(),
    is_open_map: z.boolean(),
    port_map_info: z.array(PortMapSchema),
  }),
  create_time: z.number().int(),
});
export type Cluster = z.infer<typeof ClusterSchema>;

export const ClusterListQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(65535).default(PAGE_SIZE_CLUSTER_LIST),
  q_name: z.string().trim().max(100).optional(),
});

export const UpdateClusterBodySchema = z
  .object({
    name: ClusterNameSchema.optional(),
    max_tunnel_expire_time: MaxTunnelExpireSchema.optional(),
    is_open_map: z.boolean().optional(),
    port_map_info: z
      .array(PortMapSchema)
      .max(100)
      .refine((rows) => new Set(rows.map((r) => r.map_port)).size === rows.length, {
        message: 'The port mapping rules cannot have duplicate ports',
      })
      .optional(),
    /**
     * null detaches the cluster from its gateways after an uninstall: they are disconnected and
     * the cluster gets a new key, so the old installation cannot come back.
     */
    agent_id: z.null().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'nothing to change',
    path: ['name'],
  });

export const AgentScriptsSchema = z.object({
  /** Shell commands an administrator runs on the gateway host; they embed the cluster key. */
  install: z.string(),
  update: z.string(),
  rollback: z.string(),
  uninstall: z.string(),
  latest_version: z.string(),
  /**
   * The server's address is plain http:// to another machine: gateways refuse it (their
   * control channel would carry credentials in clear) unless PORTCULLIS_INSECURE_HTTP=1.
   */
  insecure_http: z.boolean(),
});

export const CheckUpdateSchema = z.object({
  latest_version: z.string(),
  clusters: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      agent_version: z.string(),
      need_update: z.boolean(),
    }),
  ),
});

export const clusterRoutes = {
  listClusters: defineRoute({
    method: 'GET',
    path: '/v1/network/list',
    summary: 'Clusters of the team, searchable by name',
    access: CONFIGURATION,
    query: ClusterListQuerySchema,
    reply: pagedReply(ClusterSchema),
  }),
  createCluster: defineRoute({
    method: 'POST',
    path: '/v1/network',
    summary: 'Create a cluster (it gets a key for its gateways)',
    access: CONFIGURATION,
    body: z.object({ name: ClusterNameSchema }),
    reply: ClusterSchema,
  }),
  getCluster: defineRoute({
    method: 'GET',
    path: '/v1/network/:id',
    summary: 'One cluster with its gateway state',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: ClusterSchema,
  }),
  updateCluster: defineRoute({
    method: 'PATCH',
    path: '/network/:id',
    summary:
      'Rename a cluster, set its maximum code validity and port mapping, or detach its gateways (agent_id null)',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: UpdateClusterBodySchema,
    reply: ClusterSchema,
  }),
  deleteCluster: defineRoute({
    method: 'DELETE',
    path: '/network/:id',
    summary: 'Delete a cluster that holds no resources',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  agentScripts: defineRoute({
    method: 'GET',
    path: '/v1/network/:id/agent_scripts',
    summary: 'Install, update, roll-back and uninstall commands for the cluster’s gateway',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: AgentScriptsSchema,
  }),
  allClusters: defineRoute({
    method: 'GET',
    path: '/network',
    summary: 'Every cluster the team sees (own and shared), for pickers',
    access: CONFIGURATION,
    reply: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        agent_status: z.number().int(),
        shared: z.boolean(),
      }),
    ),
  }),
  exportCluster: defineRoute({
    method: 'GET',
    path: '/v1/project/resources/export/:id',
    summary: 'A cluster’s resources as an xlsx file (no credentials)',
    access: CONFIGURATION,
    params: IdParamsSchema,
  }),
  checkUpdate: defineRoute({
    method: 'GET',
    path: '/check_update',
    summary: 'Which clusters run a gateway older than the published one',
    access: CONFIGURATION,
    reply: CheckUpdateSchema,
  }),
} as const;

// Sharing, log filters and safe mode (spec 2 §2 setting tab and side panels, §3, §7).

export const ShareSchema = z.object({
  id: z.number().int(),
  company: z.object({ domain: z.string(), full_name: z.string() }),
  create_time: z.number().int(),
});

export const ShareChangeBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('add'), domain: z.string().trim().min(1).max(64) }),
  z.object({ action: z.literal('cancel'), share_id: z.number().int().positive() }),
]);

export const LogFilterSchema = z.object({
  id: z.number().int(),
  network_id: z.number().int(),
  /** Always 'contains' (spec 2 §3). */
  operator: z.literal('contains'),
  condition: z.string(),
  create_time: z.number().int(),
});

export const CreateLogFilterBodySchema = z.object({
  network_id: z.number().int().positive(),
  condition: z.string().trim().min(1).max(255),
});

export const InterceptCommandSchema = z.object({
  id: z.number().int(),
  network_id: z.number().int(),
  command: z.string(),
  kind: z.enum(['intercept', 'notice']),
});

export const InterceptBatchBodySchema = z.object({
  network_id: z.number().int().positive(),
  intercept: z.array(z.string().trim().min(1).max(255)).max(500).default([]),
  notice: z.array(z.string().trim().min(1).max(255)).max(500).default([]),
});

export const SafeModeSchema = z.object({
  safe_mode: z.boolean(),
  /** Approval of non-security mode applications is on. */
  safe_mode_approver: z.boolean(),
  /** Alarm notices are on. */
  safe_mode_notice: z.boolean(),
  approver_accounts: z.array(
    z.object({ id: z.number().int(), name: z.string(), account: z.string() }),
  ),
  notice_accounts: z.array(
    z.object({ id: z.number().int(), name: z.string(), account: z.string() }),
  ),
  /**
   * Terminal sessions open in the cluster now (every team's): security mode's lists are read
   * when a session starts, so these keep theirs unless a save disconnects them (`cut_sessions`).
   */
  online: z.number().int(),
});

export const UpdateSafeModeBodySchema = z
  .object({
    safe_mode: z.boolean(),
    safe_mode_approver: z.boolean(),
    safe_mode_notice: z.boolean(),
    approver_accounts: z.array(z.number().int().positive()).max(100),
    notice_accounts: z.array(z.number().int().positive()).max(100),
    /** Disconnect the terminal sessions open in the cluster, so the new settings apply at once. */
    cut_sessions: z.boolean().default(false),
  })
  .refine((b) => new Set(b.approver_accounts).size === b.approver_accounts.length, {
    message: 'duplicate approver',
    path: ['approver_accounts'],
  })
  .refine((b) => new Set(b.notice_accounts).size === b.notice_accounts.length, {
    message: 'duplicate notifier',
    path: ['notice_accounts'],
  })
  .refine((b) => !b.safe_mode_approver || b.approver_accounts.length > 0, {
    message: 'approval needs an approver',
    path: ['approver_accounts'],
  })
  .refine((b) => !b.safe_mode_notice || b.notice_accounts.length > 0, {
    message: 'alarm needs a notifier',
    path: ['notice_accounts'],
  });

export const clusterSettingRoutes = {
  listShares: defineRoute({
    method: 'GET',
    path: '/network/:id/sharing',
    summary: 'Teams this cluster is shared with',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: z.array(ShareSchema),
  }),
  changeShares: defineRoute({
    method: 'PATCH',
    path: '/network/:id/sharing',
    summary: 'Share the cluster with a team (by team code), or cancel a share',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: ShareChangeBodySchema,
    reply: z.array(ShareSchema),
  }),
  listLogFilters: defineRoute({
    method: 'GET',
    path: '/v1/network/:id/log_filters',
    summary: 'Log filters of a cluster (also readable on a shared cluster)',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: z.array(LogFilterSchema),
  }),
  createLogFilter: defineRoute({
    method: 'POST',
    path: '/log_filter',
    summary: 'Add a log filter (operator contains)',
    access: CONFIGURATION,
    body: CreateLogFilterBodySchema,
    reply: LogFilterSchema,
  }),
  deleteLogFilter: defineRoute({
    method: 'DELETE',
    path: '/log_filter/:id',
    summary: 'Delete a log filter',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  batchDeleteLogFilters: defineRoute({
    method: 'DELETE',
    path: '/batch/log_filter/:ids',
    summary: 'Delete several log filters (ids joined by commas)',
    access: CONFIGURATION,
    params: z.object({ ids: z.string().regex(/^\d+(,\d+){0,999}$/) }),
    reply: OkReplySchema,
  }),
  safeMode: defineRoute({
    method: 'GET',
    path: '/v1/network/:id/safe_mode',
    summary: 'The cluster’s safe-mode settings for servers',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: SafeModeSchema,
  }),
  updateSafeMode: defineRoute({
    method: 'PATCH',
    path: '/v1/network/:id/safe_mode',
    summary: 'Turn safe mode on or off and choose its approvers and notifiers',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: UpdateSafeModeBodySchema,
    reply: SafeModeSchema,
  }),
  listIntercepts: defineRoute({
    method: 'GET',
    path: '/v1/intercepts',
    summary: 'Commands a cluster blocks (intercept) or alarms on (notice)',
    access: CONFIGURATION,
    query: z.object({ network_id: z.coerce.number().int().positive() }),
    reply: z.array(InterceptCommandSchema),
  }),
  addIntercepts: defineRoute({
    method: 'POST',
    path: '/need_intercept_command/batch',
    summary: 'Add intercept and notice commands (duplicates in the list are skipped)',
    access: CONFIGURATION,
    body: InterceptBatchBodySchema,
    reply: z.array(InterceptCommandSchema),
  }),
  deleteIntercepts: defineRoute({
    method: 'DELETE',
    path: '/need_intercept_command/batch/:ids',
    summary: 'Remove intercept commands',
    access: CONFIGURATION,
    params: z.object({ ids: z.string().regex(/^\d+(,\d+){0,999}$/) }),
    reply: OkReplySchema,
  }),
  deleteNotices: defineRoute({
    method: 'DELETE',
    path: '/need_intercept_command/batch_notice/:ids',
    summary: 'Remove notice commands',
    access: CONFIGURATION,
    params: z.object({ ids: z.string().regex(/^\d+(,\d+){0,999}$/) }),
    reply: OkReplySchema,
  }),
} as const;
