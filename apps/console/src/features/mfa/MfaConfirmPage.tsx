/** MFA confirm (spec 1 §2.3): the second step of a login for an account with MFA bound. */
import type { ReactNode } from 'react';
import { App, Button, Form, Input } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authRoutes, MFA_CODE_LENGTH } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { mfaCodeRules } from '../../shared/form/rules';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { useContinueLogin, useLogout } from '../../shared/session/session';

interface CodeForm {
  code: string;
}

export function MfaConfirmPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const continueLogin = useContinueLogin();
  const { logout } = useLogout();
  const [form] = Form.useForm<CodeForm>();

  const mutation = useMutation({
    mutationFn: (code: string) => callApi(authRoutes.mfa, { body: { code } }),
    meta: { silent: true },
    onSuccess: (reply) => continueLogin(reply, { afterOtp: true }),
    onError: (error) => {
      form.setFieldValue('code', '');
      void message.error(errorText(error));
    },
  });

  return (
    <AuthLayout title={t('mfa.confirm.title')} subtitle={t('mfa.confirm.subtitle')} width={400}>
      <Form<CodeForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={(v) => mutation.mutate(v.code.trim())}
      >
        <Form.Item name="code" label={t('mfa.confirm.code')} rules={mfaCodeRules(t)}>
          <Input
            prefix={<SafetyOutlined />}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={MFA_CODE_LENGTH}
            placeholder={t('messages.mfaCode')}
            autoFocus
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={mutation.isPending}>
            {t('mfa.confirm.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div className="pc-auth__links">
        <Button type="link" onClick={() => void logout()}>
          {t('mfa.confirm.backToLogin')}
        </Button>
      </div>
    </AuthLayout>
  );
}
