/**
 * Login (spec 1 §2.2): team ID, account, password and, when the server asks for it, a captcha.
 * Once team and account are filled (debounced) the page asks whether a captcha is needed and
 * whether single sign-on is open for the team. A successful reply is routed by nextLoginStep.
 *
 * Single sign-on comes back here as `/login?sso_token=…`: the page takes the single-use
 * credential out of the address at once (so it is neither kept in history nor shown), trades
 * it for a session with POST /auth/pw_sso/{token}, and follows the reply like a password login.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, Divider, Form, Input, Space } from 'antd';
import {
  LockOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { landingPath } from '@portcullis/contract';
import { isApiError } from '../../shared/api/client';
import { CaptchaImage, useCaptcha } from '../../shared/components/CaptchaImage';
import { loginPasswordRules, requiredRule } from '../../shared/form/rules';
import { useDebounced } from '../../shared/hooks/useDebounced';
import { useErrorText } from '../../shared/i18n/errors';
import { AuthLayout } from '../../shared/layout/AuthLayout';
import { PATHS } from '../../shared/routes';
import {
  fetchCurrentAccount,
  pendingStepPath,
  roleOf,
  useContinueLogin,
} from '../../shared/session/session';
import { exchangeSsoToken, login, useShowCaptchaQuery, useSsoQuery } from './api';

interface LoginForm {
  domain: string;
  username: string;
  password: string;
  captcha?: string;
}

const LAST_DOMAIN_KEY = 'portcullis.lastDomain';
const PROBE_DEBOUNCE_MS = 400;

function lastDomain(): string {
  try {
    return localStorage.getItem(LAST_DOMAIN_KEY) ?? '';
  } catch {
    return '';
  }
}

export function LoginPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const continueLogin = useContinueLogin();
  const [form] = Form.useForm<LoginForm>();
  const values = Form.useWatch([], form) as Partial<LoginForm> | undefined;
  const domain = useDebounced((values?.domain ?? '').trim(), PROBE_DEBOUNCE_MS);
  const username = useDebounced((values?.username ?? '').trim(), PROBE_DEBOUNCE_MS);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ssoToken = params.get('sso_token');
  const ssoStarted = useRef(false);
  const [forceCaptcha, setForceCaptcha] = useState(false);
  // An SSO return is a sign-in under way: no probe for an older session meanwhile.
  const [submitted, setSubmitted] = useState(() => ssoToken !== null);
  const [submittable, setSubmittable] = useState(false);
  const captcha = useCaptcha();

  // An already signed-in browser goes where it belongs (spec 1 §2.1).
  const probe = useQuery({
    queryKey: ['current_account', 'login-probe'],
    queryFn: fetchCurrentAccount,
    enabled: !submitted,
    staleTime: 0,
    gcTime: 0,
    meta: { silent: true },
  });

  const showCaptcha = useShowCaptchaQuery(domain, username);
  const sso = useSsoQuery(domain !== '' && username !== '' ? domain : '');
  const captchaVisible = forceCaptcha || showCaptcha.data === true;

  useEffect(() => {
    if (sso.isError) void message.warning(t('messages.checkSsoFailed'));
  }, [sso.isError, message, t]);

  useEffect(() => {
    let live = true;
    form.validateFields({ validateOnly: true }).then(
      () => live && setSubmittable(true),
      () => live && setSubmittable(false),
    );
    return () => {
      live = false;
    };
  }, [form, values, captchaVisible]);

  const ssoExchange = useMutation({
    mutationFn: exchangeSsoToken,
    meta: { silent: true },
    onSuccess: (reply) => continueLogin(reply),
    onError: () => {
      setSubmitted(false);
      void message.error(t('messages.checkSsoFailed'));
    },
  });
  const { mutate: exchange } = ssoExchange;

  useEffect(() => {
    // Once per page: the credential is single-use (and StrictMode runs effects twice).
    if (ssoToken === null || ssoStarted.current) return;
    ssoStarted.current = true;
    navigate(PATHS.login, { replace: true });
    exchange(ssoToken);
  }, [ssoToken, navigate, exchange]);

  const mutation = useMutation({
    mutationFn: login,
    meta: { silent: true },
    onSuccess: async (reply, body) => {
      try {
        localStorage.setItem(LAST_DOMAIN_KEY, body.domain);
      } catch {
        // Only a convenience.
      }
      await continueLogin(reply);
    },
    onError: (error) => {
      setSubmitted(false);
      if (isApiError(error, 'CaptchaIncorrect')) setForceCaptcha(true);
      // Each captcha answers once: a failed attempt needs a new picture.
      captcha.refresh();
      form.setFieldValue('captcha', '');
      void showCaptcha.refetch();
      void message.error(errorText(error));
    },
  });

  if (probe.data && !submitted) {
    return <Navigate to={pendingStepPath(probe.data) ?? landingPath(roleOf(probe.data))} replace />;
  }

  const onFinish = (v: LoginForm): void => {
    setSubmitted(true);
    mutation.mutate({
      domain: v.domain.trim(),
      username: v.username.trim(),
      password: v.password,
      captcha: captchaVisible ? (v.captcha ?? '').trim() : '',
    });
  };

  return (
    <AuthLayout title={t('login.page.title')} subtitle={t('login.page.subtitle')}>
      <Form<LoginForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ domain: lastDomain() }}
        onFinish={onFinish}
        aria-label={t('login.page.title')}
      >
        <Form.Item
          name="domain"
          label={t('login.form.domain')}
          rules={[requiredRule(t('login.form.domainRequired'))]}
        >
          <Input
            prefix={<TeamOutlined />}
            autoComplete="organization"
            placeholder={t('login.form.domainPlaceholder')}
          />
        </Form.Item>
        <Form.Item
          name="username"
          label={t('login.form.username')}
          rules={[requiredRule(t('login.form.usernameRequired'))]}
        >
          <Input
            prefix={<UserOutlined />}
            autoComplete="username"
            placeholder={t('login.form.usernamePlaceholder')}
          />
        </Form.Item>
        <Form.Item name="password" label={t('login.form.password')} rules={loginPasswordRules(t)}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        {captchaVisible ? (
          <Form.Item label={t('login.form.captcha')} required>
            <Space.Compact block>
              <Form.Item
                name="captcha"
                noStyle
                rules={[requiredRule(t('login.form.captchaRequired'))]}
              >
                <Input
                  prefix={<SafetyCertificateOutlined />}
                  autoComplete="off"
                  aria-label={t('login.form.captcha')}
                />
              </Form.Item>
              <CaptchaImage nonce={captcha.nonce} onRefresh={captcha.refresh} />
            </Space.Compact>
          </Form.Item>
        ) : null}
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            disabled={!submittable}
            loading={
              mutation.isPending ||
              ssoExchange.isPending ||
              (submitted && (mutation.isSuccess || ssoExchange.isSuccess))
            }
          >
            {t('login.form.submit')}
          </Button>
        </Form.Item>
      </Form>
      {sso.data?.is_open_sso && sso.data.sso_service ? (
        <>
          <Divider plain>{t('login.sso.or')}</Divider>
          <Button block href={sso.data.sso_service} icon={<SafetyCertificateOutlined />}>
            {t('login.sso.button')}
          </Button>
        </>
      ) : null}
      {probe.isError && !isApiError(probe.error) ? (
        <Alert type="warning" showIcon title={errorText(probe.error)} />
      ) : null}
      <div className="pc-auth__links">
        <Link to={PATHS.forgotPassword}>{t('login.links.forgot')}</Link>
        <Link to={PATHS.register}>{t('login.links.register')}</Link>
      </div>
    </AuthLayout>
  );
}
