/**
 * Business constants and limits (spec 1 §9, spec 2 §9). Code reads limits from here,
 * never from literals scattered through the program.
 */
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 65535;
/**
 * The highest page number a list takes: with the largest page size the offset stays an exact
 * integer for JavaScript and within SQLite's 64-bit limit (a larger one made the query fail).
 */
export const PAGE_MAX = 1_000_000_000;
export const PAGE_SIZE_ACTION_LOG = 25;
export const PAGE_SIZE_CLUSTER_LIST = 20;
export const PAGE_SIZE_PROJECT_RESOURCES = 50;
export const PAGER_THRESHOLD = 10;
export const PAGER_THRESHOLD_WORKGROUP_LIST = 9;
export const INFINITE_SCROLL_DISTANCE = 10;

export const REQUEST_TIMEOUT_MS = 60_000;
export const STATISTICS_TIMEOUT_MS = 8_000;

export const SHADOW_LIFETIME_SECONDS = 1800;
export const SHADOW_MAX = 5;

export const POLL_DB_REPORT_MS = 3000;
export const POLL_ARCHIVE_RESTORE_MS = 3000;
export const POLL_CONNECTION_TEST_MS = 3000;
export const POLL_KEY_UPLOAD_MS = 1000;
export const POLL_KEY_TEST_MS = 1000;
export const POLL_SCAN_MS = 3000;
export const POLL_ECS_STATUS_MS = 3000;
export const POLL_ASSISTANT_MS = 1000;
export const POLL_ASSISTANT_TRIES = 60;
export const PANEL_SWAP_DELAY_MS = 300;

export const DOCUMENT_MAX_BYTES = 10_485_760;
export const AVATAR_MAX_BYTES = 1_048_576;
export const AVATAR_EXTENSIONS = ['png', 'gif', 'jpeg', 'jpg'] as const;
export const SSO_METADATA_MAX_BYTES = 5 * 1_048_576;

export const NAME_MAX = 20;
export const SSH_KEY_NAME_MAX = 20;
export const MEMBER_NAME_MIN = 2;
export const MEMBER_NAME_MAX = 16;
export const GROUP_NAME_MIN = 2;
export const GROUP_NAME_MAX = 20;
export const GROUP_NOTE_MAX = 140;
export const WORKGROUP_NAME_MIN = 2;
export const WORKGROUP_NAME_MAX = 255;
export const WORKGROUP_DESC_MAX = 140;
export const CLUSTER_NAME_MAX = 50;
export const TEAM_ID_MIN = 2;
export const TEAM_ID_MAX = 32;

export const MFA_CODE_LENGTH = 6;
export const MFA_STEP_SECONDS = 30;
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 300;
export const CAPTCHA_TTL_SECONDS = 300;
export const RESET_LINK_TTL_SECONDS = 86_400;

export const PASSWORD_MIN_LEVEL1 = 6;
export const PASSWORD_MIN_LEVEL2 = 8;
export const PASSWORD_MAX = 128;
export const FORCED_PASSWORD_CHANGE_DAYS = 90;
export const LOCKOUT_ATTEMPTS = 10;
export const LOCKOUT_SECONDS = 3600;

export const PLAN_EXPIRY_WARN_DAYS = 30;
export const QUOTA_REMINDER_SILENCE_DAYS = 7;
export const TRIAL_PLAN_DAYS = 30;

export const DASHBOARD_TOP = 10;
export const STATS_WINDOW_DAYS = [7, 30, 90] as const;

export const SESSION_HOLD_MIN_MINUTES = 30;
export const SESSION_HOLD_MAX_MINUTES = 480;
export const SESSION_HOLD_DEFAULT_MINUTES = 30;

export const CLUSTER_MAX_RESOURCES = 1000;
export const WORKGROUP_MAX_RESOURCES = 1000;
export const TUNNEL_MIN_SECONDS = 1800;
export const TUNNEL_MAX_SECONDS = 31_536_000;
export const TUNNEL_DEFAULT_SECONDS = 1800;
export const TMP_AUTH_PRESETS_MINUTES = [30, 60, 120] as const;
export const LOG_END_PADDING_SECONDS = 86_400;
export const LOG_PRESET_DAYS = [1, 7, 30] as const;
export const SCAN_PREFIX_MIN = 24;
export const SCAN_PREFIX_MAX = 32;
export const SUBSCRIPTION_MAX_LENGTH = 12;

export const DEFAULT_PORTS = {
  ssh: 22,
  rdp: 3389,
  mysql: 3306,
  postgresql: 5432,
  mssql: 1433,
} as const;

export const AGENT_DEFAULT_PORTS = {
  ssh: 9998,
  webSsh: 8889,
  mysql: 9696,
  mssql: 9433,
  postgresql: 9432,
  rdp: 9389,
  webRdp: 8389,
  guacd: 4822,
} as const;

export const AGENT_VERSIONS = {
  windowsWebConnect: '2.4.0',
  rdpMonitor: '2.4.2',
  newConnectFlow: '3.0.0',
} as const;

export const CONNECTION_WAYS = [
  'terminal',
  'wetty',
  'rdp',
  'rds',
  'mysql',
  'mssql',
  'postgresql',
] as const;
export type ConnectionWay = (typeof CONNECTION_WAYS)[number];

export const PLAN_NAMES = ['Enterprise', 'Ultimate', 'Basic', 'Premium', 'Trial'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const LANGUAGES = ['en_US', 'zh_CN'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CLOUD_PLATFORMS = [
  'aliyun',
  'aliyun_overseas',
  'huaweiyun',
  'huaweiyun_overseas',
  'aws',
  'aws_overseas',
  'huoshanyun',
] as const;

/** Mainland mobile pattern (spec 1 §5): 1, then 3, 4, 5, 7 or 8, then 9 digits. */
export const MOBILE_PATTERN = /^1[34578]\d{9}$/;
/** Team ID: 2-32 letters or digits. */
export const TEAM_ID_PATTERN = /^[A-Za-z0-9]{2,32}$/;
export const MFA_CODE_PATTERN = /^\d{6}$/;
/**
 * The most CA certificate text a database resource keeps for TLS verification (PEM): room for
 * a cloud provider's whole bundle of regional roots (Amazon RDS's is about 160 KiB).
 */
export const TLS_CA_MAX = 256 * 1024;
