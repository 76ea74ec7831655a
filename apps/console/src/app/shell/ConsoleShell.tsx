/**
 * The console shell (spec 1 §2.4): navigation, header, the notices above the page (banner and
 * quota reminder), the right-hand panel mechanism and the password-strength gate. It needs a
 * full session: an unfinished login step or a team without a plan is sent to its screen.
 */
import { Suspense, useState, type ReactNode } from 'react';
import { Button, Layout, Result, Spin } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../shared/components/BrandMark';
import { useErrorText } from '../../shared/i18n/errors';
import { isApiError, SESSION_CODES } from '../../shared/api/client';
import { PanelProvider } from '../../shared/panel/PanelProvider';
import { pendingStepPath, roleOf, useCurrentAccountQuery } from '../../shared/session/session';
import type { Feature } from '../../shared/feature';
import { AppHeader } from './AppHeader';
import { NotificationBanner } from './NotificationBanner';
import { PasswordGate } from './PasswordGate';
import { QuotaReminder } from './QuotaReminder';
import { SideNav } from './SideNav';

export interface ConsoleShellProps {
  features: readonly Feature[];
}

export function PageLoading(): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="pc-page-loading" role="status" aria-label={t('common.state.loading')}>
      <Spin />
    </div>
  );
}

export function ConsoleShell({ features }: ConsoleShellProps): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const account = useCurrentAccountQuery({ silent: true });

  if (account.isPending) return <PageLoading />;
  if (account.isError) {
    // Session codes are already on their way to the right screen.
    if (isApiError(account.error) && SESSION_CODES.includes(account.error.code)) {
      return <PageLoading />;
    }
    return (
      <Result
        status="error"
        title={t('shell.error.title')}
        subTitle={errorText(account.error)}
        extra={
          <Button type="primary" onClick={() => void account.refetch()}>
            {t('common.action.retry')}
          </Button>
        }
      />
    );
  }
  const data = account.data;
  const pending = pendingStepPath(data);
  if (pending) return <Navigate to={pending} replace />;

  return (
    <Layout className="pc-shell">
      <Layout.Sider
        width={220}
        collapsible
        collapsed={collapsed}
        trigger={null}
        className="pc-shell__sider"
      >
        <div className="pc-shell__brand">
          <BrandMark compact={collapsed} />
        </div>
        <SideNav features={features} role={roleOf(data)} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="pc-shell__header">
          <Button
            type="text"
            aria-label={t(collapsed ? 'shell.nav.expand' : 'shell.nav.collapse')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => setCollapsed((c) => !c)}
          />
          <AppHeader account={data} />
        </Layout.Header>
        <Layout.Content className="pc-shell__content">
          <NotificationBanner />
          <QuotaReminder plan={data.current_plan} />
          <PanelProvider resetKey={pathname}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </PanelProvider>
        </Layout.Content>
      </Layout>
      <PasswordGate account={data} />
    </Layout>
  );
}
