import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SSH_KEY_NAME_MAX } from '@portcullis/contract';
import { sshKeyNameRules, sshKeyRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCreateSshKeyMutation } from '../api';

export const ADD_SSH_KEY_PANEL = 'panel/personal-sshkey/add';

interface KeyForm {
  title: string;
  pubkey: string;
}

/** The 'Add SSH KEY' panel: a name and an OpenSSH public key (the server checks it is real). */
export function AddSshKeyPanel(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useCreateSshKeyMutation();
  return (
    <RightPanel panelKey={ADD_SSH_KEY_PANEL} title={t('personal-sshkey.add.title')} width={560}>
      <Form<KeyForm>
        layout="vertical"
        onFinish={(v) =>
          mutation.mutate(v, {
            onSuccess: () => {
              void message.success(t('messages.addSuccess'));
              panel.close(ADD_SSH_KEY_PANEL);
            },
            onError: (error) =>
              void message.error(t('personal-sshkey.add.failed', { reason: errorText(error) })),
          })
        }
      >
        <Form.Item name="title" label={t('personal-sshkey.add.name')} rules={sshKeyNameRules(t)}>
          <Input count={{ show: true, max: SSH_KEY_NAME_MAX }} autoFocus />
        </Form.Item>
        <Form.Item
          name="pubkey"
          label={t('personal-sshkey.add.key')}
          rules={sshKeyRules(t)}
          extra={
            <Typography.Text type="secondary">{t('personal-sshkey.add.keyHint')}</Typography.Text>
          }
        >
          <Input.TextArea
            rows={6}
            spellCheck={false}
            placeholder={t('personal-sshkey.add.keyPlaceholder')}
          />
        </Form.Item>
        <Space>
          <Button onClick={() => panel.close(ADD_SSH_KEY_PANEL)}>
            {t('common.action.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('personal-sshkey.add.submit')}
          </Button>
        </Space>
      </Form>
    </RightPanel>
  );
}
