/**
 * Connections per day and their hours over the chosen window (spec 1 §2.5's line chart), with
 * the window's totals above it.
 */
import type { ReactNode } from 'react';
import { Card, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/components/LoadFailed';
import { formatDuration } from '../../../shared/online/format';
import { useConnectionNumbersQuery, useOverviewQuery, type StatsWindow } from '../api';
import { TrendChart, type TrendDay } from './TrendChart';

/** Hours with at most one decimal, as the chart's axis shows them. */
function hours(seconds: number): number {
  return Math.round(seconds / 360) / 10;
}

export function ConnectionTrend({
  window,
  extra,
}: {
  window: StatsWindow;
  extra: ReactNode;
}): ReactNode {
  const { t } = useTranslation();
  const numbers = useConnectionNumbersQuery(window);
  const totals = useOverviewQuery(window);
  const describeDay = (day: TrendDay): string =>
    t('dashboard.trend.day', {
      date: day.date,
      count: day.conn_count,
      hours: hours(day.conn_time),
    });
  return (
    <Card
      title={t('dashboard.trend.title')}
      size="small"
      extra={extra}
      className="pc-dashboard-card"
    >
      {totals.isError ? (
        <LoadFailed error={totals.error} onRetry={() => void totals.refetch()} />
      ) : totals.data ? (
        <Space wrap size="large" className="pc-dashboard-totals">
          <Typography.Text>
            {t('dashboard.trend.totalConnections', { count: totals.data.conn_count })}
          </Typography.Text>
          <Typography.Text>
            {t('dashboard.trend.totalTime', { duration: formatDuration(totals.data.conn_time) })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('dashboard.trend.totalMembers', { count: totals.data.accounts })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('dashboard.trend.totalResources', { count: totals.data.resources })}
          </Typography.Text>
        </Space>
      ) : null}
      {numbers.isError ? (
        <LoadFailed error={numbers.error} onRetry={() => void numbers.refetch()} />
      ) : numbers.data ? (
        <TrendChart
          days={numbers.data}
          countLabel={t('dashboard.trend.count')}
          hoursLabel={t('dashboard.trend.hours')}
          ariaLabel={t('dashboard.trend.aria')}
          describeDay={describeDay}
        />
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
