import type {
  OnlineConnection,
  CurrentAccount,
  Group,
  Member,
  Plan,
  Summary,
  TeamSettings,
} from '@portcullis/contract';

const DAY = 86_400;

export function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    name: 'Basic',
    account_limit: 10,
    network_limit: 2,
    resource_limit: 50,
    log_back_days: 30,
    expire: Math.floor(Date.now() / 1000) + 200 * DAY,
    ...overrides,
  };
}

export function account(overrides: Partial<CurrentAccount> = {}): CurrentAccount {
  return {
    id: 1,
    name: 'Ada',
    account: 'ada@demo.local',
    is_admin: 1,
    avatar: '',
    mobile: '',
    otp_enabled: false,
    company_mfa: false,
    op: '',
    current_plan: plan(),
    password_strength: { level: 1, password_ok: true },
    company: { id: 1, domain: 'demo', full_name: 'Demo Ltd' },
    last_login_time: 1_700_000_000,
    last_login_ip: '127.0.0.1',
    ...overrides,
  };
}

export function summary(overrides: Partial<Summary> = {}): Summary {
  return {
    accounts: 1,
    networks: 1,
    resources: 0,
    shared_resources: 0,
    projects: 1,
    current_plan: plan(),
    expire: null,
    ...overrides,
  };
}

export const DAY_SECONDS = DAY;

export function member(overrides: Partial<Member> = {}): Member {
  const id = overrides.id ?? 2;
  return {
    id,
    name: `Member ${id}`,
    account: `m${id}@demo.local`,
    avatar: '',
    mobile: '',
    is_admin: 0,
    status: false,
    unique_id: '',
    otp_enabled: false,
    is_owner: false,
    create_time: 1_700_000_000,
    last_login_time: null,
    ...overrides,
  };
}

export function group(overrides: Partial<Group> = {}): Group {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `group-${id}`,
    note: '',
    member_count: 0,
    create_time: 1_700_000_000,
    ...overrides,
  };
}

export function teamSettings(overrides: Partial<TeamSettings> = {}): TeamSettings {
  return {
    full_name: 'Demo Ltd',
    contact_name: 'Ada',
    contact_phone: '13800000000',
    contact_address: '1 Main Street',
    ip_whitelist: '',
    admin_whitelist: '',
    session_expire_time: 30,
    company_mfa: false,
    reset_password: false,
    password_strength: 1,
    binding_admin: { id: 1, account: 'ada@demo.local' },
    domain_token: 'tok-abc',
    ee_work_space_id: '',
    ee_work_space_name: '',
    ...overrides,
  };
}

/** A paged reply (objects / num_results / total_pages / page) of `rows` for `page`. */
export function paged<T>(rows: T[], page = 1, size = 10) {
  return {
    objects: rows.slice((page - 1) * size, page * size),
    num_results: rows.length,
    total_pages: Math.ceil(rows.length / size),
    page,
  };
}

/** The calls every shell page makes (account, summary, banner, online count). */
export function shellReplies(me: CurrentAccount = account()): Record<string, unknown> {
  return {
    'GET /api/current_account': me,
    'GET /api/v1/summary': summary(),
    'GET /api/v2/utils/notification_banner/csos': null,
    'GET /api/v1/tunnel_connection/count': { count: 0 },
  };
}

/** An online session of `name` on web (10.0.0.11) in workgroup Ops, without security mode. */
export function onlineConnection(
  id: number,
  name: string,
  overrides: Partial<OnlineConnection> = {},
): OnlineConnection {
  return {
    id,
    connection_id: id,
    account: { id: id + 100, name, account: `${name}@demo.local` },
    project_id: 5,
    project_name: 'Ops',
    project_resource_id: 11,
    resource_id: 111,
    resource_name: 'web',
    resource_ip_address: '10.0.0.11',
    network_id: 3,
    way: 'terminal',
    client_ip_address: '192.0.2.7',
    safe_mode: 0,
    create_time: 1_700_000_000,
    duration: 3725,
    tunnel_code: 'abcd****yz',
    host: 'gw.example.com',
    agent_version: '0.1.0',
    guacamole: 0,
    webrdp_port: 8888,
    ...overrides,
  };
}
