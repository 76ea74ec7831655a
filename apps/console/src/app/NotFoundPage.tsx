import type { ReactNode } from 'react';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export function NotFoundPage(): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('shell.notFound.title')}
      subTitle={t('shell.notFound.body')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('shell.notFound.home')}
        </Button>
      }
    />
  );
}
