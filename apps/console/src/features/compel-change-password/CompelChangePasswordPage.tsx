/**
 * Forced password change (spec 1 §2.3): the server asks for it (the password fails the team's
 * strength level, is 90 days old under the forced-change policy, or was set by an
 * administrator). Success signs the session out: the user logs in again with the new password.
 */
import type { ReactNode } from 'react';
import { Alert, App, Button, Form, Input, Spin } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountRoutes } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import {
  confirmPasswordRules,
  passwordLevelHint,
  passwordRules,
  toPasswordLevel,
} from '../../shared/form/rules';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { useCurrentAccountQuery, useLogout } from '../../shared/session/session';

interface ChangeForm {
  pwd: string;
  confirm: string;
}

export function CompelChangePasswordPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const { logout } = useLogout();
  const account = useCurrentAccountQuery({ silent: true });
  const level = toPasswordLevel(account.data?.password_strength.level);
  const hint = passwordLevelHint(level, t);

  const mutation = useMutation({
    mutationFn: (pwd: string) => callApi(accountRoutes.changePassword, { body: { pwd } }),
    meta: { silent: true },
    onSuccess: () => logout(t('messages.passwordChangedRelogin')),
    onError: (error) => void message.error(errorText(error)),
  });

  return (
    <AuthLayout
      title={t('compel-change-password.page.title')}
      subtitle={t('compel-change-password.page.subtitle')}
    >
      {account.isPending ? (
        <Spin />
      ) : account.isError ? (
        <Alert type="error" showIcon title={errorText(account.error)} className="pc-auth__result" />
      ) : (
        <Form<ChangeForm>
          layout="vertical"
          size="large"
          requiredMark={false}
          onFinish={(v) => mutation.mutate(v.pwd)}
        >
          <Form.Item label={t('compel-change-password.form.account')}>
            <Input
              value={account.data.account}
              readOnly
              aria-label={t('compel-change-password.form.account')}
            />
          </Form.Item>
          <Form.Item
            name="pwd"
            label={t('compel-change-password.form.password')}
            extra={hint || undefined}
            rules={passwordRules(level, t)}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('compel-change-password.form.confirm')}
            dependencies={['pwd']}
            rules={confirmPasswordRules('pwd', t)}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              block
              size="large"
              loading={mutation.isPending}
            >
              {t('compel-change-password.form.submit')}
            </Button>
          </Form.Item>
        </Form>
      )}
      <div className="pc-auth__links">
        <Button type="link" onClick={() => void logout()}>
          {t('compel-change-password.links.login')}
        </Button>
      </div>
    </AuthLayout>
  );
}
