import type { ReactNode } from 'react';
import { App, Button, Form, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProjectResource } from '@portcullis/contract';
import { pickRules } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useLoginUsernamesMutation } from '../api';

export const LOGIN_USERS_PANEL = 'panel/workgroup-admin/login-users';

interface LoginUsersForm {
  login_username: string[];
}

/**
 * Change host login user (spec 2 §2, §5): which of the server's login users this workgroup
 * grants, at least one.
 */
export function LoginUsersPanel({ resource }: { resource: ProjectResource | null }): ReactNode {
  const { t } = useTranslation();
  return (
    <RightPanel panelKey={LOGIN_USERS_PANEL} title={t('workgroup-admin.loginUsers.title')}>
      {resource ? <LoginUsersForm key={resource.project_resource_id} resource={resource} /> : null}
    </RightPanel>
  );
}

function LoginUsersForm({ resource }: { resource: ProjectResource }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const change = useLoginUsernamesMutation();
  const all = resource.resource.extension.username;
  return (
    <Form<LoginUsersForm>
      layout="vertical"
      initialValues={{ login_username: resource.resource.extension.login_username }}
      onFinish={(values) =>
        change.mutate(
          { projectResourceId: resource.project_resource_id, usernames: values.login_username },
          {
            onSuccess: () => {
              void message.success(t('messages.changeSuccess'));
              panel.close(LOGIN_USERS_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          },
        )
      }
    >
      <Typography.Paragraph type="secondary">
        {t('workgroup-admin.loginUsers.hint', { name: resource.name, ip: resource.ip })}
      </Typography.Paragraph>
      <Form.Item
        name="login_username"
        label={t('workgroup-admin.loginUsers.label')}
        rules={pickRules(t('workgroup-admin.rules.loginUserRequired'))}
      >
        <Select
          mode="multiple"
          allowClear
          placeholder={t('workgroup-admin.loginUsers.placeholder')}
          options={all.map((u) => ({ value: u, label: u }))}
          notFoundContent={t('messages.noData')}
        />
      </Form.Item>
      <Space>
        <Button onClick={() => panel.close(LOGIN_USERS_PANEL)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          {t('common.action.save')}
        </Button>
      </Space>
    </Form>
  );
}
