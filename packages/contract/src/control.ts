/**
 * The control channel between a gateway (agent) and the server: a WebSocket the gateway dials
 * at `/api/agent/control`, authenticated by its cluster key in the `authorization: Bearer`
 * header. Every message is a JSON object with the protocol version `v` and a `type`; a message
 * this side cannot read is refused, never guessed at. A gateway whose protocol is older than
 * {@link CONTROL_PROTOCOL_MIN} is told to update and disconnected.
 */
import { z } from 'zod';
// code.ts imports workgroup.ts, which needs the gateway ports: read from a leaf module
// (gateway-ports.ts), and ResolvedCodeSchema read lazily (z.lazy below).
import { ResolvedCodeSchema } from './code';
import { TLS_CA_MAX } from './constants';
import { GatewayPortsSchema } from './gateway-ports';
import {
  ALARM_ACTIONS,
  ALARM_COMMAND_MAX,
  CommandPolicySchema,
  FILE_NAME_MAX,
  FILE_OPS,
  FILE_WAYS,
  LogFilterConditionsSchema,
  SqlPolicySchema,
} from './security-mode';

/**
 * 2 adds the session messages (code resolution, one session's credential, session start, end
 * and cut), and later, additively, recording_chunk and recording_ack (a server that cannot read
 * a chunk drops it and the gateway keeps its spool until one can), and redeem_web_token for the
 * web terminal, and command_alarm, file_transfer and session_started's policy (security mode
 * and the file log) and log_filters (an older gateway ignores them and stores lines unfiltered). A version-1 gateway never sends them and still works for tasks, so the
 * minimum stays 1; the server offers SSH sessions only through gateways that report the `ssh`
 * feature.
 */
export const CONTROL_PROTOCOL = 2;
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
  /**
   * Checks a server's pinned SSH host key (credential, key task and connectivity test
   * `host_key`) before it sends a credential. A pinned server's credential goes only to a
   * gateway that says so: an older one would drop the pin unread.
   */
  'host_key_pin',
  /**
   * Honours a database credential's (and connectivity test's) `tls`: TLS required, and the
   * certificate verified when asked. Such a credential goes only to a gateway that says so: an
   * older one would drop `tls` unread and log in without TLS, or to an impostor.
   */
  'db_tls',
] as const;
export type GatewayFeature = (typeof GATEWAY_FEATURES)[number];

// In its own module: workgroup.ts needs it, and this module imports code.ts, which imports
// workgroup.ts; a leaf module keeps that cycle from reading it before it exists.
export { GatewayPortsSchema, type GatewayPorts } from './gateway-ports';

/**
 * An SSH host key's fingerprint as OpenSSH prints it (`ssh-keygen -lf`): SHA256 and the
 * digest in unpadded base64.
 */
export const HostKeyFingerprintSchema = z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/);

/**
 * The host key pinned for a server (its first session's): a target showing another is refused
 * before any credential is sent (HostKeyChanged). Absent: none pinned yet.
 */
const PinnedHostKey = { host_key: HostKeyFingerprintSchema.optional() };

/**
 * How the gateway's own connection to a database uses TLS, when more than "TLS if the database
 * offers it, its certificate unchecked" (absent). `require`: a database that does not offer
 * TLS is refused before the credential is sent. `verify`: as require, and the certificate must
 * chain to a root in `ca` (PEM; absent: the public CAs Node.js ships with, not the machine's
 * own store) and name the host the gateway dials.
 */
export const DbTlsSchema = z.object({
  mode: z.enum(['require', 'verify']),
  ca: z.string().min(1).max(TLS_CA_MAX).optional(),
});
export type DbTls = z.infer<typeof DbTlsSchema>;
const DatabaseTls = { tls: DbTlsSchema.optional() };

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
  ...PinnedHostKey,
  ...DatabaseTls,
});
export type ConnectivityTarget = z.infer<typeof ConnectivityTargetSchema>;

/** An SSH account a key task logs in to. */
export const SshLoginSchema = z.object({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  username: z.string().min(1).max(255),
  ...PinnedHostKey,
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
/** Correlates a gateway's request with the server's answer on the same socket. */
const RequestId = z.string().min(1).max(64);

/**
 * Why the server refused a session step: a catalogue code (errors.ts) and its English text,
 * which the gateway shows the client (an SSH banner) and logs.
 */
export const SessionRefusalSchema = z.object({
  code: z.string().max(64),
  message: z.string().max(500),
});
export type SessionRefusal = z.infer<typeof SessionRefusalSchema>;

/**
 * The target credential for one session, never stored by the gateway. Exactly one of
 * password and private_key is set.
 */
export const SessionCredentialSchema = z
  .object({
    host: z.string().min(1).max(255),
    port: z.number().int().min(1).max(65535),
    username: z.string().min(1).max(255),
    password: z.string().max(1024).optional(),
    private_key: PrivateKeyText.optional(),
    /**
     * A "team account password" login user (auth_type 2): nothing is stored, the member types
     * the login user's password at connect and the gateway tries it on the target.
     */
    ask_password: z.literal(true).optional(),
    ...PinnedHostKey,
    ...DatabaseTls,
  })
  .refine(
    (c) => [c.password, c.private_key, c.ask_password].filter((v) => v !== undefined).length === 1,
    { message: 'one of password, private_key and ask_password' },
  );
export type SessionCredential = z.infer<typeof SessionCredentialSchema>;

/**
 * Largest recording chunk on the control channel: 256 KiB of file, base64 (the server's frame
 * limit is 1 MiB, and one chunk must not hold up the channel's other messages for long).
 */
export const RECORDING_CHUNK_BYTES = 256 * 1024;
const RECORDING_CHUNK_BASE64_MAX = Math.ceil(RECORDING_CHUNK_BYTES / 3) * 4;

/**
 * Every protocol the gateway carries sessions for (the action log's `way`), by the spec's names
 * where it has one (spec 1 §3): `terminal` is a session through the SSH proxy, `wetty` the
 * console's web terminal; `sftp` and `scp` are the file log's entries.
 */
export const SESSION_WAYS = [
  'terminal',
  'sftp',
  'scp',
  'webssh',
  'wetty',
  'mysql',
  'postgresql',
] as const;
/** The ways of database sessions: their log is a statement log, not a terminal recording. */
export const DATABASE_WAYS = ['mysql', 'postgresql'] as const;

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
  z.object({
    /**
     * May this client use this code here? `password` for a temporary authorization,
     * `public_key` (`type base64`, already proven by the client's signature) for key login:
     * the server then checks the key is one of the code owner's personal keys.
     */
    ...base,
    type: z.literal('resolve_code'),
    request_id: RequestId,
    code: z.string().max(64),
    client_ip: z.string().max(64),
    password: z.string().max(1024).optional(),
    public_key: z.string().max(16384).optional(),
    /**
     * A database proxy's question: the credential of the resource's one connect account comes
     * in the same answer (as session_credential would give it, spending the grant's one
     * fetch), saving a round trip on every new connection. A resource of another kind is
     * refused (WrongResourceKind).
     */
    credential_kind: z.enum(['mysql', 'postgresql']).optional(),
    /**
     * A database proxy that already holds a connection to the target for this login (a kept
     * PostgreSQL connection): the session starts in the same answer (`started`, as
     * session_start would answer, spending the grant), saving the second round trip of every
     * such connection. Only with credential_kind of the same kind. A server that does not know
     * it answers without `started`, and the gateway then sends session_start as before.
     */
    start_way: z.enum(['mysql', 'postgresql']).optional(),
  }),
  z.object({
    /**
     * The web terminal's token (web-terminal.ts), sent by the browser to this gateway: the
     * server spends it (once) and answers code_resolved, exactly as for resolve_code.
     */
    ...base,
    type: z.literal('redeem_web_token'),
    request_id: RequestId,
    token: z.string().max(128),
    client_ip: z.string().max(64),
  }),
  z.object({
    /**
     * The credential of one login user for the session a grant (from resolve_code) opens.
     * `kind`: what the asking proxy carries (a gateway before the database proxies asks only
     * for servers); the server refuses a resource of another kind (WrongResourceKind).
     */
    ...base,
    type: z.literal('session_credential'),
    request_id: RequestId,
    grant: z.string().max(128),
    username: z.string().max(255),
    kind: z.enum(['linux', 'mysql', 'postgresql']).default('linux'),
  }),
  z.object({
    /**
     * The target accepted the login: the server records an online connection. A database way
     * must match the resource's kind (an SSH code does not open a MySQL session).
     */
    ...base,
    type: z.literal('session_start'),
    request_id: RequestId,
    grant: z.string().max(128),
    client_ip: z.string().max(64),
    // `ssh`: a terminal, as a gateway older than the spec's name says it.
    way: z
      .enum([...SESSION_WAYS, 'ssh'])
      .transform((way) => (way === 'ssh' ? ('terminal' as const) : way)),
    /**
     * The host key the target sshd showed (terminal and wetty ways): the server pins it when
     * the resource has none pinned (trust on first use).
     */
    host_key: HostKeyFingerprintSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('session_end'),
    connection_id: z.number().int(),
  }),
  z.object({
    /**
     * Security mode acted on a command line of this session: `intercept` (not run) or `notice`
     * (run, with an alarm). `rule` is the intercept or notice command that matched. The server
     * writes an alarm log row and notifies the cluster's notice accounts.
     */
    ...base,
    type: z.literal('command_alarm'),
    connection_id: z.number().int().positive(),
    action: z.enum(ALARM_ACTIONS),
    command: z.string().max(ALARM_COMMAND_MAX),
    rule: z.string().max(255),
  }),
  z.object({
    /** A file this session opened for reading (download) or writing (upload): the file log. */
    ...base,
    type: z.literal('file_transfer'),
    connection_id: z.number().int().positive(),
    way: z.enum(FILE_WAYS),
    op: z.enum(FILE_OPS),
    filename: z.string().max(FILE_NAME_MAX),
  }),
  z.object({
    /**
     * Bytes `[offset, offset + len)` of a session's asciicast v2 recording (recording.ts), as
     * spooled on the gateway. The server keeps them idempotently by offset and answers
     * recording_ack with how many bytes it holds; the gateway sends the next chunk from there.
     */
    ...base,
    type: z.literal('recording_chunk'),
    connection_id: z.number().int().positive(),
    offset: z.number().int().min(0),
    data: z
      .string()
      .max(RECORDING_CHUNK_BASE64_MAX)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/),
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
    /**
     * The server reads recording chunks as binary frames (recording-frame.ts); without it the
     * gateway sends them as recording_chunk messages.
     */
    binary_chunks: z.boolean().optional(),
    /** The server reads session_start's way `terminal`; without it the gateway says `ssh`. */
    terminal_way: z.boolean().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('update_required'),
    min_protocol: z.number().int(),
    latest_version: z.string(),
  }),
  z.object({ ...base, type: z.literal('task'), task_id: z.string().max(64), task: TaskSchema }),
  z.object({
    /** The answer to resolve_code; `grant` is single-use and short-lived. */
    ...base,
    type: z.literal('code_resolved'),
    request_id: RequestId,
    resolved: z.lazy(() => ResolvedCodeSchema).optional(),
    grant: z.string().max(128).optional(),
    /** The connect account's credential, when resolve_code asked with credential_kind. */
    credential: SessionCredentialSchema.optional(),
    /** The session, when resolve_code asked with start_way: as session_started gives it. */
    started: z
      .object({
        connection_id: z.number().int(),
        log_filters: LogFilterConditionsSchema.optional(),
        sql_policy: SqlPolicySchema.optional(),
      })
      .optional(),
    refusal: SessionRefusalSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('session_credential_result'),
    request_id: RequestId,
    credential: SessionCredentialSchema.optional(),
    refusal: SessionRefusalSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('session_started'),
    request_id: RequestId,
    connection_id: z.number().int().optional(),
    /** Set when the session runs in security mode: the commands the gateway acts on. */
    policy: CommandPolicySchema.optional(),
    /**
     * The cluster's log filter conditions, read when the session starts (a change applies
     * to the next session); absent when it has none. In or out of security mode.
     */
    log_filters: LogFilterConditionsSchema.optional(),
    /** A database session's rules (mysql and postgresql ways); absent when it has none. */
    sql_policy: SqlPolicySchema.optional(),
    refusal: SessionRefusalSchema.optional(),
  }),
  z.object({
    /** End this session now (an administrator cut it, or its code or member was revoked). */
    ...base,
    type: z.literal('session_cut'),
    connection_id: z.number().int(),
    /** Why, in English, for the member's client (older gateways read only this). */
    reason: z.string().max(500).default(''),
    /** Why, as a catalogue code (errors.ts), for clients that translate (the web terminal). */
    reason_code: z.string().max(100).optional(),
  }),
  z.object({
    /**
     * The server holds `size` bytes of this recording. `refused`: the server will never take
     * it (not a session of this cluster); the gateway drops its spool.
     */
    ...base,
    type: z.literal('recording_ack'),
    connection_id: z.number().int(),
    size: z.number().int().min(0),
    refused: z.boolean().default(false),
  }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
