import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MFA_CODE_LENGTH } from '@portcullis/contract';
import { mfaCodeRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { MfaBinding } from '../../../shared/mfa/MfaBinding';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { sessionKeys } from '../../../shared/session/session';
import { useDisableMfaMutation } from '../api';

export const MFA_PANEL = 'panel/personal-security/mfa';

interface CodesForm {
  first_code: string;
  second_code: string;
}

/** Open the virtual MFA (bind a new secret) or close it (two consecutive current codes). */
export function MfaPanel({ mode }: { mode: 'open' | 'close' }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const queryClient = useQueryClient();
  const disable = useDisableMfaMutation();
  const enabled = mode === 'close';
  const close = (): void => panel.close(MFA_PANEL);

  return (
    <RightPanel
      panelKey={MFA_PANEL}
      title={t(enabled ? 'personal-security.mfa.closeTitle' : 'personal-security.mfa.openTitle')}
      width={560}
    >
      {enabled ? (
        <Form<CodesForm>
          layout="vertical"
          onFinish={(v) =>
            disable.mutate(v, {
              onSuccess: () => {
                void message.success(t('personal-security.mfa.closed'));
                close();
              },
              onError: (error) => void message.error(errorText(error)),
            })
          }
        >
          <Typography.Paragraph type="secondary">
            {t('personal-security.mfa.closeHint')}
          </Typography.Paragraph>
          <Form.Item name="first_code" label={t('common.mfa.firstCode')} rules={mfaCodeRules(t)}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={MFA_CODE_LENGTH}
              autoFocus
            />
          </Form.Item>
          <Form.Item name="second_code" label={t('common.mfa.secondCode')} rules={mfaCodeRules(t)}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={MFA_CODE_LENGTH} />
          </Form.Item>
          <Space>
            <Button onClick={close}>{t('common.action.cancel')}</Button>
            <Button type="primary" danger htmlType="submit" loading={disable.isPending}>
              {t('personal-security.mfa.closeSubmit')}
            </Button>
          </Space>
        </Form>
      ) : (
        <MfaBinding
          onBound={async () => {
            await queryClient.invalidateQueries({ queryKey: sessionKeys.currentAccount });
            close();
          }}
          onCancel={close}
        />
      )}
    </RightPanel>
  );
}
