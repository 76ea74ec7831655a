import { lazy } from 'react';
import { FileTextOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';

export const ACTION_LOG_PATH = '/operation/log';

/** The action log (spec 1 §2.9): Operation group, roles 0, 1, 2 and 4 (Operation Log). */
export const actionLogFeature: Feature = {
  name: 'action-log',
  routes: [
    {
      path: ACTION_LOG_PATH,
      layout: 'shell',
      access: 'operationLog',
      page: lazy(() => import('./ActionLogPage').then((m) => ({ default: m.ActionLogPage }))),
    },
  ],
  menu: [
    {
      group: 'operation',
      key: 'operationLog',
      path: ACTION_LOG_PATH,
      labelKey: 'action-log.menu.label',
      icon: FileTextOutlined,
      order: 3,
    },
  ],
};
