/**
 * The dashboard's top 10 members by connection time and top 10 resources by connection count
 * over the chosen window (spec 1 §2.5).
 */
import type { ReactNode } from 'react';
import { Avatar, Card, Empty, List, Typography } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TopAccount, TopResource } from '@portcullis/contract';
import { LoadFailed } from '../../../shared/components/LoadFailed';
import { formatDuration } from '../../../shared/online/format';
import { useTopAccountsQuery, useTopResourcesQuery, type StatsWindow } from '../api';

interface TopCardProps<T> {
  title: string;
  top: UseQueryResult<T[]>;
  renderItem: (item: T, rank: number) => ReactNode;
}

/** A ranked list in a card, with its loading, empty and failed states. */
function TopCard<T>({ title, top, renderItem }: TopCardProps<T>): ReactNode {
  const { t } = useTranslation();
  return (
    <Card title={title} size="small" className="pc-dashboard-card">
      {top.isError ? (
        <LoadFailed error={top.error} onRetry={() => void top.refetch()} />
      ) : (
        <List
          size="small"
          loading={top.isLoading}
          dataSource={top.data ?? []}
          locale={{ emptyText: <Empty description={t('dashboard.top.none')} /> }}
          renderItem={(item, i) => renderItem(item, i + 1)}
        />
      )}
    </Card>
  );
}

export function TopMembers({ window }: { window: StatsWindow }): ReactNode {
  const { t } = useTranslation();
  return (
    <TopCard<TopAccount>
      title={t('dashboard.top.members')}
      top={useTopAccountsQuery(window)}
      renderItem={(m, rank) => (
        <List.Item extra={<Typography.Text>{formatDuration(m.conn_time)}</Typography.Text>}>
          <List.Item.Meta
            avatar={
              <span className="pc-dashboard-rank">
                {rank}
                <Avatar size="small" src={m.avatar || undefined} icon={<UserOutlined />} />
              </span>
            }
            title={m.name || m.account}
            description={m.name ? m.account : null}
          />
        </List.Item>
      )}
    />
  );
}

export function TopResources({ window }: { window: StatsWindow }): ReactNode {
  const { t } = useTranslation();
  return (
    <TopCard<TopResource>
      title={t('dashboard.top.resources')}
      top={useTopResourcesQuery(window)}
      renderItem={(r, rank) => (
        <List.Item
          extra={
            <Typography.Text>
              {t('dashboard.top.connections', { count: r.conn_count })}
            </Typography.Text>
          }
        >
          <List.Item.Meta
            avatar={<span className="pc-dashboard-rank">{rank}</span>}
            title={r.name}
          />
        </List.Item>
      )}
    />
  );
}
