/**
 * Table types for Kysely. Times are epoch seconds; booleans are 0/1 integers so one
 * migration set serves SQLite and PostgreSQL alike.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

export interface CompanyTable {
  id: Generated<number>;
  domain: string;
  /** Lower-cased domain, unique: team IDs compare without case. */
  domain_key: string;
  full_name: string;
  contact_name: string;
  contact_address: string;
  contact_phone: string;
  email: string;
  password_strength: number;
  company_mfa: number;
  reset_password: number;
  session_expire_time: number;
  ip_whitelist: string;
  admin_whitelist: string;
  sso_open: number;
  sso_login_url: string;
  created_at: number;
  domain_token: string;
  ee_work_space_id: string;
  ee_work_space_name: string;
  binding_admin_id: number | null;
}

export interface PlanTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  account_limit: number;
  network_limit: number;
  resource_limit: number;
  shared_resource_limit: number;
  shared_network_limit: number;
  log_back_days: number;
  start_time: number;
  expire_time: number | null;
  created_at: number;
}

export interface AccountTable {
  id: Generated<number>;
  company_id: number;
  account: string;
  name: string;
  password_hash: string | null;
  password_level: number;
  password_changed_at: number | null;
  password_set_by_admin: number;
  is_admin: number;
  is_owner: number;
  status: number;
  avatar: string;
  mobile: string;
  otp_enabled: number;
  otp_secret: string | null;
  otp_pending_secret: string | null;
  otp_last_step: number;
  last_login_time: number | null;
  last_login_ip: string;
  created_at: number;
  unique_id: string;
}

export interface SessionTable {
  id: string;
  account_id: number;
  company_id: number;
  stage: string;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface LoginFailureTable {
  id: Generated<number>;
  domain_key: string;
  username: string;
  ip: string;
  created_at: number;
}

export interface LoginLogTable {
  id: Generated<number>;
  company_id: number | null;
  account_id: number | null;
  account: string;
  admin: number | null;
  ip: string;
  success: number;
  reason: string;
  created_at: number;
}

export interface CaptchaTable {
  id: string;
  answer: string;
  expires_at: number;
}

export interface ResetTokenTable {
  token_hash: string;
  account_id: number;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface SmsCodeTable {
  id: Generated<number>;
  account_id: number;
  mobile: string;
  code_hash: string;
  attempts: number;
  expires_at: number;
  created_at: number;
}

export interface FileTable {
  uuid: string;
  company_id: number;
  account_id: number;
  kind: string;
  file_name: string;
  extension: string;
  file_size: number;
  created_at: number;
}

export interface AccountPubkeyTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  title: string;
  key_type: string;
  fingerprint: string;
  pubkey: string;
  create_time: number;
  last_time: number | null;
}

/** Live and past tunnel sessions; later issues add the session's details. */
export interface TunnelConnectionTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  created_at: number;
  ended_at: number | null;
  /** The code the session used and the resource it reached (migration 009). */
  tunnel_id: number | null;
  resource_id: number | null;
  /** 1 once a terminal recording of this session is stored (migration 010). */
  recording: Generated<number>;
  /**
   * terminal, wetty, sftp, scp, mysql, postgresql (contract SESSION_WAYS), and the client's
   * address, from session_start (migration 011).
   */
  way: Generated<string>;
  client_ip: Generated<string>;
  /**
   * File-log rows (migration 013): download or upload, the file name, and the session that
   * moved the file; '' and null on session rows.
   */
  op: Generated<string>;
  filename: Generated<string>;
  parent_id: number | null;
  /** The gateway connection (agent row) that started the session (migration 017). */
  agent_id: number | null;
  /**
   * 1 when the session ran in security mode, 0 when not, as it started (migration 018; null
   * for a row from before with no code).
   */
  safe_mode: number | null;
}

/**
 * A deleted member, resource, workgroup or code, named for the audit views (migration 019).
 * `kind` is account, resource, project or tunnel; a code's `name` is its masked text.
 */
export interface FormerIdentityTable {
  kind: FormerKind;
  id: number;
  company_id: number;
  name: string;
  /** A member's login. */
  account: Generated<string>;
  /** A resource's address and cluster. */
  ip_address: Generated<string>;
  network_id: number | null;
  /** A code's workgroup. */
  project_id: number | null;
  deleted_at: number;
}

export type FormerKind = 'account' | 'resource' | 'project' | 'tunnel';

/** A recording of one chunk so far, kept in the database (migration 016). */
export interface RecordingInlineTable {
  connection_id: number;
  company_id: number;
  data: Buffer;
}

export interface TeamGroupTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** Lower-cased name: group names are unique in a team without regard to case. */
  name_key: string;
  note: string;
  created_at: number;
}

export interface GroupMemberTable {
  group_id: number;
  account_id: number;
  created_at: number;
}

/** One row per administrative act (team, cluster, workgroup) or alarm; see features/events. */
export interface EventLogTable {
  id: Generated<number>;
  company_id: number;
  log_type: string;
  event: string;
  account_id: number | null;
  account: string;
  admin: number | null;
  user: string;
  group_name: string;
  net_name: string;
  resource_name: string;
  shared_company_name: string;
  project_name: string;
  project_account: string;
  con_ip: string;
  way: string;
  command: string;
  notice_accounts: string;
  created_at: number;
}

/** A team's SAML single sign-on configuration (features/sso); one row per team. */
export interface SsoConfigTable {
  company_id: number;
  is_open: number;
  is_account_password: number;
  sso_type: string;
  id_vendor: string;
  /** JSON array of lower-cased e-mail domains. */
  access_white_list: string;
  metadata_xml: string | null;
  metadata_file_name: string;
  idp_entity_id: string;
  idp_sso_url: string;
  /** JSON array of PEM certificates. */
  idp_certs: string;
  created_at: number;
  updated_at: number;
}

/** An outstanding AuthnRequest: its ID must come back as InResponseTo, once. */
export interface SsoRequestTable {
  id: string;
  company_id: number;
  /** SHA-256 of the browser-binding cookie set when the request was made. */
  browser_hash: string;
  created_at: number;
  expires_at: number;
}

/** Assertion IDs already consumed, kept until the assertion would have expired anyway. */
export interface SsoAssertionSeenTable {
  company_id: number;
  assertion_id: string;
  expires_at: number;
}

/** The single-use credential the ACS hands to the console; only its hash is stored. */
export interface SsoCredentialTable {
  token_hash: string;
  company_id: number;
  account_id: number;
  browser_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface NetworkTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** Lower-cased name: cluster names are unique in a team without regard to case. */
  name_key: string;
  /** SHA-256 of the cluster key, for the gateway's handshake. */
  key_hash: string;
  /** The key itself, sealed, so the install command can be shown again. */
  key_sealed: string;
  max_tunnel_expire_time: number;
  is_open_map: number;
  port_map_info: string;
  safe_mode: number;
  created_at: number;
  safe_mode_approver: number;
  safe_mode_notice: number;
}

/** One row per gateway connection; live while disconnected_at is null and it heartbeats. */
export interface AgentTable {
  id: Generated<number>;
  network_id: number;
  instance: string;
  version: string;
  host: string;
  ports: string;
  features: string;
  remote_ip: string;
  connected_at: number;
  last_seen_at: number;
  disconnected_at: number | null;
}

export interface TaskTable {
  id: string;
  company_id: number;
  network_id: number;
  kind: string;
  /** What the task is about (a resource id), when it is about one. */
  subject_id: number | null;
  status: string;
  result: string;
  created_at: number;
  finished_at: number | null;
}

export interface ResourceTable {
  id: Generated<number>;
  company_id: number;
  network_id: number;
  name: string;
  name_key: string;
  /** linux, win32, mysql, postgresql or mssql. */
  os: string;
  ip_address: string;
  port: number;
  instance_id: string;
  flavor: string;
  /** Database names joined by ';', or '*'. */
  databases: string;
  /** Databases: 1 SQL approval off, 2 on. */
  status: number;
  created_at: number;
  /** JSON lists of {op, table?}. */
  block_pattern: Generated<string>;
  notice_pattern: Generated<string>;
  notice_status: Generated<number>;
  /** A server's SSH host key fingerprint, pinned at its first session (migration 021). */
  host_key: string | null;
  /** Databases: how the gateway's connection uses TLS (contract DB_TLS_MODES; migration 022). */
  tls_mode: Generated<string>;
  /** Databases: CA certificates in PEM for tls_mode 'verify', '' for the public CAs Node.js ships with. */
  tls_ca: Generated<string>;
}

/** A server's login user, or a database's connect account; the secret is sealed. */
export interface ResourceLoginTable {
  id: Generated<number>;
  resource_id: number;
  username: string;
  auth_type: number;
  secret_sealed: string | null;
  test_result: string | null;
  position: number;
}

export interface NetworkShareTable {
  id: Generated<number>;
  network_id: number;
  /** The team the cluster is shared with. */
  company_id: number;
  created_at: number;
}

export interface LogFilterTable {
  id: Generated<number>;
  network_id: number;
  condition: string;
  created_at: number;
}

export interface InterceptCommandTable {
  id: Generated<number>;
  network_id: number;
  /** intercept (block) or notice (alarm). */
  kind: string;
  command: string;
  created_at: number;
}

/** Safe-mode approvers and notifiers of a cluster. */
export interface NetworkAccountTable {
  network_id: number;
  account_id: number;
  role: string;
}

/** Approvers and notifiers of a database. */
export interface ResourceAccountTable {
  resource_id: number;
  account_id: number;
  role: string;
}

export interface Database {
  company: CompanyTable;
  plan: PlanTable;
  account: AccountTable;
  session: SessionTable;
  login_failure: LoginFailureTable;
  login_log: LoginLogTable;
  captcha: CaptchaTable;
  reset_token: ResetTokenTable;
  sms_code: SmsCodeTable;
  file: FileTable;
  account_pubkey: AccountPubkeyTable;
  tunnel_connection: TunnelConnectionTable;
  former_identity: FormerIdentityTable;
  recording_inline: RecordingInlineTable;
  team_group: TeamGroupTable;
  group_member: GroupMemberTable;
  event_log: EventLogTable;
  network: NetworkTable;
  agent: AgentTable;
  task: TaskTable;
  resource: ResourceTable;
  resource_login: ResourceLoginTable;
  network_share: NetworkShareTable;
  log_filter: LogFilterTable;
  intercept_command: InterceptCommandTable;
  network_account: NetworkAccountTable;
  resource_account: ResourceAccountTable;
  sso_config: SsoConfigTable;
  sso_request: SsoRequestTable;
  sso_assertion_seen: SsoAssertionSeenTable;
  sso_credential: SsoCredentialTable;
  resource_keypair: ResourceKeypairTable;
  project: ProjectTable;
  project_member: ProjectMemberTable;
  project_group: ProjectGroupTable;
  project_resource: ProjectResourceTable;
  project_favourite: ProjectFavouriteTable;
  project_resource_default: ProjectResourceDefaultTable;
  tunnel: TunnelTable;
}

export type CompanyRow = Selectable<CompanyTable>;
export type AccountRow = Selectable<AccountTable>;
export type PlanRow = Selectable<PlanTable>;
export type SessionRow = Selectable<SessionTable>;
export type NewAccount = Insertable<AccountTable>;

/** A Linux server resource's own SSH key pair (key login set-up); the private key sealed. */
export interface ResourceKeypairTable {
  resource_id: number;
  /** One authorized_keys line: `ssh-ed25519 <base64> portcullis-resource-<id>`. */
  public_key: string;
  private_key_sealed: string;
  created_at: number;
}

/** A workgroup; a cluster's default workgroup carries its network_id (null otherwise). */
export interface ProjectTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** Lower-cased name: workgroup names are unique in a team without regard to case. */
  name_key: string;
  description: string;
  network_id: number | null;
  created_at: number;
}

/** A direct member of a workgroup; role 1 is the workgroup's administrator. */
export interface ProjectMemberTable {
  project_id: number;
  account_id: number;
  role: number;
  created_at: number;
}

export interface ProjectGroupTable {
  project_id: number;
  group_id: number;
  created_at: number;
}

/** A resource inside a workgroup. */
export interface ProjectResourceTable {
  id: Generated<number>;
  project_id: number;
  resource_id: number;
  /** JSON list of the login users the workgroup grants; null grants all of the resource's. */
  login_usernames: string | null;
  created_at: number;
}

export interface ProjectFavouriteTable {
  project_id: number;
  account_id: number;
  created_at: number;
}

/** A member's default login user for a server of a workgroup (the Config panel). */
export interface ProjectResourceDefaultTable {
  project_resource_id: number;
  account_id: number;
  default_username: string;
}

/** A connection code or temporary authorization (features/codes). */
export interface TunnelTable {
  id: Generated<number>;
  company_id: number;
  account_id: number;
  project_resource_id: number;
  /** SHA-256 of the code, for the gateway's look-up; unique across all teams. */
  code_hash: string;
  /** The code, sealed, so its owner can be shown it again. */
  code_sealed: string;
  /** normal or tmp_share. */
  type: string;
  allow_ip: string;
  /** enable, or disable once deleted. */
  status: string;
  safe_mode: number;
  /** Temporary authorization: the server login user it connects as. */
  tmp_username: string;
  /** Temporary authorization: argon2 hash of its one-time password. */
  tmp_passwd_hash: string | null;
  /** Temporary authorization: when its one session started. */
  used_at: number | null;
  created_at: number;
  expire_time: number;
}
