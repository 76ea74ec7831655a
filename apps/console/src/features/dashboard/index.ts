import { lazy } from 'react';
import { DashboardOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

/** The administrators' landing page (spec 1 §2.5): Operation group, roles 1-4. */
export const dashboardFeature: Feature = {
  name: 'dashboard',
  routes: [
    {
      path: PATHS.dashboard,
      layout: 'shell',
      access: 'dashboard',
      page: lazy(() => import('./DashboardPage').then((m) => ({ default: m.DashboardPage }))),
    },
  ],
  menu: [
    {
      group: 'operation',
      key: 'dashboard',
      path: PATHS.dashboard,
      labelKey: 'dashboard.page.title',
      icon: DashboardOutlined,
      order: 1,
    },
  ],
};
