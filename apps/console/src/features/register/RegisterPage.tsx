/**
 * Register a team (spec 1 §2.3, §3): the new administrator's e-mail and nickname, the team's
 * contact details, team ID and company name, and a captcha. The server mails the administrator
 * a link to set the password.
 */
import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authRoutes, NAME_MAX, TEAM_ID_MAX, type RegisterBody } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { CaptchaImage, useCaptcha } from '../../shared/components/CaptchaImage';
import { emailRules, nameRules, requiredRule, teamIdRules } from '../../shared/form/rules';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { PATHS } from '../../shared/routes';

interface RegisterForm {
  email: string;
  nickname: string;
  contact_address: string;
  mobile?: string;
  domain: string;
  company: string;
  captcha: string;
}

const COMPANY_MAX = 100;
const ADDRESS_MAX = 200;
const PHONE_MAX = 32;

function toBody(v: RegisterForm): RegisterBody {
  const email = v.email.trim();
  const nickname = v.nickname.trim();
  return {
    captcha: v.captcha.trim(),
    company: {
      domain: v.domain.trim(),
      email,
      full_name: v.company.trim(),
      contact_name: nickname,
      contact_address: v.contact_address.trim(),
      contact_phone: (v.mobile ?? '').trim(),
    },
    account: { account: email, name: nickname },
  };
}

export function RegisterPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const captcha = useCaptcha();
  const [form] = Form.useForm<RegisterForm>();

  const mutation = useMutation({
    mutationFn: (body: RegisterBody) => callApi(authRoutes.register, { body }),
    meta: { silent: true },
    onSuccess: () => {
      void message.success(t('messages.registerSuccess'));
      navigate(PATHS.login);
    },
    onError: (error) => {
      captcha.refresh();
      form.setFieldValue('captcha', '');
      void message.error(`${t('messages.registerFailed')} ${errorText(error)}`);
    },
  });

  return (
    <AuthLayout title={t('register.page.title')} subtitle={t('register.page.subtitle')} width={520}>
      <Form<RegisterForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark
        onFinish={(v) => mutation.mutate(toBody(v))}
      >
        <Form.Item name="email" label={t('register.form.email')} rules={emailRules(t)}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="nickname" label={t('register.form.nickname')} rules={nameRules(t)}>
          <Input autoComplete="name" count={{ show: true, max: NAME_MAX }} />
        </Form.Item>
        <Form.Item
          name="contact_address"
          label={t('register.form.address')}
          rules={[
            requiredRule(t('register.form.addressRequired')),
            { max: ADDRESS_MAX, message: t('register.form.tooLong', { max: ADDRESS_MAX }) },
          ]}
        >
          <Input autoComplete="street-address" />
        </Form.Item>
        <Form.Item
          name="mobile"
          label={t('register.form.mobile')}
          rules={[{ max: PHONE_MAX, message: t('register.form.tooLong', { max: PHONE_MAX }) }]}
        >
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          name="domain"
          label={t('register.form.domain')}
          extra={t('register.form.domainHint')}
          rules={teamIdRules(t)}
        >
          <Input maxLength={TEAM_ID_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="company"
          label={t('register.form.company')}
          rules={[
            requiredRule(t('register.form.companyRequired')),
            { max: COMPANY_MAX, message: t('register.form.tooLong', { max: COMPANY_MAX }) },
          ]}
        >
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item label={t('register.form.captcha')} required>
          <Space.Compact block>
            <Form.Item
              name="captcha"
              noStyle
              rules={[requiredRule(t('register.form.captchaRequired'))]}
            >
              <Input autoComplete="off" aria-label={t('register.form.captcha')} />
            </Form.Item>
            <CaptchaImage nonce={captcha.nonce} onRefresh={captcha.refresh} />
          </Space.Compact>
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={mutation.isPending}>
            {t('register.form.submit')}
          </Button>
        </Form.Item>
      </Form>
      <div className="pc-auth__links">
        <span>{t('register.links.haveAccount')}</span>
        <Link to={PATHS.login}>{t('register.links.login')}</Link>
      </div>
    </AuthLayout>
  );
}
