import type { CurrentAccount, Plan, Summary } from '@portcullis/contract';

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
