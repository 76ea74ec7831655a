import { lazy } from 'react';
import { ApartmentOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { PATHS } from '../../shared/routes';
import { WORKGROUP_ADMIN_PATHS } from './paths';

/**
 * WorkGroup Manage (spec 2 §2, §6: Configuration, roles 1 and 3): the workgroup list, a
 * workgroup's detail with its servers, databases, members and groups, and a member's
 * workgroups page (reached from the team's member list and from a workgroup's members).
 */
export const workgroupAdminFeature: Feature = {
  name: 'workgroup-admin',
  routes: [
    {
      path: WORKGROUP_ADMIN_PATHS.list,
      layout: 'shell',
      access: 'workgroupManage',
      page: lazy(() =>
        import('./WorkgroupListPage').then((m) => ({ default: m.WorkgroupListPage })),
      ),
    },
    {
      path: WORKGROUP_ADMIN_PATHS.detail,
      layout: 'shell',
      access: 'workgroupManage',
      page: lazy(() =>
        import('./WorkgroupDetailPage').then((m) => ({ default: m.WorkgroupDetailPage })),
      ),
    },
    {
      path: PATHS.accountWorkgroups,
      layout: 'shell',
      access: 'workgroupManage',
      page: lazy(() =>
        import('./AccountWorkgroupsPage').then((m) => ({ default: m.AccountWorkgroupsPage })),
      ),
    },
  ],
  menu: [
    {
      group: 'configuration',
      key: 'workgroupManage',
      path: WORKGROUP_ADMIN_PATHS.list,
      labelKey: 'workgroup-admin.menu.label',
      icon: ApartmentOutlined,
      order: 1,
    },
  ],
};
