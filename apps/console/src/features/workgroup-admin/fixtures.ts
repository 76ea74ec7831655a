/** Test fixtures of the workgroup administration pages (replies shaped by the contract). */
import type { ProjectResource, Workgroup } from '@portcullis/contract';
import type { AccountWorkgroup, ResourceCandidate, WorkgroupMember } from './api';

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
    account_count: 0,
    group_count: 0,
    favourite: 0,
    my_role: null,
    can_manage: true,
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
    name: `host-${id}`,
    ip: '10.0.0.5',
    port: 22,
    os: 'linux',
    type: 'ecs',
    flavor: '2C4G',
    network_id: 3,
    network_name: 'Lab',
    resource: {
      status: 1,
      resource_type: 'LinuxServer',
      network_id: 3,
      extension: { username: ['root', 'deploy', 'backup'], login_username: ['root'] },
    },
    login_user: ['root'],
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

export function candidate(overrides: Partial<ResourceCandidate> = {}): ResourceCandidate {
  const id = overrides.id ?? 201;
  return {
    id,
    name: `cand-${id}`,
    ip: `10.0.1.${id % 250}`,
    os: 'linux',
    resource_type: 'LinuxServer',
    network_id: 3,
    network_name: 'Lab',
    shared: false,
    ...overrides,
  };
}

export function workgroupMember(overrides: Partial<WorkgroupMember> = {}): WorkgroupMember {
  const id = overrides.id ?? 2;
  return {
    id,
    name: `Member ${id}`,
    account: `m${id}@demo.local`,
    avatar: '',
    role: 0,
    create_time: 1_700_000_000,
    ...overrides,
  };
}

export function accountWorkgroup(overrides: Partial<AccountWorkgroup> = {}): AccountWorkgroup {
  const id = overrides.id ?? 5;
  return {
    id,
    name: `wg-${id}`,
    desc: '',
    network_id: -1,
    is_default: false,
    role: 0,
    groups: [],
    ...overrides,
  };
}
