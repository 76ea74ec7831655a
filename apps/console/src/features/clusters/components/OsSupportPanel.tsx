/**
 * The OS support check list (spec 2 §2 cluster side panels; spec 1 §3 agent OS support list):
 * the systems whose official cloud images the gateway is supported on, all 64-bit, and the
 * recommended machine.
 */
import type { ReactNode } from 'react';
import { Alert, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RightPanel } from '../../../shared/panel/RightPanel';

export const OS_SUPPORT_PANEL = 'panel/clusters/os-support';

/** Supported systems for the gateway host (spec 1 §3), all 64-bit. */
export const SUPPORTED_OS = [
  'CentOS 7.0',
  'CentOS 6.5',
  'Debian 7.5.0',
  'Debian 6.0.9',
  'Ubuntu 14.04',
  'Ubuntu 12.04',
] as const;

export function OsSupportPanel(): ReactNode {
  const { t } = useTranslation();
  return (
    <RightPanel panelKey={OS_SUPPORT_PANEL} title={t('clusters.osSupport.title')} width={420}>
      <Typography.Paragraph type="secondary">
        {t('clusters.agent.osSupportHint')}
      </Typography.Paragraph>
      <List
        size="small"
        bordered
        dataSource={[...SUPPORTED_OS]}
        renderItem={(os) => <List.Item>{t('clusters.agent.os64', { os })}</List.Item>}
      />
      <Alert type="info" showIcon title={t('clusters.agent.recommend')} style={{ marginTop: 16 }} />
    </RightPanel>
  );
}
