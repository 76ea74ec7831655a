import type { ReactNode } from 'react';
import { Button, Card, Empty, Space } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/layout/PageHeader';
import { PATHS } from '../../shared/routes';

/** An honest placeholder: the dashboard is not built yet. */
export function DashboardPage(): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={t('dashboard.page.title')} />
      <Card>
        <Empty description={t('dashboard.page.empty')}>
          <Space wrap>
            <Button onClick={() => navigate(PATHS.personalInfo)}>
              {t('dashboard.page.toInfo')}
            </Button>
            <Button onClick={() => navigate(PATHS.personalSecurity)}>
              {t('dashboard.page.toSecurity')}
            </Button>
          </Space>
        </Empty>
      </Card>
    </>
  );
}
