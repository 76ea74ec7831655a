/** Forgot password (spec 1 §2.3): team ID, account e-mail and captcha; the server mails a link. */
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Form, Input, Space } from 'antd';
import { Link } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authRoutes } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { CaptchaImage, useCaptcha } from '../../shared/components/CaptchaImage';
import { emailRules, requiredRule } from '../../shared/form/rules';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { PATHS } from '../../shared/routes';

interface ForgotForm {
  domain: string;
  account: string;
  captcha: string;
}

export function ForgotPasswordPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const captcha = useCaptcha();
  const [form] = Form.useForm<ForgotForm>();
  const [sent, setSent] = useState(false);

  const mutation = useMutation({
    mutationFn: (v: ForgotForm) =>
      callApi(authRoutes.resetPasswordMail, {
        body: { domain: v.domain.trim(), account: v.account.trim(), captcha: v.captcha.trim() },
      }),
    meta: { silent: true },
    onSuccess: () => {
      setSent(true);
      void message.success(t('messages.resetMailSent'));
    },
    onError: (error) => {
      captcha.refresh();
      form.setFieldValue('captcha', '');
      void message.error(errorText(error));
    },
  });

  return (
    <AuthLayout
      title={t('forgot-password.page.title')}
      subtitle={t('forgot-password.page.subtitle')}
    >
      {sent ? (
        <Alert
          type="success"
          showIcon
          title={t('messages.resetMailSent')}
          className="pc-auth__result"
        />
      ) : null}
      <Form<ForgotForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={(v) => mutation.mutate(v)}
      >
        <Form.Item
          name="domain"
          label={t('forgot-password.form.domain')}
          rules={[requiredRule(t('forgot-password.form.domainRequired'))]}
        >
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item name="account" label={t('forgot-password.form.account')} rules={emailRules(t)}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label={t('forgot-password.form.captcha')} required>
          <Space.Compact block>
            <Form.Item
              name="captcha"
              noStyle
              rules={[requiredRule(t('forgot-password.form.captchaRequired'))]}
            >
              <Input autoComplete="off" aria-label={t('forgot-password.form.captcha')} />
            </Form.Item>
            <CaptchaImage nonce={captcha.nonce} onRefresh={captcha.refresh} />
          </Space.Compact>
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={mutation.isPending}>
            {t('forgot-password.form.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div className="pc-auth__links">
        <Link to={PATHS.login}>{t('forgot-password.links.login')}</Link>
      </div>
    </AuthLayout>
  );
}
