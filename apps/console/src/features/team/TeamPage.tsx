/**
 * The team page (spec 2 §2 Team page tabs): members, groups, team settings, version and single
 * sign-on, one tab each, chosen by the `type` query (members by default). Switching a tab
 * pushes the route, so Back returns to the previous tab.
 */
import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/layout/PageHeader';
import { GroupsTab } from './components/GroupsTab';
import { MembersTab } from './components/MembersTab';
import { SettingsTab } from './components/SettingsTab';
import { SsoTab } from './components/SsoTab';
import { VersionTab } from './components/VersionTab';

export const TEAM_TABS = ['members', 'group', 'settings', 'version', 'sso'] as const;
export type TeamTab = (typeof TEAM_TABS)[number];

/** The tab of a `type` query value; anything unknown is the members tab. */
export function teamTab(value: string | null): TeamTab {
  return (TEAM_TABS as readonly string[]).includes(value ?? '') ? (value as TeamTab) : 'members';
}

const CONTENT: Record<TeamTab, () => ReactNode> = {
  members: () => <MembersTab />,
  group: () => <GroupsTab />,
  settings: () => <SettingsTab />,
  version: () => <VersionTab />,
  sso: () => <SsoTab />,
};

export function TeamPage(): ReactNode {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = teamTab(params.get('type'));
  return (
    <>
      <PageHeader title={t('team.page.title')} subtitle={t('team.page.subtitle')} />
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams({ type: key })}
        items={TEAM_TABS.map((key) => ({
          key,
          label: t(`team.tab.${key}`),
          children: CONTENT[key](),
        }))}
      />
    </>
  );
}
