/**
 * System logs (spec 2 §2 System logs, §3 log rows and event vocabularies, §7 Logs): login,
 * team, cluster, workgroup (resource) and alarm logs, their filters and the export.
 */
import { z } from 'zod';
import { defineRoute, roles } from './http';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { optionalQueryNumber } from './common';
import { ALARM_ACTIONS } from './security-mode';

/** System Log: every role but 3 (spec 2 §6), inside the System group (roles 1-4). */
export const SYSTEM_LOG_ROLES = [1, 2, 4] as const;
const LOG_READERS = roles(SYSTEM_LOG_ROLES);

export const LOG_TYPES = ['login', 'team', 'cluster', 'project', 'alarm'] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** The console's tab keys (route query `type`) and the log each shows. */
export const LOG_TABS: Record<string, LogType> = {
  loginLogs: 'login',
  teamLogs: 'team',
  clusterLogs: 'cluster',
  resourceLogs: 'project',
  alarmLogs: 'alarm',
};

export const TEAM_EVENTS = [
  'addUser',
  'deleteUser',
  'updateUser',
  'disableUser',
  'enableUser',
  'resetMfa',
  'changePassword',
  'createGroup',
  'updateGroup',
  'deleteGroup',
  'addGroupMember',
  'deleteGroupMember',
  'updateTeamSettings',
  'updateDomainToken',
  'unbindWorkspace',
  'updateSso',
] as const;
export type TeamEvent = (typeof TEAM_EVENTS)[number];

const RESOURCE_TYPES = [
  'LinuxServer',
  'WinServer',
  'MySQLDatabase',
  'SQLServerDatabase',
  'PostgreSQLDatabase',
] as const;

export const CLUSTER_EVENTS = [
  'createNet',
  'deleteNet',
  'updateNet',
  ...RESOURCE_TYPES.flatMap((r) => [`add${r}`, `delete${r}`]),
  /** An administrator forgot a server's pinned SSH host key (the next session pins anew). */
  'forgetHostKey',
  /**
   * An administrator set a database's TLS to the gateway (prefer, require or verify, by the
   * event's name), or changed the CA certificates it verifies against.
   */
  'databaseTlsPrefer',
  'databaseTlsRequire',
  'databaseTlsVerify',
  'shareNet',
  'cancelShareNet',
  'returnNet',
  'openSafeMode',
  'closeSafeMode',
  'auditSafeMode',
  'unauditSafeMode',
  'addInterceptInstruction',
  'removeInterceptInstruction',
  'modifySafeModeAuditor',
] as const;

export const PROJECT_EVENTS = [
  'createProject',
  'updateProject',
  'deleteProject',
  'addProjectAccount',
  'deleteProjectAccount',
  'addProjectAdmin',
  'deleteProjectAdmin',
  'addProjectGroup',
  'deleteProjectGroup',
  'updateProjectLoginUser',
  ...RESOURCE_TYPES.flatMap((r) => [`add${r}`, `remove${r}`]),
] as const;

/** Which fields the account text may filter, per log (spec 2 §3 search dimensions). */
export const LOG_SEARCH_KEYS = {
  login: ['account'],
  team: ['account', 'user'],
  cluster: ['account', 'resource_name', 'net_name', 'shared_company_name'],
  project: ['account', 'project_name', 'resource_name', 'project_account'],
  alarm: ['account_name', 'source_ip', 'resource_name', 'command'],
} as const satisfies Record<LogType, readonly string[]>;

const text = z.string().trim().max(200).optional();

export const LogQuerySchema = z.object({
  page_index: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  start_time: optionalQueryNumber(z.number().int().min(0)),
  end_time: optionalQueryNumber(z.number().int().min(0)),
  /** Login log: the account type (role 0-4). */
  admin: optionalQueryNumber(z.number().int().min(0).max(4)),
  event: z.string().trim().max(64).optional(),
  account: text,
  user: text,
  resource_name: text,
  net_name: text,
  shared_company_name: text,
  project_name: text,
  project_account: text,
  account_name: text,
  source_ip: text,
  command: text,
});
export type LogQuery = z.infer<typeof LogQuerySchema>;

function logList<T extends z.ZodType>(row: T) {
  return z.object({ objects: z.array(row), num_results: z.number().int() });
}

export const LoginLogRowSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  account: z.string(),
  admin: z.number().int().nullable(),
  ip: z.string(),
  success: z.boolean(),
  /** A catalogue code, or '' for a success. */
  reason: z.string(),
});
export const TeamLogRowSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  account: z.string(),
  event: z.string(),
  user: z.string(),
  group: z.string(),
});
export const ClusterLogRowSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  account: z.string(),
  event: z.string(),
  net_name: z.string(),
  resource_name: z.string(),
  shared_company_name: z.string(),
});
export const ProjectLogRowSchema = z.object({
  id: z.number().int(),
  time: z.number().int(),
  account: z.string(),
  event: z.string(),
  project_name: z.string(),
  resource_name: z.string(),
  project_account: z.string(),
  group: z.string(),
});
export const AlarmLogRowSchema = z.object({
  id: z.number().int(),
  operation_time: z.number().int(),
  account_name: z.string(),
  con_ip: z.string(),
  resource_name: z.string(),
  project_name: z.string(),
  way: z.string(),
  /** intercept: the command was blocked; notice: it ran and raised the alarm. */
  event: z.enum(ALARM_ACTIONS),
  command: z.string(),
  /** The accounts this alarm's mail reached (none while it is on its way, or when held back). */
  notice_accounts: z.array(z.string()),
});

export const logRoutes = {
  loginLogs: defineRoute({
    method: 'GET',
    path: '/event/get_login_log',
    summary: 'Sign-in attempts, successful or not',
    access: LOG_READERS,
    query: LogQuerySchema,
    reply: logList(LoginLogRowSchema),
  }),
  teamLogs: defineRoute({
    method: 'GET',
    path: '/event/get_account_log',
    summary: 'Team events (members, groups, settings)',
    access: LOG_READERS,
    query: LogQuerySchema,
    reply: logList(TeamLogRowSchema),
  }),
  clusterLogs: defineRoute({
    method: 'GET',
    path: '/event/get_net_log',
    summary: 'Cluster events',
    access: LOG_READERS,
    query: LogQuerySchema,
    reply: logList(ClusterLogRowSchema),
  }),
  projectLogs: defineRoute({
    method: 'GET',
    path: '/event/get_project_log',
    summary: 'Workgroup (resource) events',
    access: LOG_READERS,
    query: LogQuerySchema,
    reply: logList(ProjectLogRowSchema),
  }),
  alarmLogs: defineRoute({
    method: 'GET',
    path: '/event/get_notice_log',
    summary: 'Security-mode alarms',
    access: LOG_READERS,
    query: LogQuerySchema,
    reply: logList(AlarmLogRowSchema),
  }),
  alarmDetail: defineRoute({
    method: 'POST',
    path: '/event/alarm',
    summary: 'One alarm, for the detail panel',
    access: LOG_READERS,
    body: z.object({ id: z.number().int().positive() }),
    reply: AlarmLogRowSchema,
  }),
  exportLogs: defineRoute({
    method: 'GET',
    path: '/event/sys_log_export',
    summary: 'The filtered log as a CSV file (opens in any spreadsheet)',
    access: LOG_READERS,
    query: LogQuerySchema.extend({ log_type: z.enum(LOG_TYPES) }),
  }),
} as const;
