/**
 * Binding a virtual MFA (TOTP) device: an optional instructions step, then the secret as a
 * 150 px QR code or as text to type in, then two consecutive 6-digit codes confirmed with
 * POST /account/mfa. Used by /mfaOpen (a team that requires MFA) and by Account security.
 */
import { useState, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Form,
  Input,
  Space,
  Spin,
  Steps,
  Tabs,
  Typography,
} from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountRoutes, MFA_CODE_LENGTH } from '@portcullis/contract';
import { apiUrl, callApi } from '../api/client';
import { useErrorText } from '../i18n/errors';
import { mfaCodeRules } from '../form/rules';

export interface MfaBindingProps {
  /** Start with the step that explains what an authenticator app is. */
  withInstructions?: boolean;
  onBound: () => void | Promise<void>;
  onCancel: () => void;
}

interface CodesForm {
  first_code: string;
  second_code: string;
}

export function MfaBinding({
  withInstructions = false,
  onBound,
  onCancel,
}: MfaBindingProps): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const steps = withInstructions
    ? (['intro', 'bind', 'verify'] as const)
    : (['bind', 'verify'] as const);
  const [index, setIndex] = useState(0);
  const [nonce] = useState(() => Date.now().toString(36));
  const [form] = Form.useForm<CodesForm>();
  const step = steps[index] ?? 'bind';

  const secret = useQuery({
    queryKey: ['mfa_secret', nonce],
    queryFn: () => callApi(accountRoutes.mfaSecret),
    staleTime: Infinity,
    enabled: step !== 'intro',
  });

  const bind = useMutation({
    mutationFn: (codes: CodesForm) =>
      callApi(accountRoutes.accountMfa, {
        body: {
          first_code: codes.first_code.trim(),
          second_code: codes.second_code.trim(),
          otp_enabled: 1,
        },
      }),
    meta: { silent: true },
    onSuccess: async () => {
      void message.success(t('common.mfa.bound'));
      await onBound();
    },
    onError: (error) => void message.error(errorText(error)),
  });

  const next = (): void => setIndex((i) => Math.min(i + 1, steps.length - 1));
  const back = (): void => setIndex((i) => Math.max(i - 1, 0));

  return (
    <div className="pc-mfa-binding">
      <Steps
        size="small"
        current={index}
        items={steps.map((s) => ({ title: t(`common.mfa.step.${s}`) }))}
        className="pc-mfa-binding__steps"
      />

      {step === 'intro' ? (
        <div>
          <Typography.Paragraph>{t('common.mfa.intro.what')}</Typography.Paragraph>
          <Typography.Paragraph>{t('common.mfa.intro.apps')}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('common.mfa.intro.keep')}</Typography.Paragraph>
          <Space>
            <Button onClick={onCancel}>{t('common.action.cancel')}</Button>
            <Button type="primary" onClick={next}>
              {t('common.action.next')}
            </Button>
          </Space>
        </div>
      ) : null}

      {step === 'bind' ? (
        <div>
          <Tabs
            items={[
              {
                key: 'scan',
                label: t('common.mfa.tab.scan'),
                children: (
                  <div className="pc-mfa-binding__qr">
                    <img
                      src={apiUrl(accountRoutes.mfaImg, undefined, { t: nonce })}
                      width={150}
                      height={150}
                      alt={t('common.mfa.qrAlt')}
                    />
                    <Typography.Paragraph type="secondary">
                      {t('common.mfa.scanHint')}
                    </Typography.Paragraph>
                  </div>
                ),
              },
              {
                key: 'manual',
                label: t('common.mfa.tab.manual'),
                children: secret.isPending ? (
                  <Spin />
                ) : secret.isError ? (
                  <Alert type="error" showIcon title={errorText(secret.error)} />
                ) : (
                  <div>
                    <Typography.Paragraph type="secondary">
                      {t('common.mfa.manualHint')}
                    </Typography.Paragraph>
                    <Descriptions
                      column={1}
                      size="small"
                      bordered
                      items={[
                        {
                          key: 'issuer',
                          label: t('common.mfa.issuer'),
                          children: secret.data.issuer,
                        },
                        {
                          key: 'account',
                          label: t('common.mfa.account'),
                          children: secret.data.account,
                        },
                        {
                          key: 'secret',
                          label: t('common.mfa.secret'),
                          children: (
                            <Typography.Text
                              code
                              copyable={{
                                onCopy: () => void message.success(t('messages.copySuccess')),
                              }}
                            >
                              {secret.data.secret}
                            </Typography.Text>
                          ),
                        },
                        {
                          key: 'type',
                          label: t('common.mfa.type'),
                          children: t('common.mfa.typeTotp'),
                        },
                      ]}
                    />
                  </div>
                ),
              },
            ]}
          />
          <Space>
            {index > 0 ? <Button onClick={back}>{t('common.action.back')}</Button> : null}
            <Button onClick={onCancel}>{t('common.action.cancel')}</Button>
            <Button type="primary" onClick={next}>
              {t('common.action.next')}
            </Button>
          </Space>
        </div>
      ) : null}

      {step === 'verify' ? (
        <Form<CodesForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => bind.mutate(values)}
        >
          <Typography.Paragraph type="secondary">{t('common.mfa.verifyHint')}</Typography.Paragraph>
          <Form.Item name="first_code" label={t('common.mfa.firstCode')} rules={mfaCodeRules(t)}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={MFA_CODE_LENGTH}
              placeholder={t('messages.mfaCode')}
            />
          </Form.Item>
          <Form.Item name="second_code" label={t('common.mfa.secondCode')} rules={mfaCodeRules(t)}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={MFA_CODE_LENGTH}
              placeholder={t('messages.mfaCode')}
            />
          </Form.Item>
          <Space>
            <Button onClick={back}>{t('common.action.back')}</Button>
            <Button onClick={onCancel}>{t('common.action.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={bind.isPending}>
              {t('common.action.confirm')}
            </Button>
          </Space>
        </Form>
      ) : null}
    </div>
  );
}
