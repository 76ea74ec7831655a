/**
 * Reset password (spec 1 §2.3), opened from the mailed link
 * `/resetpassword?code=…&account=…&password_strength=N`: the account is shown read-only, the
 * new password follows the team's strength level, and the link works once.
 */
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Form, Input } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authRoutes } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import {
  confirmPasswordRules,
  passwordLevelHint,
  passwordRules,
  toPasswordLevel,
} from '../../shared/form/rules';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { PATHS } from '../../shared/routes';

interface ResetForm {
  pwd: string;
  confirm: string;
}

export function ResetPasswordPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const account = params.get('account') ?? '';
  const level = toPasswordLevel(params.get('password_strength'));
  const hint = passwordLevelHint(level, t);
  const [failure, setFailure] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: (pwd: string) =>
      callApi(authRoutes.resetPassword, { body: { code, account, pwd } }),
    meta: { silent: true },
    onSuccess: () => {
      void message.success(t('reset-password.page.success'));
      navigate(PATHS.login, { replace: true });
    },
    onError: (error) => setFailure(errorText(error)),
  });

  const linkBroken = code === '' || account === '';

  return (
    <AuthLayout title={t('reset-password.page.title')}>
      {linkBroken ? (
        <Alert
          type="error"
          showIcon
          title={t('reset-password.page.badLink')}
          className="pc-auth__result"
        />
      ) : null}
      {failure ? <Alert type="error" showIcon title={failure} className="pc-auth__result" /> : null}
      <Form<ResetForm>
        layout="vertical"
        size="large"
        requiredMark={false}
        disabled={linkBroken}
        onFinish={(v) => {
          setFailure(null);
          mutation.mutate(v.pwd);
        }}
      >
        <Form.Item label={t('reset-password.form.account')}>
          <Input value={account} readOnly aria-label={t('reset-password.form.account')} />
        </Form.Item>
        <Form.Item
          name="pwd"
          label={t('reset-password.form.password')}
          extra={hint || undefined}
          rules={passwordRules(level, t)}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('reset-password.form.confirm')}
          dependencies={['pwd']}
          rules={confirmPasswordRules('pwd', t)}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={mutation.isPending}>
            {t('reset-password.form.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div className="pc-auth__links">
        <Link to={PATHS.login}>{t('reset-password.links.login')}</Link>
      </div>
    </AuthLayout>
  );
}
