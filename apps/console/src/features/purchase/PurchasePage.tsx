/**
 * Purchase (spec 1 §2.3): the team has no current plan. A header and a picture in the reader's
 * language say so; the only way on is to sign out (or to come back once a plan is active).
 */
import type { ReactNode } from 'react';
import { Button, Space, Typography } from 'antd';
import { LogoutOutlined, ReloadOutlined } from '@ant-design/icons';
import { Navigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { landingPath } from '@portcullis/contract';
import purchaseEn from '../../assets/purchase-en_US.svg';
import purchaseZh from '../../assets/purchase-zh_CN.svg';
import { BrandMark } from '../../shared/components/BrandMark';
import { LanguageSwitch } from '../../shared/components/LanguageSwitch';
import { useLanguage } from '../../shared/i18n/language';
import { roleOf, useCurrentAccountQuery, useLogout } from '../../shared/session/session';

export function PurchasePage(): ReactNode {
  const { t } = useTranslation();
  const [language] = useLanguage();
  const { logout } = useLogout();
  // A failure other than NeedLogin is shown by the global notice with its translated code.
  const account = useCurrentAccountQuery();

  if (account.data?.current_plan) {
    return <Navigate to={landingPath(roleOf(account.data))} replace />;
  }

  return (
    <div className="pc-purchase">
      <header className="pc-auth__bar">
        <BrandMark />
        <div className="pc-auth__bar-extra">
          {account.data ? (
            <Typography.Text type="secondary">
              {account.data.company.full_name || account.data.company.domain}
            </Typography.Text>
          ) : null}
          <LanguageSwitch />
          <Button type="text" icon={<LogoutOutlined />} onClick={() => void logout()}>
            {t('purchase.page.logout')}
          </Button>
        </div>
      </header>
      <main className="pc-purchase__main">
        <Typography.Title level={2}>{t('purchase.page.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('purchase.page.subtitle')}</Typography.Paragraph>
        <img
          className="pc-purchase__image"
          src={language === 'zh_CN' ? purchaseZh : purchaseEn}
          alt={t('purchase.page.imageAlt')}
          width={720}
          height={400}
        />
        <Space>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void account.refetch()}
            loading={account.isFetching}
          >
            {t('purchase.page.recheck')}
          </Button>
        </Space>
      </main>
    </div>
  );
}
