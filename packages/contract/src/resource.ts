/**
 * Resources of a cluster: Linux and Windows servers (instances) and MySQL, PostgreSQL and SQL
 * Server databases (spec 2 §3 instance and database resources, §4 connectivity test and scan,
 * §5 add-instance, add-database and scan rules, §7 Resources and Scan calls). Credentials go
 * in and never come out: no reply carries a password or a key.
 */
import { z } from 'zod';
import { defineRoute } from './http';
import { IdParamsSchema, OkReplySchema, PageQuerySchema, pagedReply } from './common';
import { CONFIGURATION } from './cluster';
import { SCAN_PREFIX_MAX, SCAN_PREFIX_MIN, TLS_CA_MAX } from './constants';
import { SqlRuleSchema } from './security-mode';

export const INSTANCE_OS = ['linux', 'win32'] as const;
export const DATABASE_OS = ['mysql', 'postgresql', 'mssql'] as const;
export const RESOURCE_TYPES = {
  linux: 'LinuxServer',
  win32: 'WinServer',
  mysql: 'MySQLDatabase',
  mssql: 'SQLServerDatabase',
  postgresql: 'PostgreSQLDatabase',
} as const;
export type ResourceOs = keyof typeof RESOURCE_TYPES;

/** auth_type: 0 host password, 1 SSH key, 2 team account password (spec 2 §3). */
export const AUTH_TYPES = [0, 1, 2] as const;
export const TEST_RESULTS = ['pending', 'enable', 'disable'] as const;

/** Four dotted numbers 0-255, any of them `*` (spec 2 §5 'inner IP'). */
export const INNER_IP_PATTERN =
  /^((25[0-5]|2[0-4]\d|1?\d?\d|\*)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d|\*)$/;
/** An IPv4 address or a host name (a database 'IP or link'). */
export const HOST_PATTERN =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** Database names separated by ';', or '*' for all (spec 2 §5). */
export const DATABASE_NAMES_PATTERN = /^(\*|[^;*\s]+(;[^;*\s]+)*)$/;

/**
 * How the gateway's connection to a database uses TLS (not the client's to the gateway):
 * `prefer` TLS when the database offers it, its certificate not checked (the default);
 * `require` refuse a database that offers no TLS; `verify` require it and check the
 * certificate against `tls_ca` (or the public CAs Node.js ships with) and the database's address.
 */
export const DB_TLS_MODES = ['prefer', 'require', 'verify'] as const;
export type DbTlsMode = (typeof DB_TLS_MODES)[number];
/**
 * CA certificates in PEM for `verify` (the chain up to a root); '' for the public CAs Node.js
 * ships with. The server checks they parse.
 */
const TlsCa = z.string().trim().max(TLS_CA_MAX);

const Port = z.number().int().min(0).max(65535);
const ResourceName = z.string().trim().min(1).max(100);

export const LoginUserSchema = z.object({
  username: z.string().trim().min(1).max(64),
  auth_type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** The host password for auth_type 0; kept sealed, never returned. */
  password: z.string().max(1024).optional(),
});

export const CreateInstanceBodySchema = z.object({
  network_id: z.number().int().positive(),
  name: ResourceName,
  ip_address: z.string().trim().regex(INNER_IP_PATTERN),
  os: z.enum(INSTANCE_OS),
  port: Port,
  /** Login users; the console sends them from a 'a;b' field. */
  login_users: z.array(LoginUserSchema).min(1).max(50),
  instance_id: z.string().trim().max(64).default(''),
  flavor: z.string().trim().max(64).default(''),
});

export const CreateDatabaseBodySchema = z.object({
  network_id: z.number().int().positive(),
  name: ResourceName,
  ip_address: z.string().trim().regex(HOST_PATTERN),
  os: z.enum(DATABASE_OS),
  port: Port,
  username: z.string().trim().min(1).max(128),
  password: z.string().min(1).max(1024),
  databases: z.string().trim().regex(DATABASE_NAMES_PATTERN),
  /** MySQL and PostgreSQL; SQL Server takes only 'prefer' (its proxy is a later issue). */
  tls_mode: z.enum(DB_TLS_MODES).default('prefer'),
  tls_ca: TlsCa.default(''),
});

export const CreateResourceBodySchema = z.discriminatedUnion('os', [
  CreateInstanceBodySchema,
  CreateDatabaseBodySchema,
]);

export const UpdateResourceBodySchema = z
  .object({
    name: ResourceName.optional(),
    ip_address: z.string().trim().max(253).optional(),
    port: Port.optional(),
    login_users: z.array(LoginUserSchema).min(1).max(50).optional(),
    username: z.string().trim().min(1).max(128).optional(),
    password: z.string().min(1).max(1024).optional(),
    databases: z.string().trim().regex(DATABASE_NAMES_PATTERN).optional(),
    /** Databases only. */
    tls_mode: z.enum(DB_TLS_MODES).optional(),
    tls_ca: TlsCa.optional(),
    /** null: forget the server's pinned SSH host key; the next session pins the one it sees. */
    host_key: z.null().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'nothing to change',
    path: ['name'],
  });

export const ResourceSchema = z.object({
  id: z.number().int(),
  network_id: z.number().int(),
  name: z.string(),
  resource_type: z.enum([
    'LinuxServer',
    'WinServer',
    'MySQLDatabase',
    'SQLServerDatabase',
    'PostgreSQLDatabase',
  ]),
  os: z.enum(['linux', 'win32', 'mysql', 'postgresql', 'mssql']),
  ip_address: z.string(),
  port: z.number().int(),
  instance_id: z.string(),
  flavor: z.string(),
  /** Servers: one entry per login user with its authentication and last test result. */
  extension: z.object({
    username: z.array(z.string()),
    data: z.array(
      z.object({
        username: z.string(),
        auth_type: z.number().int(),
        test_result: z.enum(TEST_RESULTS).nullable(),
      }),
    ),
  }),
  /** Databases: account used to connect, database names, and 1 (SQL approval off) or 2 (on). */
  username: z.string(),
  databases: z.array(z.string()),
  status: z.number().int(),
  create_time: z.number().int(),
  /**
   * Servers: the SSH host key pinned at the first session (`SHA256:…`, as `ssh-keygen -lf`
   * prints it), or null until then. Databases: null.
   */
  host_key: z.string().nullable(),
  /** Databases: how the gateway's connection to it uses TLS, and the CAs for `verify` ('' none). Servers: null. */
  tls_mode: z.enum(DB_TLS_MODES).nullable(),
  tls_ca: z.string().nullable(),
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceListQuerySchema = PageQuerySchema.extend({
  type: z.enum(['ecs', 'rds']).optional(),
  q_name: z.string().trim().max(100).optional(),
  q_os: z.enum(['linux', 'win32', 'mysql', 'postgresql', 'mssql']).optional(),
});

export const ConnectionTestBodySchema = z.object({
  resource_id: z.number().int().positive(),
  /** For servers: which login user to test (default: the first). */
  username: z.string().trim().max(64).optional(),
});
export const TaskIdSchema = z.object({ task_id: z.string().min(1).max(64) });
export const ConnectionTestStatusSchema = z.object({
  /** pending while the gateway works; enable or disable once it answered. */
  status: z.enum(TEST_RESULTS),
  reason: z.string(),
});

/** IPv4 with a prefix of 24 to 32 (spec 2 §5 scan range). */
export const ScanCidrSchema = z
  .string()
  .trim()
  .refine(
    (v) => {
      const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(v);
      if (!m) return false;
      const prefix = Number(m[5]);
      return (
        m.slice(1, 5).every((p) => Number(p) <= 255) &&
        prefix >= SCAN_PREFIX_MIN &&
        prefix <= SCAN_PREFIX_MAX
      );
    },
    { message: 'e.g. {ip}/24, and only supports 24-32' },
  );

export const ScanStartBodySchema = z.object({
  network_id: z.number().int().positive(),
  cidr: ScanCidrSchema,
  port: Port,
  os: z.enum(INSTANCE_OS),
  username: z.string().trim().min(1).max(255),
});
export const ScanQuerySchema = TaskIdSchema.extend({
  hide_duplicate: z.coerce.number().int().min(0).max(1).default(0),
});
export const ScanStatusSchema = z.object({
  status: z.enum(['pending', 'done', 'failed']),
  objects: z.array(z.object({ ip: z.string(), port: z.number().int(), exists: z.boolean() })),
});

/** Spreadsheet import (spec 2 §7 POST /file/batch/resource; xlsx only). */
export const BatchImportBodySchema = z.object({
  network_id: z.number().int().positive(),
  resource_type: z.enum(['ecs', 'database']),
  content: z
    .array(
      z.object({
        /** The file, base64. */
        data: z.string().min(1).max(14_000_000),
        file_name: z.string().trim().min(1).max(255),
        extension: z.string().trim().max(16),
      }),
    )
    .length(1),
});
export const BatchImportReplySchema = z.object({ imported: z.number().int() });

export const TemplateQuerySchema = z.object({
  type: z.enum(['ecs', 'database']),
  language: z.enum(['en_US', 'zh_CN']).default('en_US'),
});

function uniqueRules(rules: { op: string; table?: string | undefined }[]): boolean {
  const keys = rules.map((r) => `${r.op}\u0000${(r.table ?? '').toLowerCase()}`);
  return new Set(keys).size === keys.length;
}

const PersonSchema = z.object({ id: z.number().int(), name: z.string(), account: z.string() });

export const DatabaseSecuritySchema = z.object({
  /** 2 SQL changes need an approved application, 1 they do not (spec 2 §3). */
  status: z.number().int(),
  block_pattern: z.array(SqlRuleSchema),
  notice_pattern: z.array(SqlRuleSchema),
  notice_status: z.number().int(),
  approve_accounts: z.array(PersonSchema),
  notice_accounts: z.array(PersonSchema),
  /**
   * Sessions open on this database now: they keep the rules they started with (rules are
   * read when a session starts) unless a save disconnects them (`cut_sessions`).
   */
  online: z.number().int(),
});

export const UpdateDatabaseSecurityBodySchema = z
  .object({
    status: z.union([z.literal(1), z.literal(2)]),
    block_pattern: z.array(SqlRuleSchema).max(200),
    notice_pattern: z.array(SqlRuleSchema).max(200),
    notice_status: z.union([z.literal(0), z.literal(1)]),
    approve_accounts: z.array(z.number().int().positive()).max(100),
    notice_accounts: z.array(z.number().int().positive()).max(100),
    /** Disconnect the sessions open on this database, so the saved rules apply at once. */
    cut_sessions: z.boolean().default(false),
  })
  .refine((b) => uniqueRules(b.block_pattern), {
    message: 'the same op and table twice',
    path: ['block_pattern'],
  })
  .refine((b) => uniqueRules(b.notice_pattern), {
    message: 'the same op and table twice',
    path: ['notice_pattern'],
  })
  .refine((b) => new Set(b.approve_accounts).size === b.approve_accounts.length, {
    message: 'duplicate approver',
    path: ['approve_accounts'],
  })
  .refine((b) => new Set(b.notice_accounts).size === b.notice_accounts.length, {
    message: 'duplicate notifier',
    path: ['notice_accounts'],
  })
  .refine((b) => b.status !== 2 || b.approve_accounts.length > 0, {
    message: 'approval needs an approver',
    path: ['approve_accounts'],
  })
  .refine((b) => b.notice_status !== 1 || b.notice_accounts.length > 0, {
    message: 'alarm needs a notifier',
    path: ['notice_accounts'],
  })
  .refine((b) => b.notice_status !== 1 || b.notice_pattern.length > 0, {
    message: 'alarm needs a rule',
    path: ['notice_pattern'],
  });

export const resourceRoutes = {
  listResources: defineRoute({
    method: 'GET',
    path: '/v1/network/:id/resource',
    summary: 'Resources of a cluster: servers (ecs) or databases (rds)',
    access: CONFIGURATION,
    params: IdParamsSchema,
    query: ResourceListQuerySchema,
    reply: pagedReply(ResourceSchema),
  }),
  createResource: defineRoute({
    method: 'POST',
    path: '/v1/resource',
    summary: 'Add a server or a database to a cluster',
    access: CONFIGURATION,
    body: CreateResourceBodySchema,
    reply: ResourceSchema,
  }),
  getResource: defineRoute({
    method: 'GET',
    path: '/v1/resource/:id',
    summary: 'One resource (never its credentials)',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: ResourceSchema,
  }),
  updateResource: defineRoute({
    method: 'PATCH',
    path: '/v1/resource/:id',
    summary: 'Change a resource’s settings or credentials',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: UpdateResourceBodySchema,
    reply: ResourceSchema,
  }),
  deleteResource: defineRoute({
    method: 'DELETE',
    path: '/resource/:id',
    summary: 'Delete a resource',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  batchDeleteResources: defineRoute({
    method: 'DELETE',
    path: '/batch/resource/:ids',
    summary: 'Delete several resources (ids joined by commas)',
    access: CONFIGURATION,
    params: z.object({ ids: z.string().regex(/^\d+(,\d+){0,999}$/) }),
    reply: OkReplySchema,
  }),
  databaseSecurity: defineRoute({
    method: 'GET',
    path: '/v1/resource/:id/security',
    summary:
      'A database’s security settings: SQL approval, block and alarm rules, approvers, notifiers',
    access: CONFIGURATION,
    params: IdParamsSchema,
    reply: DatabaseSecuritySchema,
  }),
  updateDatabaseSecurity: defineRoute({
    method: 'PATCH',
    path: '/v1/resource/:id/security',
    summary: 'Save a database’s security settings (enforced by the database sessions)',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: UpdateDatabaseSecurityBodySchema,
    reply: DatabaseSecuritySchema,
  }),
  batchImport: defineRoute({
    method: 'POST',
    path: '/file/batch/resource',
    summary: 'Import servers or databases from a filled-in xlsx template (all rows or none)',
    access: CONFIGURATION,
    body: BatchImportBodySchema,
    reply: BatchImportReplySchema,
  }),
  importTemplate: defineRoute({
    method: 'GET',
    path: '/v1/resource/template',
    summary: 'The xlsx template for importing servers or databases, in English or Chinese',
    access: CONFIGURATION,
    query: TemplateQuerySchema,
  }),
  connectionTest: defineRoute({
    method: 'POST',
    path: '/service_connection_test',
    summary: 'Ask the cluster’s gateway to log in to the resource; poll the task',
    access: CONFIGURATION,
    body: ConnectionTestBodySchema,
    reply: TaskIdSchema,
  }),
  connectionTestStatus: defineRoute({
    method: 'GET',
    path: '/query_service_connection_test',
    summary: 'The result of a connectivity test',
    access: CONFIGURATION,
    query: TaskIdSchema,
    reply: ConnectionTestStatusSchema,
  }),
  scanStart: defineRoute({
    method: 'POST',
    path: '/service_discovery_start',
    summary: 'Ask the cluster’s gateway to scan a range for an open port',
    access: CONFIGURATION,
    body: ScanStartBodySchema,
    reply: TaskIdSchema,
  }),
  scanStatus: defineRoute({
    method: 'GET',
    path: '/service_discovery_query',
    summary: 'The result of a scan, optionally hiding addresses already added',
    access: CONFIGURATION,
    query: ScanQuerySchema,
    reply: ScanStatusSchema,
  }),
} as const;
