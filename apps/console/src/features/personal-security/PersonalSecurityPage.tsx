/**
 * Account security (spec 1 §2.11): last login, password, mobile and virtual MFA. Each change
 * happens in a right-hand panel; `?changePwd=1` (the password-strength gate) opens the password
 * panel at once.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Card, Skeleton, Switch, Tag, Typography } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { useCurrentAccountQuery } from '../../shared/session/session';
import { formatEpoch } from '../../shared/time/format';
import { ChangePasswordPanel, CHANGE_PASSWORD_PANEL } from './components/ChangePasswordPanel';
import { MfaPanel, MFA_PANEL } from './components/MfaPanel';
import { MobilePanel, MOBILE_PANEL } from './components/MobilePanel';

export function PersonalSecurityPage(): ReactNode {
  const { t } = useTranslation();
  const panel = usePanel();
  const [params] = useSearchParams();
  const account = useCurrentAccountQuery();
  const wantsPasswordChange = params.has('changePwd');
  // Fixed when the panel opens, so the panel does not flip to the other form as it closes.
  const [mfaMode, setMfaMode] = useState<'open' | 'close'>('open');
  const { open } = panel;

  useEffect(() => {
    if (wantsPasswordChange) open(CHANGE_PASSWORD_PANEL);
  }, [wantsPasswordChange, open]);

  if (!account.data) {
    return (
      <>
        <PageHeader title={t('personal-security.page.title')} />
        <Card>
          <Skeleton active />
        </Card>
      </>
    );
  }
  const data = account.data;

  const rows = [
    {
      key: 'lastLogin',
      title: t('personal-security.lastLogin.title'),
      description: data.last_login_time
        ? t('personal-security.lastLogin.value', {
            time: formatEpoch(data.last_login_time),
            ip: data.last_login_ip || '-',
          })
        : t('personal-security.lastLogin.never'),
      action: null,
    },
    {
      key: 'password',
      title: t('personal-security.password.title'),
      description: data.password_strength.password_ok ? (
        t('personal-security.password.description')
      ) : (
        <Typography.Text type="danger">{t('personal-security.password.weak')}</Typography.Text>
      ),
      action: (
        <Button onClick={() => panel.open(CHANGE_PASSWORD_PANEL)}>
          {t('personal-security.password.change')}
        </Button>
      ),
    },
    {
      key: 'mobile',
      title: t('personal-security.mobile.title'),
      description: data.mobile
        ? t('personal-security.mobile.bound', { mobile: data.mobile })
        : t('personal-security.mobile.unbound'),
      action: (
        <Button onClick={() => panel.open(MOBILE_PANEL)}>
          {data.mobile ? t('personal-security.mobile.change') : t('personal-security.mobile.bind')}
        </Button>
      ),
    },
    {
      key: 'mfa',
      title: (
        <>
          {t('personal-security.mfa.title')}{' '}
          {data.otp_enabled ? (
            <Tag color="success">{t('personal-security.mfa.on')}</Tag>
          ) : (
            <Tag>{t('personal-security.mfa.off')}</Tag>
          )}
        </>
      ),
      // A team that requires MFA does not let it be turned off (the server answers NeedPrivilege).
      description:
        data.company_mfa && data.otp_enabled
          ? t('personal-security.mfa.required')
          : t('personal-security.mfa.description'),
      action: (
        <Switch
          checked={data.otp_enabled}
          disabled={data.company_mfa && data.otp_enabled}
          aria-label={t('personal-security.mfa.toggle')}
          onChange={() => {
            setMfaMode(data.otp_enabled ? 'close' : 'open');
            panel.open(MFA_PANEL);
          }}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('personal-security.page.title')}
        subtitle={t('personal-security.page.subtitle')}
      />
      <Card>
        <ul className="pc-settings">
          {rows.map((row) => (
            <li key={row.key} className="pc-settings__row">
              <div className="pc-settings__text">
                <Typography.Text strong>{row.title}</Typography.Text>
                <Typography.Text type="secondary">{row.description}</Typography.Text>
              </div>
              {row.action ? <div className="pc-settings__action">{row.action}</div> : null}
            </li>
          ))}
        </ul>
      </Card>
      <ChangePasswordPanel level={data.password_strength.level} />
      <MobilePanel current={data.mobile} />
      <MfaPanel mode={mfaMode} />
    </>
  );
}
