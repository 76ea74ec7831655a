import { lazy } from 'react';
import { FileSearchOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';

/**
 * System logs (spec 2 §2 System logs): in the System group, for every role but 3. Role 0 is in
 * System Log's row of the matrix but not in the System group's, so the route checks both.
 */
export const systemLogFeature: Feature = {
  name: 'system-log',
  routes: [
    {
      path: PATHS.systemLog,
      layout: 'shell',
      access: ['system', 'systemLog'],
      page: lazy(() => import('./SystemLogPage').then((m) => ({ default: m.SystemLogPage }))),
    },
  ],
  menu: [
    {
      group: 'system',
      key: 'systemLog',
      path: PATHS.systemLog,
      labelKey: 'system-log.menu.label',
      icon: FileSearchOutlined,
      order: 2,
    },
  ],
};
