import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { NAME_MAX } from '@portcullis/contract';
import { nameRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useUpdateNameMutation } from '../api';

export const EDIT_NAME_PANEL = 'panel/personal-info/edit-name';

interface NameForm {
  name: string;
}

/** The right-hand panel that changes the account's name. */
export function EditNamePanel({ current }: { current: string }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useUpdateNameMutation();
  return (
    <RightPanel panelKey={EDIT_NAME_PANEL} title={t('personal-info.name.panelTitle')}>
      <Form<NameForm>
        layout="vertical"
        initialValues={{ name: current }}
        onFinish={(v) =>
          mutation.mutate(v.name, {
            onSuccess: () => {
              void message.success(t('messages.updateSuccess'));
              panel.close(EDIT_NAME_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          })
        }
      >
        <Form.Item name="name" label={t('personal-info.field.name')} rules={nameRules(t)}>
          <Input count={{ show: true, max: NAME_MAX }} autoFocus />
        </Form.Item>
        <Space>
          <Button onClick={() => panel.close(EDIT_NAME_PANEL)}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('common.action.save')}
          </Button>
        </Space>
      </Form>
    </RightPanel>
  );
}
