import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  confirmPasswordRules,
  passwordLevelHint,
  passwordRules,
  toPasswordLevel,
} from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useChangePasswordMutation } from '../api';

export const CHANGE_PASSWORD_PANEL = 'panel/personal-security/password';

interface PasswordForm {
  pwd: string;
  confirm: string;
}

/** New password and its repeat, under the team's strength level. */
export function ChangePasswordPanel({ level }: { level: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useChangePasswordMutation();
  const strength = toPasswordLevel(level);
  const hint = passwordLevelHint(strength, t);
  return (
    <RightPanel panelKey={CHANGE_PASSWORD_PANEL} title={t('personal-security.password.panelTitle')}>
      <Form<PasswordForm>
        layout="vertical"
        onFinish={(v) =>
          mutation.mutate(v.pwd, {
            onSuccess: () => {
              void message.success(t('messages.changeSuccess'));
              panel.close(CHANGE_PASSWORD_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          })
        }
      >
        <Form.Item
          name="pwd"
          label={t('personal-security.password.new')}
          extra={hint || undefined}
          rules={passwordRules(strength, t)}
        >
          <Input.Password autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('personal-security.password.confirm')}
          dependencies={['pwd']}
          rules={confirmPasswordRules('pwd', t)}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Space>
          <Button onClick={() => panel.close(CHANGE_PASSWORD_PANEL)}>
            {t('common.action.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('common.action.save')}
          </Button>
        </Space>
      </Form>
    </RightPanel>
  );
}
