/**
 * MFA open (spec 1 §2.3): the team requires MFA and this account has none. Binding finishes the
 * login; cancelling signs out.
 */
import type { ReactNode } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { MfaBinding } from '../../shared/mfa/MfaBinding';
import { useFinishLogin, useLogout } from '../../shared/session/session';

export function MfaOpenPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const finish = useFinishLogin();
  const { logout } = useLogout();
  return (
    <AuthLayout title={t('mfa.open.title')} subtitle={t('mfa.open.subtitle')} width={560}>
      <MfaBinding
        withInstructions
        onBound={async () => {
          try {
            await finish();
          } catch (error) {
            void message.error(errorText(error));
          }
        }}
        onCancel={() => void logout()}
      />
    </AuthLayout>
  );
}
