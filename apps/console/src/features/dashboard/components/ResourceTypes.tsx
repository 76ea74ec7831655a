/** The team's resources by type (spec 1 §2.5's donut), from /instances_summary. */
import type { ReactNode } from 'react';
import { Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { InstancesSummary } from '@portcullis/contract';
import { LoadFailed } from '../../../shared/components/LoadFailed';
import { useResourceTypesQuery } from '../api';
import { ResourceTypesChart } from './ResourceTypesChart';

const TYPES: readonly (keyof InstancesSummary)[] = [
  'linux',
  'windows',
  'mysql',
  'postgresql',
  'sqlserver',
];

export function ResourceTypes(): ReactNode {
  const { t } = useTranslation();
  const types = useResourceTypesQuery();
  const data = types.data;
  return (
    <Card title={t('dashboard.types.title')} size="small" className="pc-dashboard-card">
      {types.isError ? (
        <LoadFailed error={types.error} onRetry={() => void types.refetch()} />
      ) : data ? (
        <ResourceTypesChart
          slices={TYPES.map((key) => ({
            key,
            label: t(`dashboard.types.${key}`),
            count: data[key],
          }))}
          totalLabel={t('dashboard.types.total')}
          ariaLabel={t('dashboard.types.aria')}
        />
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
