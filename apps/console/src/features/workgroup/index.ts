import { lazy } from 'react';
import { AppstoreOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { WORKGROUP_PATHS } from './paths';

/**
 * Operation WorkGroup (spec 1 §2.6, §2.7, §6: roles 0 and 1): the members' workgroup list, the
 * landing page of ordinary members, and a workgroup's detail with its servers, databases, the
 * default login user and connection codes, and the full-page web terminal.
 */
export const workgroupFeature: Feature = {
  name: 'workgroup',
  routes: [
    {
      path: WORKGROUP_PATHS.list,
      layout: 'shell',
      access: 'operationWorkgroup',
      page: lazy(() =>
        import('./WorkgroupListPage').then((m) => ({ default: m.WorkgroupListPage })),
      ),
    },
    {
      path: WORKGROUP_PATHS.detail,
      layout: 'shell',
      access: 'operationWorkgroup',
      page: lazy(() =>
        import('./WorkgroupDetailPage').then((m) => ({ default: m.WorkgroupDetailPage })),
      ),
    },
    {
      // Outside the shell so the terminal has the whole window; the token call itself needs a
      // full session and a code, and a lost session sends the tab to /login.
      path: WORKGROUP_PATHS.terminal,
      layout: 'standalone',
      page: lazy(() => import('./TerminalPage').then((m) => ({ default: m.TerminalPage }))),
    },
  ],
  menu: [
    {
      group: 'operation',
      key: 'operationWorkgroup',
      path: WORKGROUP_PATHS.list,
      labelKey: 'workgroup.menu.label',
      icon: AppstoreOutlined,
      order: 2,
    },
  ],
};
