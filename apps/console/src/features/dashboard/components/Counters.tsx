/**
 * The dashboard's counters (spec 1 §2.5): resources, shared resources, workgroups, clusters
 * and members of the team, from /v1/summary.
 */
import type { ReactNode } from 'react';
import { Card, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/components/LoadFailed';
import { useSummaryQuery } from '../../../shared/api/summary';

const COUNTERS = [
  { key: 'resources', label: 'dashboard.counter.resources' },
  { key: 'shared_resources', label: 'dashboard.counter.sharedResources' },
  { key: 'projects', label: 'dashboard.counter.workgroups' },
  { key: 'networks', label: 'dashboard.counter.clusters' },
  { key: 'accounts', label: 'dashboard.counter.members' },
] as const;

export function Counters(): ReactNode {
  const { t } = useTranslation();
  const summary = useSummaryQuery();
  if (summary.isError) {
    return <LoadFailed error={summary.error} onRetry={() => void summary.refetch()} />;
  }
  return (
    <div className="pc-dashboard-counters">
      {COUNTERS.map(({ key, label }) => (
        <Card key={key} size="small">
          {summary.data ? (
            <Statistic title={t(label)} value={summary.data[key]} />
          ) : (
            <Skeleton active paragraph={false} title={{ width: '60%' }} />
          )}
        </Card>
      ))}
    </div>
  );
}
