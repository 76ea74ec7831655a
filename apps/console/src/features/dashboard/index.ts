import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

/**
 * The administrators' landing page. Its content (spec 1 §2.5) comes in a later issue; until
 * then it has a route (login lands here) but no menu entry.
 */
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
};
