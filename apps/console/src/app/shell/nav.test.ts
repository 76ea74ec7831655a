import { describe, expect, it } from 'vitest';
import { lazy } from 'react';
import { ALL_ROLES, canSeeMenu, type Role } from '@portcullis/contract';
import type { Feature } from '../../shared/feature';
import { FEATURES } from '../features';
import { buildNav, selectedNavPath } from './nav';

const Icon = () => null;
const page = lazy(async () => ({ default: () => null }));

// Features as later issues will add them, to check the group rules.
const LATER: Feature[] = [
  {
    name: 'log',
    routes: [{ path: '/operation/log', layout: 'shell', page, access: 'operationLog' }],
    menu: [
      {
        group: 'operation',
        key: 'operationLog',
        path: '/operation/log',
        labelKey: 'x',
        icon: Icon,
        order: 3,
      },
    ],
  },
];

function paths(role: Role, features: readonly Feature[] = FEATURES): string[] {
  return buildNav(features, role).flatMap((g) => g.items.map((i) => i.path));
}

describe('left navigation', () => {
  it('shows each role what is built and its role may see', () => {
    const personal = ['/personal/info', '/personal/security', '/personal/sshkey'];
    // Operation WorkGroup: roles 0 and 1; Operation Log: 0, 1, 2 and 4.
    expect(paths(0)).toEqual(['/operation/workgroup', '/operation/log', ...personal]);
    expect(paths(1)).toEqual([
      '/operation/dashboard',
      '/operation/workgroup',
      '/operation/log',
      '/settings/workgroup',
      '/settings/cluster',
      '/settings/team',
      '/system/log',
      ...personal,
    ]);
    expect(paths(2)).toEqual([
      '/operation/dashboard',
      '/operation/log',
      '/system/log',
      ...personal,
    ]);
    // Opt admin: WorkGroup and Cluster Manage, but neither Team Manage nor System Log.
    expect(paths(3)).toEqual([
      '/operation/dashboard',
      '/settings/workgroup',
      '/settings/cluster',
      ...personal,
    ]);
    expect(paths(4)).toEqual([
      '/operation/dashboard',
      '/operation/log',
      '/system/log',
      ...personal,
    ]);
    for (const role of ALL_ROLES) expect(paths(role)).toEqual(expect.arrayContaining(personal));
  });

  it('puts the dashboard first for the administrators of every kind, never for members', () => {
    for (const role of [1, 2, 3, 4] as const) expect(paths(role)[0]).toBe('/operation/dashboard');
    expect(paths(0)).not.toContain('/operation/dashboard');
  });

  it('follows the role matrix for later entries', () => {
    const features = [...FEATURES, ...LATER];
    // Operation Log: 0, 1, 2, 4.
    expect(paths(3, features)).not.toContain('/operation/log');
    expect(paths(2, features)).toContain('/operation/log');
    // Configuration group: 1 and 3; Team Manage only 1.
    expect(paths(1, features)).toEqual(
      expect.arrayContaining(['/settings/team', '/settings/cluster']),
    );
    expect(paths(3, features)).toContain('/settings/cluster');
    expect(paths(3, features)).not.toContain('/settings/team');
    expect(paths(0, features)).not.toContain('/settings/cluster');
    // System Log is 'all except 3', but role 0 cannot see the System group around it.
    expect(canSeeMenu(0, 'systemLog')).toBe(true);
    expect(paths(0, features)).not.toContain('/system/log');
    expect(paths(4, features)).toContain('/system/log');
    expect(paths(3, features)).not.toContain('/system/log');
  });

  it('orders groups and entries', () => {
    const groups = buildNav([...FEATURES, ...LATER], 1);
    expect(groups.map((g) => g.group)).toEqual([
      'operation',
      'configuration',
      'system',
      'personal',
    ]);
    expect(groups[1]?.items.map((i) => i.path)).toEqual([
      '/settings/workgroup',
      '/settings/cluster',
      '/settings/team',
    ]);
  });

  it('highlights the entry of the route, or of its parent', () => {
    const groups = buildNav(FEATURES, 0);
    expect(selectedNavPath(groups, '/personal/security')).toBe('/personal/security');
    expect(selectedNavPath(groups, '/personal/sshkey/extra')).toBe('/personal/sshkey');
    expect(selectedNavPath(groups, '/operation/workgroup')).toBe('/operation/workgroup');
    expect(selectedNavPath(groups, '/operation/workgroup/5')).toBe('/operation/workgroup');
  });

  it('highlights Team Manage on a group detail page', () => {
    const groups = buildNav(FEATURES, 1);
    expect(selectedNavPath(groups, '/settings/group/7')).toBe('/settings/team');
    expect(selectedNavPath(groups, '/settings/team')).toBe('/settings/team');
  });

  it("highlights WorkGroup Manage on a workgroup, Team Manage on a member's workgroups", () => {
    const groups = buildNav(FEATURES, 1);
    expect(selectedNavPath(groups, '/settings/workgroup/4')).toBe('/settings/workgroup');
    expect(selectedNavPath(groups, '/settings/account/9')).toBe('/settings/team');
    // The opt admin has no Team Manage: the page opens, with nothing highlighted.
    expect(selectedNavPath(buildNav(FEATURES, 3), '/settings/account/9')).toBeUndefined();
  });
});
