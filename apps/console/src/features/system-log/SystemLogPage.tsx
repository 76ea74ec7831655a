/**
 * System logs (spec 2 §2 System logs): login, team, cluster, workgroup (resource) and alarm
 * logs, one tab each, chosen by the `type` query (loginLogs by default). Switching a tab pushes
 * the route; each tab's view is keyed by it, so a switch (or Back) starts again at page 1 with
 * empty filters and reads the log afresh.
 */
import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LOG_TABS, type LogType } from '@portcullis/contract';
import { PageHeader } from '../../shared/layout/PageHeader';
import { LogTab } from './components/LogTab';

const TAB_KEYS = Object.keys(LOG_TABS);
const DEFAULT_TAB = 'loginLogs';

/** The tab of a `type` query value; anything unknown is the login log. */
export function logTab(value: string | null): { key: string; type: LogType } {
  const key = value !== null && TAB_KEYS.includes(value) ? value : DEFAULT_TAB;
  return { key, type: LOG_TABS[key] ?? 'login' };
}

export function SystemLogPage(): ReactNode {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = logTab(params.get('type'));
  return (
    <>
      <PageHeader title={t('system-log.page.title')} subtitle={t('system-log.page.subtitle')} />
      <Tabs
        activeKey={tab.key}
        onChange={(key) => setParams({ type: key })}
        items={TAB_KEYS.map((key) => ({ key, label: t(`system-log.tab.${key}`) }))}
      />
      <LogTab key={tab.key} type={tab.type} />
    </>
  );
}
