import type { ReactNode } from 'react';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** Available while the cluster's gateway is connected (agent_status 1), else unavailable. */
export function ClusterStatus({ agentStatus }: { agentStatus: number }): ReactNode {
  const { t } = useTranslation();
  return agentStatus === 1 ? (
    <Badge status="success" text={t('clusters.status.available')} />
  ) : (
    <Badge status="error" text={t('clusters.status.unavailable')} />
  );
}
