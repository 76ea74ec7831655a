/**
 * What a feature's index.ts declares: its routes, where they render (standalone pages such as
 * /login, or inside the console shell), which menu key's role visibility guards them, and its
 * menu entries. The app builds the router and the left navigation from these alone, so a page
 * that is not built has no route and no menu entry.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { MenuKey } from '@portcullis/contract';

export type MenuGroup = 'operation' | 'configuration' | 'system' | 'personal';

export interface FeatureRoute {
  /** Absolute path, e.g. '/personal/info'. */
  path: string;
  /** 'standalone' pages need no session; 'shell' pages need a full session. */
  layout: 'standalone' | 'shell';
  page: LazyExoticComponent<ComponentType>;
  /**
   * For shell routes: the menu key whose role list may open this route, or several keys that
   * must all allow the role (an entry and the group around it: System Log lists role 0, the
   * System group does not).
   */
  access?: MenuKey | readonly MenuKey[];
}

export interface FeatureMenuItem {
  group: MenuGroup;
  /** Visibility by role comes from MENU_VISIBILITY[key]. */
  key: MenuKey;
  path: string;
  /** i18n key of the label. */
  labelKey: string;
  icon: ComponentType;
  /** Position inside its group (smaller first). */
  order: number;
  /** Other path prefixes whose pages highlight this entry (a detail page under another path). */
  alsoHighlights?: readonly string[];
}

export interface Feature {
  name: string;
  routes: FeatureRoute[];
  menu?: FeatureMenuItem[];
}
