/** Replies of the workgroup and code routes for this feature's tests, shaped by the contract. */
import type { Code, ProjectResource, Workgroup } from '@portcullis/contract';

export function workgroup(overrides: Partial<Workgroup> = {}): Workgroup {
  const id = overrides.id ?? 5;
  const name = overrides.name ?? `wg-${id}`;
  return {
    id,
    name,
    project_name: name,
    desc: '',
    network_id: -1,
    is_default: false,
    resource_count: 0,
    account_count: 1,
    group_count: 0,
    favourite: 0,
    my_role: 0,
    can_manage: false,
    create_time: 1_700_000_000,
    ...overrides,
  };
}

export function projectResource(overrides: Partial<ProjectResource> = {}): ProjectResource {
  const id = overrides.id ?? 11;
  return {
    id,
    project_resource_id: id,
    project_id: 5,
    resource_id: 100 + id,
    name: `server-${id}`,
    ip: '10.0.0.11',
    port: 22,
    os: 'linux',
    type: 'ecs',
    flavor: '',
    network_id: 3,
    network_name: 'Lab',
    resource: {
      status: 1,
      resource_type: 'ecs',
      network_id: 3,
      extension: { username: ['root', 'deploy'], login_username: ['root', 'deploy'] },
    },
    login_user: ['root', 'deploy'],
    db_name: [],
    default_username: '',
    max_tunnel_expire_time: 0,
    safe: { network_safe_mode: 0, safe_mode_approver: 0 },
    agent: null,
    agent_status: 1,
    agent_version: '3.1.0',
    code: '',
    online_connections: 0,
    logs: 0,
    create_time: 1_700_000_000,
    ...overrides,
  };
}

export function code(overrides: Partial<Code> = {}): Code {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: 1,
    code: 'abcdefghijklmnopqrst',
    masked: false,
    type: 'normal',
    account: { id: 1, name: 'Ada', avatar: '' },
    allow_ip: '',
    status: 'enable',
    create_time: now - 600,
    expire_time: now + 3600,
    expired: false,
    safe_mode: 0,
    project_id: 5,
    project_resource_id: 11,
    resource: { id: 111, name: 'server-11', ip: '10.0.0.11', os: 'linux' },
    tmp_username: '',
    used: false,
    agent: null,
    connect: null,
    ...overrides,
  };
}
