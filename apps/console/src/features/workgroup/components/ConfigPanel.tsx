/**
 * Config (spec 1 §2.7): the member's default login user for a Linux or Windows server, the one
 * Connect and a code use when no other is named. The choice is among the login users this
 * workgroup grants; it is the member's own and changes nobody else's.
 */
import { useEffect, type ReactNode } from 'react';
import { App, Button, Descriptions, Empty, Form, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProjectResource } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { requiredRule } from '../../../shared/form/rules';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useDefaultUsernameMutation } from '../api';

export const CONFIG_PANEL = 'panel/workgroup/config';

export function ConfigPanel({
  resource,
  projectId,
}: {
  resource: ProjectResource | null;
  projectId: number;
}): ReactNode {
  const { t } = useTranslation();
  const panel = usePanel();
  const title = t(
    resource?.os === 'win32' ? 'workgroup.config.titleWindows' : 'workgroup.config.titleLinux',
  );
  return (
    <RightPanel panelKey={CONFIG_PANEL} title={title}>
      {resource ? (
        <ConfigForm
          resource={resource}
          projectId={projectId}
          onDone={() => panel.close(CONFIG_PANEL)}
        />
      ) : null}
    </RightPanel>
  );
}

function ConfigForm({
  resource,
  projectId,
  onDone,
}: {
  resource: ProjectResource;
  projectId: number;
  onDone: () => void;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<{ username: string }>();
  const mutation = useDefaultUsernameMutation(projectId);
  const users = resource.login_user;

  useEffect(() => {
    form.setFieldsValue({ username: resource.default_username || undefined });
  }, [form, resource.id, resource.default_username]);

  return (
    <>
      <Descriptions
        column={1}
        size="small"
        className="pc-workgroup-config__info"
        items={[
          { key: 'name', label: t('workgroup.resources.col.name'), children: resource.name },
          {
            key: 'ip',
            label: t('workgroup.resources.col.ip'),
            children: `${resource.ip}:${resource.port}`,
          },
          {
            key: 'os',
            label: t('workgroup.config.os'),
            children: t(`workgroup.os.${resource.os}`),
          },
        ]}
      />
      {users.length === 0 ? (
        <Empty description={t('workgroup.config.noUsers')} />
      ) : (
        <Form<{ username: string }>
          form={form}
          layout="vertical"
          onFinish={({ username }) =>
            mutation.mutate(
              { id: resource.id, username },
              {
                onSuccess: () => {
                  void message.success(t('messages.updateSuccess'));
                  onDone();
                },
                onError: (error) => void message.error(errorText(error)),
              },
            )
          }
        >
          <Form.Item
            name="username"
            label={t('workgroup.config.username')}
            extra={t('workgroup.config.usernameHint')}
            rules={[requiredRule(t('workgroup.config.usernameRequired'))]}
          >
            <Select
              showSearch
              placeholder={t('workgroup.config.usernamePlaceholder')}
              options={users.map((u) => ({ value: u, label: u }))}
            />
          </Form.Item>
          <Space>
            <Button onClick={onDone}>{t('common.action.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={mutation.isPending}>
              {t('common.action.save')}
            </Button>
          </Space>
        </Form>
      )}
    </>
  );
}
