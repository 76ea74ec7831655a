import type { ReactNode } from 'react';
import { Tooltip } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The globe that marks a cluster's default workgroup (spec 2 §2 Workgroup detail). */
export function DefaultMark(): ReactNode {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('workgroup-admin.default.tip')}>
      <GlobalOutlined
        role="img"
        aria-label={t('workgroup-admin.default.label')}
        style={{ color: '#1677ff' }}
      />
    </Tooltip>
  );
}
