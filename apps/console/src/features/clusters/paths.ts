/** The cluster pages' paths (spec 2 §2; the detail's route name is clusterDetail). */
export const CLUSTER_PATHS = {
  list: '/settings/cluster',
  detail: '/settings/cluster/:id',
} as const;

export type ClusterTab = 'ecs' | 'rds' | 'settings';

export function clusterDetailPath(id: number, tab: ClusterTab = 'ecs'): string {
  return `/settings/cluster/${id}?type=${tab}`;
}
