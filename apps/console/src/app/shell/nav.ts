/**
 * The left navigation, built from the features' menu entries and the contract's role matrix:
 * a group appears only when its own visibility key (if it has one) allows the role and at least
 * one of its entries is visible.
 */
import { canSeeMenu, type MenuKey, type Role } from '@portcullis/contract';
import type { Feature, FeatureMenuItem, MenuGroup } from '../../shared/feature';

export const MENU_GROUPS: readonly MenuGroup[] = [
  'operation',
  'configuration',
  'system',
  'personal',
];

/** Groups that carry their own row in the visibility matrix (spec 2 §6). */
const GROUP_VISIBILITY: Partial<Record<MenuGroup, MenuKey>> = {
  configuration: 'configuration',
  system: 'system',
};

export interface NavGroup {
  group: MenuGroup;
  items: FeatureMenuItem[];
}

export function buildNav(features: readonly Feature[], role: Role): NavGroup[] {
  const all = features.flatMap((feature) => feature.menu ?? []);
  const groups: NavGroup[] = [];
  for (const group of MENU_GROUPS) {
    const groupKey = GROUP_VISIBILITY[group];
    if (groupKey && !canSeeMenu(role, groupKey)) continue;
    const items = all
      .filter((item) => item.group === group && canSeeMenu(role, item.key))
      .sort((a, b) => a.order - b.order);
    if (items.length > 0) groups.push({ group, items });
  }
  return groups;
}

/**
 * The entry to highlight: the one whose path (or one of its `alsoHighlights` prefixes) is the
 * route or the longest parent of it.
 */
export function selectedNavPath(groups: readonly NavGroup[], pathname: string): string | undefined {
  let best: string | undefined;
  let bestLength = -1;
  for (const { items } of groups) {
    for (const item of items) {
      for (const prefix of [item.path, ...(item.alsoHighlights ?? [])]) {
        const matches = pathname === prefix || pathname.startsWith(`${prefix}/`);
        if (matches && prefix.length > bestLength) {
          best = item.path;
          bestLength = prefix.length;
        }
      }
    }
  }
  return best;
}
