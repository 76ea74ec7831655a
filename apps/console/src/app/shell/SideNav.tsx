import { createElement, type ReactNode } from 'react';
import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Role } from '@portcullis/contract';
import type { Feature } from '../../shared/feature';
import { buildNav, selectedNavPath } from './nav';

export interface SideNavProps {
  features: readonly Feature[];
  role: Role;
}

/** The left navigation for this role, with the entry of the current route highlighted. */
export function SideNav({ features, role }: SideNavProps): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const groups = buildNav(features, role);
  const selected = selectedNavPath(groups, pathname);
  const items: MenuProps['items'] = groups.map(({ group, items: entries }) => ({
    type: 'group',
    key: group,
    label: t(`shell.nav.group.${group}`),
    children: entries.map((entry) => ({
      key: entry.path,
      icon: createElement(entry.icon),
      label: t(entry.labelKey),
    })),
  }));
  return (
    <Menu
      mode="inline"
      theme="dark"
      aria-label={t('shell.nav.label')}
      selectedKeys={selected ? [selected] : []}
      items={items}
      onClick={({ key }) => navigate(key)}
    />
  );
}
