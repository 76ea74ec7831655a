/**
 * Roles (spec 2 §6) and the console's menu-visibility matrix.
 *
 * The server's permission matrix lives on each route descriptor (`access`); this file
 * names the roles and the menu keys so the console and the server agree on both.
 */
export const Role = {
  Ordinary: 0,
  Admin: 1,
  AuditAdmin: 2,
  OptAdmin: 3,
  SafeAdmin: 4,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

export const ALL_ROLES: readonly Role[] = [0, 1, 2, 3, 4];

/** Role names as translation keys (`roles.<name>`). */
export const ROLE_NAMES: Record<Role, string> = {
  0: 'ordinary',
  1: 'admin',
  2: 'auditAdmin',
  3: 'optAdmin',
  4: 'safeAdmin',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'number' && (ALL_ROLES as readonly number[]).includes(value);
}

/** Administrators of any kind land on the dashboard; ordinary members on their workgroups. */
export function isAnyAdmin(role: Role): boolean {
  return role !== Role.Ordinary;
}

export type MenuKey =
  | 'dashboard'
  | 'operationWorkgroup'
  | 'operationLog'
  | 'application'
  | 'configuration'
  | 'workgroupManage'
  | 'clusterManage'
  | 'teamManage'
  | 'system'
  | 'systemStatistics'
  | 'systemLog'
  | 'personal';

/** Menu visibility by role, exactly as spec 1 §6 and spec 2 §6 give it. */
export const MENU_VISIBILITY: Record<MenuKey, readonly Role[]> = {
  dashboard: [1, 2, 3, 4],
  operationWorkgroup: [0, 1],
  operationLog: [0, 1, 2, 4],
  application: [0, 1],
  configuration: [1, 3],
  workgroupManage: [1, 3],
  clusterManage: [1, 3],
  teamManage: [1],
  system: [1, 2, 3, 4],
  systemStatistics: [1, 2, 3, 4],
  // 'all except 3' (spec 2 §6); role 0 still cannot see the System group around it.
  systemLog: [0, 1, 2, 4],
  personal: [0, 1, 2, 3, 4],
};

export function canSeeMenu(role: Role, key: MenuKey): boolean {
  return MENU_VISIBILITY[key].includes(role);
}

/** The page a role lands on after login (spec 1 §2.1). */
export function landingPath(role: Role): string {
  return isAnyAdmin(role) ? '/operation/dashboard' : '/operation/workgroup';
}
