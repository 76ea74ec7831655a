/** The members' workgroup pages (spec 1 §2.1: workgroup list, and workgroupdetail with its query). */
import { PATHS } from '../../shared/routes';

export const WORKGROUP_PATHS = {
  list: PATHS.workgroup,
  detail: `${PATHS.workgroup}/:id`,
  terminal: PATHS.terminal,
} as const;

export type ResourceTab = 'ecs' | 'rds';
/** The detail's tabs: the resources, and the members for whoever manages the workgroup. */
export type DetailTab = ResourceTab | 'member';

/** A workgroup's detail: the tab (type ecs or rds) and an optional search by name or address. */
export function workgroupDetailPath(
  id: number,
  tab: ResourceTab = 'ecs',
  search: { q_name?: string; q_ip?: string } = {},
): string {
  const query = new URLSearchParams({ type: tab });
  if (search.q_name) query.set('q_name', search.q_name);
  if (search.q_ip) query.set('q_ip', search.q_ip);
  return `${PATHS.workgroup}/${id}?${query.toString()}`;
}

/** The full-page terminal of a project resource; the name rides along for the title. */
export function terminalPath(projectResourceId: number, name: string): string {
  const query = new URLSearchParams({ name });
  return `${PATHS.terminal.replace(':id', String(projectResourceId))}?${query.toString()}`;
}
