import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { SMS_CODE_LENGTH } from '@portcullis/contract';
import { isApiError } from '../../../shared/api/client';
import { mobileRules, smsCodeRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useSendSmsMutation, useVerifyMobileMutation } from '../api';

export const MOBILE_PANEL = 'panel/personal-security/mobile';

/** Seconds before another code may be asked for. */
const RESEND_SECONDS = 60;

interface MobileForm {
  mobile: string;
  code: string;
}

/** Bind or change the mobile number: send a 6-digit code to it, then verify the code. */
export function MobilePanel({ current }: { current: string }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [form] = Form.useForm<MobileForm>();
  const send = useSendSmsMutation();
  const verify = useVerifyMobileMutation();
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const onSend = async (): Promise<void> => {
    try {
      const { mobile } = await form.validateFields(['mobile']);
      send.mutate(mobile, {
        onSuccess: () => {
          setWait(RESEND_SECONDS);
          void message.success(t('personal-security.mobile.sent'));
        },
        onError: (error) => void message.error(errorText(error)),
      });
    } catch {
      // The field shows its own message.
    }
  };

  return (
    <RightPanel
      panelKey={MOBILE_PANEL}
      title={t(
        current ? 'personal-security.mobile.changeTitle' : 'personal-security.mobile.bindTitle',
      )}
      onAfterClose={() => setWait(0)}
    >
      <Form<MobileForm>
        form={form}
        layout="vertical"
        onFinish={(v) =>
          verify.mutate(v, {
            onSuccess: () => {
              void message.success(t('messages.updateSuccess'));
              panel.close(MOBILE_PANEL);
            },
            onError: (error) =>
              void message.error(
                isApiError(error, 'VerificationCodeIncorrect') || isApiError(error, 'VerifyFailed')
                  ? t('messages.verificationCodeError')
                  : errorText(error),
              ),
          })
        }
      >
        <Form.Item
          name="mobile"
          label={t('personal-security.mobile.number')}
          rules={mobileRules(current, t)}
        >
          <Input type="tel" autoComplete="tel" autoFocus />
        </Form.Item>
        <Form.Item label={t('personal-security.mobile.code')} required>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={smsCodeRules(t)}>
              <Input
                inputMode="numeric"
                maxLength={SMS_CODE_LENGTH}
                autoComplete="one-time-code"
                aria-label={t('personal-security.mobile.code')}
              />
            </Form.Item>
            <Button onClick={() => void onSend()} disabled={wait > 0} loading={send.isPending}>
              {wait > 0
                ? t('personal-security.mobile.resendIn', { count: wait })
                : t('personal-security.mobile.send')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Space>
          <Button onClick={() => panel.close(MOBILE_PANEL)}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={verify.isPending}>
            {t('common.action.confirm')}
          </Button>
        </Space>
      </Form>
    </RightPanel>
  );
}
