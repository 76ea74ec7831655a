import { useState, type ReactNode } from 'react';
import { Avatar, Button, Space, Tooltip, Typography } from 'antd';
import { DesktopOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CurrentAccount } from '@portcullis/contract';
import { LanguageSwitch } from '../../shared/components/LanguageSwitch';
import { useLogout } from '../../shared/session/session';
import { PATHS } from '../../shared/routes';
import { useOnlineCountQuery } from './api';
import { OnlineSessionsDialog } from './OnlineSessionsDialog';
import { PlanExpiryTag } from './PlanExpiryTag';

export interface AppHeaderProps {
  account: CurrentAccount;
}

/** Header: online sessions (opening their dialog), plan expiry, language, the signed-in account and logout. */
export function AppHeader({ account }: AppHeaderProps): ReactNode {
  const { t } = useTranslation();
  const online = useOnlineCountQuery();
  const { logout, pending } = useLogout();
  const count = online.data?.count ?? 0;
  const [sessionsOpen, setSessionsOpen] = useState(false);
  return (
    <div className="pc-header">
      <Typography.Text strong className="pc-header__team">
        {account.company.full_name || account.company.domain}
      </Typography.Text>
      <Space size="middle" className="pc-header__tools" wrap>
        <Tooltip title={t('shell.header.onlineTip')}>
          <Button
            type="text"
            className="pc-header__online"
            aria-label={t('shell.header.online', { count })}
            aria-haspopup="dialog"
            icon={
              <DesktopOutlined
                className={count > 0 ? 'pc-header__online-icon is-live' : 'pc-header__online-icon'}
              />
            }
            onClick={() => setSessionsOpen(true)}
          >
            <span className="pc-header__online-text">{t('shell.header.online', { count })}</span>
          </Button>
        </Tooltip>
        <PlanExpiryTag plan={account.current_plan} />
        <LanguageSwitch />
        <Link to={PATHS.personalInfo} className="pc-header__account">
          <Avatar size="small" src={account.avatar || undefined} icon={<UserOutlined />} />
          <span>{account.name || account.account}</span>
        </Link>
        <Button
          type="text"
          icon={<LogoutOutlined />}
          loading={pending}
          onClick={() => void logout()}
        >
          {t('shell.header.logout')}
        </Button>
      </Space>
      <OnlineSessionsDialog open={sessionsOpen} onClose={() => setSessionsOpen(false)} />
    </div>
  );
}
