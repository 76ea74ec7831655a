import { lazy } from 'react';
import { ClusterOutlined } from '@ant-design/icons';
import type { Feature } from '../../shared/feature';
import { CLUSTER_PATHS } from './paths';

/**
 * Cluster Manage (spec 2 §2, §6: Configuration, roles 1 and 3): the cluster list and a
 * cluster's detail page with its servers, database and setting tabs.
 */
export const clustersFeature: Feature = {
  name: 'clusters',
  routes: [
    {
      path: CLUSTER_PATHS.list,
      layout: 'shell',
      access: 'clusterManage',
      page: lazy(() => import('./ClusterListPage').then((m) => ({ default: m.ClusterListPage }))),
    },
    {
      path: CLUSTER_PATHS.detail,
      layout: 'shell',
      access: 'clusterManage',
      page: lazy(() =>
        import('./ClusterDetailPage').then((m) => ({ default: m.ClusterDetailPage })),
      ),
    },
  ],
  menu: [
    {
      group: 'configuration',
      key: 'clusterManage',
      path: CLUSTER_PATHS.list,
      labelKey: 'clusters.menu.label',
      icon: ClusterOutlined,
      order: 2,
    },
  ],
};
