import { lazy } from 'react';
import { TeamOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

/**
 * Team Manage (spec 2 §2, §6: administrators only): the team page with its tabs, and the group
 * detail page under it. The entry sits in the Configuration group, which is where the role
 * matrix places it (Configuration: roles 1 and 3; Team Manage: role 1 only), after the
 * workgroup and cluster entries later issues add.
 */
export const teamFeature: Feature = {
  name: 'team',
  routes: [
    {
      path: PATHS.team,
      layout: 'shell',
      access: 'teamManage',
      page: lazy(() => import('./TeamPage').then((m) => ({ default: m.TeamPage }))),
    },
    {
      path: PATHS.groupDetail,
      layout: 'shell',
      access: 'teamManage',
      page: lazy(() => import('./GroupDetailPage').then((m) => ({ default: m.GroupDetailPage }))),
    },
  ],
  menu: [
    {
      group: 'configuration',
      key: 'teamManage',
      path: PATHS.team,
      labelKey: 'team.menu.label',
      icon: TeamOutlined,
      order: 3,
      alsoHighlights: ['/settings/group', '/settings/account'],
    },
  ],
};
