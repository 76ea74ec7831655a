import type { ReactNode } from 'react';
import { Card, Descriptions, Empty, Progress, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEpoch } from '../../../shared/time/format';
import { usePlanQuery } from '../api';

interface QuotaProps {
  used?: number | undefined;
  limit: number;
}

/** `used of limit` with a bar, or the limit alone; a limit of 0 is unlimited. */
function Quota({ used, limit }: QuotaProps): ReactNode {
  const { t } = useTranslation();
  const limitText = limit === 0 ? t('team.plan.unlimited') : String(limit);
  if (used === undefined) return <span>{limitText}</span>;
  return (
    <Space orientation="vertical" size={0} className="pc-stack">
      <span>{t('team.plan.usage', { used, limit: limitText })}</span>
      {limit > 0 ? (
        <Progress
          percent={Math.min(100, Math.round((used / limit) * 100))}
          size="small"
          status={used > limit ? 'exception' : 'normal'}
          showInfo={false}
        />
      ) : null}
    </Space>
  );
}

/** Plan information (spec 2 §2): name, the limits with what is used, and the expiry. */
export function PlanCard(): ReactNode {
  const { t } = useTranslation();
  const plan = usePlanQuery();
  return (
    <Card title={t('team.plan.title')}>
      {plan.isPending ? (
        <Skeleton active />
      ) : !plan.data ? (
        <Empty description={t('team.plan.none')} />
      ) : (
        <Descriptions
          column={1}
          size="small"
          items={[
            {
              key: 'name',
              label: t('team.plan.name'),
              children: (
                <Typography.Text strong>{t(`shell.plan.name.${plan.data.name}`)}</Typography.Text>
              ),
            },
            {
              key: 'resources',
              label: t('team.plan.resources'),
              children: <Quota used={plan.data.used.resources} limit={plan.data.resources} />,
            },
            {
              key: 'networks',
              label: t('team.plan.networks'),
              children: <Quota used={plan.data.used.networks} limit={plan.data.networks} />,
            },
            {
              key: 'accounts',
              label: t('team.plan.accounts'),
              children: <Quota used={plan.data.used.accounts} limit={plan.data.accounts} />,
            },
            {
              key: 'shared_resources',
              label: t('team.plan.sharedResources'),
              children: <Quota limit={plan.data.shared_resources} />,
            },
            {
              key: 'shared_networks',
              label: t('team.plan.sharedNetworks'),
              children: <Quota limit={plan.data.shared_networks} />,
            },
            {
              key: 'expire',
              label: t('team.plan.expire'),
              children: formatEpoch(plan.data.expire, t('team.plan.noExpiry')),
            },
          ]}
        />
      )}
    </Card>
  );
}
