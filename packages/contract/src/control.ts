/**
 * The control channel between a gateway (agent) and the server: a WebSocket the gateway dials
 * at `/api/agent/control`, authenticated by its cluster key in the `authorization: Bearer`
 * header. Every message is a JSON object with the protocol version `v` and a `type`; a message
 * this side cannot read is refused, never guessed at. A gateway whose protocol is older than
 * {@link CONTROL_PROTOCOL_MIN} is told to update and disconnected.
 */
import { z } from 'zod';

export const CONTROL_PROTOCOL = 1;
export const CONTROL_PROTOCOL_MIN = 1;
export const CONTROL_PATH = '/api/agent/control';
/** A gateway says it is alive this often; the server marks it unavailable after the grace. */
export const HEARTBEAT_SECONDS = 10;
export const HEARTBEAT_GRACE_SECONDS = 30;

export const GATEWAY_FEATURES = [
  'ssh',
  'webssh',
  'mysql',
  'postgresql',
  'mssql',
  'rdp',
  'webrdp',
  'scan',
  'connectivity_test',
  'key_upload',
  'key_test',
] as const;

export const GatewayPortsSchema = z.object({
  ssh_port: z.number().int().min(0).max(65535),
  webssh_port: z.number().int().min(0).max(65535),
  mysql_port: z.number().int().min(0).max(65535),
  postgresql_port: z.number().int().min(0).max(65535),
  mssql_port: z.number().int().min(0).max(65535),
  rdp_port: z.number().int().min(0).max(65535),
  webrdp_port: z.number().int().min(0).max(65535),
});
export type GatewayPorts = z.infer<typeof GatewayPortsSchema>;

/** What a connectivity test is asked to try (the credential travels for this one task only). */
export const ConnectivityTargetSchema = z.object({
  kind: z.enum(['ssh', 'rdp', 'mysql', 'postgresql', 'mssql']),
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  username: z.string().max(255).default(''),
  /** Password, or a private key in OpenSSH/PEM form for SSH key login. */
  password: z.string().max(16384).optional(),
  private_key: z.string().max(16384).optional(),
  database: z.string().max(255).optional(),
});
export type ConnectivityTarget = z.infer<typeof ConnectivityTargetSchema>;

/** An SSH account a key task logs in to. */
export const SshLoginSchema = z.object({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  username: z.string().min(1).max(255),
});
export type SshLogin = z.infer<typeof SshLoginSchema>;

/** A private key in OpenSSH form (the resource's own key pair, travelling for one task). */
const PrivateKeyText = z.string().min(1).max(16384);
/** One authorized_keys line: `ssh-ed25519 <base64> <comment>`, the server's own key. */
export const AuthorizedKeyLineSchema = z
  .string()
  .max(1024)
  .regex(/^ssh-ed25519 [A-Za-z0-9+/]+={0,2} [A-Za-z0-9@._-]{1,64}$/);

export const TaskSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('connectivity_test'), target: ConnectivityTargetSchema }),
  z.object({
    kind: z.literal('scan'),
    /** IPv4 CIDR, prefix 24-32. */
    cidr: z.string(),
    port: z.number().int().min(0).max(65535),
  }),
  z.object({
    /**
     * Log in once with the account's password, add `public_key` to its
     * ~/.ssh/authorized_keys (no duplicate line), then prove login with `private_key`.
     * The password travels for this one task and is kept nowhere.
     */
    kind: z.literal('key_upload'),
    target: SshLoginSchema.extend({
      password: z.string().max(1024),
      private_key: PrivateKeyText,
    }),
    public_key: AuthorizedKeyLineSchema,
  }),
  z.object({
    /** Log in with the resource's private key. */
    kind: z.literal('key_test'),
    target: SshLoginSchema.extend({ private_key: PrivateKeyText }),
  }),
]);
export type Task = z.infer<typeof TaskSchema>;

export const TaskResultSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('connectivity_test'),
    ok: z.boolean(),
    reason: z.string().default(''),
  }),
  z.object({
    kind: z.literal('scan'),
    open: z.array(z.object({ ip: z.string(), port: z.number().int() })),
  }),
  z.object({
    kind: z.literal('key_upload'),
    ok: z.boolean(),
    /** '' when ok; otherwise a fixed word (auth_failed, upload_failed, key_refused, …). */
    reason: z.string().max(64).default(''),
  }),
  z.object({
    kind: z.literal('key_test'),
    ok: z.boolean(),
    reason: z.string().max(64).default(''),
  }),
]);
export type TaskResult = z.infer<typeof TaskResultSchema>;

const base = { v: z.number().int() };

/** Gateway → server. */
export const GatewayMessageSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('hello'),
    version: z.string().max(32),
    host: z.string().max(255),
    ports: GatewayPortsSchema,
    features: z.array(z.string().max(32)).max(64),
  }),
  z.object({ ...base, type: z.literal('heartbeat') }),
  z.object({
    ...base,
    type: z.literal('task_result'),
    task_id: z.string().max(64),
    result: TaskResultSchema.optional(),
    /** Set when the task could not run at all. */
    error: z.string().max(1000).optional(),
  }),
]);
export type GatewayMessage = z.infer<typeof GatewayMessageSchema>;

/** Server → gateway. */
export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('welcome'),
    cluster_id: z.number().int(),
    heartbeat_seconds: z.number().int(),
    latest_version: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('update_required'),
    min_protocol: z.number().int(),
    latest_version: z.string(),
  }),
  z.object({ ...base, type: z.literal('task'), task_id: z.string().max(64), task: TaskSchema }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
