import type { ReactNode } from 'react';
import { Button, Card, Empty, Space } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/layout/PageHeader';
import { PATHS } from '../../shared/routes';

/** An honest placeholder: the workgroup list is not built yet. */
export function WorkgroupPage(): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={t('workgroup.page.title')} />
      <Card>
        <Empty description={t('workgroup.page.empty')}>
          <Space wrap>
            <Button onClick={() => navigate(PATHS.personalSshKey)}>
              {t('workgroup.page.toSshKeys')}
            </Button>
            <Button onClick={() => navigate(PATHS.personalSecurity)}>
              {t('workgroup.page.toSecurity')}
            </Button>
          </Space>
        </Empty>
      </Card>
    </>
  );
}
