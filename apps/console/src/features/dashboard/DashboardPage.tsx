/**
 * The administrators' dashboard (spec 1 §2.5): the team's counters, connections and hours per
 * day over 7, 30 or 90 days, resources by type, the top 10 members and resources of the window,
 * and the online sessions (10 a page) with the unsafe-mode warning, Monitor and Disconnect.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Card, Col, Row, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATS_WINDOW_DAYS, type OnlineConnection } from '@portcullis/contract';
import { PageHeader } from '../../shared/layout/PageHeader';
import { OnlineConnectionsTable } from '../../shared/online/OnlineConnectionsTable';
import { statsWindow } from './api';
import { ConnectionTrend } from './components/ConnectionTrend';
import { Counters } from './components/Counters';
import { MonitorDialog } from './components/MonitorDialog';
import { ResourceTypes } from './components/ResourceTypes';
import { TopMembers, TopResources } from './components/TopLists';
import './dashboard.css';

type WindowDays = (typeof STATS_WINDOW_DAYS)[number];

export function DashboardPage(): ReactNode {
  const { t } = useTranslation();
  const [days, setDays] = useState<WindowDays>(STATS_WINDOW_DAYS[0]);
  const [watching, setWatching] = useState<OnlineConnection | null>(null);
  // Fixed while the page is open, so the queries' keys stay put; a new day needs a reload.
  const window = useMemo(() => statsWindow(days), [days]);
  const range = (
    <Segmented<WindowDays>
      size="small"
      value={days}
      onChange={setDays}
      options={STATS_WINDOW_DAYS.map((d) => ({
        value: d,
        label: t('dashboard.range.days', { count: d }),
      }))}
      aria-label={t('dashboard.range.label')}
    />
  );
  return (
    <div className="pc-dashboard">
      <PageHeader title={t('dashboard.page.title')} />
      <Counters />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <ConnectionTrend window={window} extra={range} />
        </Col>
        <Col xs={24} xl={8}>
          <ResourceTypes />
        </Col>
        <Col xs={24} lg={12}>
          <TopMembers window={window} />
        </Col>
        <Col xs={24} lg={12}>
          <TopResources window={window} />
        </Col>
        <Col span={24}>
          <Card title={t('dashboard.online.title')} size="small" className="pc-dashboard-card">
            <OnlineConnectionsTable enabled flagUnsafe onMonitor={setWatching} />
          </Card>
        </Col>
      </Row>
      <MonitorDialog session={watching} onClose={() => setWatching(null)} />
    </div>
  );
}
