import type { ReactNode } from 'react';
import { Button, Modal, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CurrentAccount } from '@portcullis/contract';
import { passwordLevelHint, toPasswordLevel } from '../../shared/form/rules';
import { PATHS } from '../../shared/routes';

export interface PasswordGateProps {
  account: CurrentAccount;
}

/**
 * When the password does not satisfy the team's strength level, a modal that cannot be
 * dismissed sends the user to Account security with the change-password panel open.
 */
export function PasswordGate({ account }: PasswordGateProps): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const open = !account.password_strength.password_ok && pathname !== PATHS.personalSecurity;
  const hint = passwordLevelHint(toPasswordLevel(account.password_strength.level), t);
  return (
    <Modal
      open={open}
      title={t('shell.passwordGate.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Button type="primary" onClick={() => navigate(`${PATHS.personalSecurity}?changePwd=1`)}>
          {t('shell.passwordGate.change')}
        </Button>
      }
    >
      <Typography.Paragraph>{t('shell.passwordGate.body')}</Typography.Paragraph>
      {hint ? <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph> : null}
    </Modal>
  );
}
