import { describe, expect, it } from 'vitest';
import {
  ALL_ROLES,
  MENU_VISIBILITY,
  canSeeMenu,
  isAnyAdmin,
  isRole,
  landingPath,
  Role,
  type MenuKey,
} from './roles';

describe('roles and menus (spec 1 §6, spec 2 §6)', () => {
  it('codes the five roles 0-4', () => {
    expect(Role).toEqual({ Ordinary: 0, Admin: 1, AuditAdmin: 2, OptAdmin: 3, SafeAdmin: 4 });
    expect(ALL_ROLES).toEqual([0, 1, 2, 3, 4]);
    for (const v of [0, 4]) expect(isRole(v)).toBe(true);
    for (const v of [-1, 5, 1.5, '1', null, true]) expect(isRole(v)).toBe(false);
  });

  it('shows the menus exactly as the table of spec 2 §6', () => {
    const table: Partial<Record<MenuKey, number[]>> = {
      dashboard: [1, 2, 3, 4],
      operationWorkgroup: [0, 1],
      operationLog: [0, 1, 2, 4],
      application: [0, 1],
      configuration: [1, 3],
      workgroupManage: [1, 3],
      clusterManage: [1, 3],
      teamManage: [1],
      system: [1, 2, 3, 4],
      systemLog: [0, 1, 2, 4],
      personal: [0, 1, 2, 3, 4],
    };
    for (const [key, roles] of Object.entries(table)) {
      expect([...MENU_VISIBILITY[key as MenuKey]].sort(), key).toEqual(roles);
      for (const role of ALL_ROLES)
        expect(canSeeMenu(role, key as MenuKey)).toBe(roles.includes(role));
    }
    // Entries the table does not list sit inside the System group and see no more than it.
    for (const key of Object.keys(MENU_VISIBILITY).filter((k) => !(k in table)) as MenuKey[]) {
      expect(key).toMatch(/^system/);
      for (const role of MENU_VISIBILITY[key]) expect(MENU_VISIBILITY.system).toContain(role);
    }
  });

  it('lands administrators of any kind on the dashboard and members on their workgroups', () => {
    expect(landingPath(0)).toBe('/operation/workgroup');
    for (const role of [1, 2, 3, 4] as const) {
      expect(landingPath(role)).toBe('/operation/dashboard');
      expect(isAnyAdmin(role)).toBe(true);
    }
    expect(isAnyAdmin(0)).toBe(false);
  });
});
