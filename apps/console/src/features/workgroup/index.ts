import { lazy } from 'react';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

/**
 * The members' landing page, the workgroup list (spec 1 §2.6). Its content comes in a later
 * issue; until then it has a route (login lands here) but no menu entry.
 */
export const workgroupFeature: Feature = {
  name: 'workgroup',
  routes: [
    {
      path: PATHS.workgroup,
      layout: 'shell',
      access: 'operationWorkgroup',
      page: lazy(() => import('./WorkgroupPage').then((m) => ({ default: m.WorkgroupPage }))),
    },
  ],
};
