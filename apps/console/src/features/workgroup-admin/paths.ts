/**
 * The workgroup administration pages' paths (spec 2 §2: /settings/workgroup and the detail,
 * route name settingWorkgroupDetail, whose `type` query picks the tab). The member's workgroups
 * page lives in shared/routes.ts because the team page links to it too.
 */
export const WORKGROUP_ADMIN_PATHS = {
  list: '/settings/workgroup',
  detail: '/settings/workgroup/:id',
} as const;

export const WORKGROUP_TABS = ['ecs', 'database', 'member', 'group'] as const;
export type WorkgroupTab = (typeof WORKGROUP_TABS)[number];

/** The tab of a `type` query value; anything unknown is the servers tab (the spec's default). */
export function workgroupTab(value: string | null): WorkgroupTab {
  return (WORKGROUP_TABS as readonly string[]).includes(value ?? '')
    ? (value as WorkgroupTab)
    : 'ecs';
}

export function workgroupDetailPath(id: number, tab: WorkgroupTab = 'ecs'): string {
  return `/settings/workgroup/${id}?type=${tab}`;
}
