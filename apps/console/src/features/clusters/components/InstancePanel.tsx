import type { ReactNode } from 'react';
import { App, Button, Form, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { INSTANCE_OS, type Resource } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCreateResourceMutation, useUpdateResourceMutation } from '../api';
import {
  innerIpRules,
  OS_DEFAULTS,
  portRules,
  resourceNameRules,
  splitUsernames,
  usernamesRules,
} from '../rules';

export const ADD_INSTANCE_PANEL = 'panel/clusters/add-instance';
export const INSTANCE_SETTING_PANEL = 'panel/clusters/instance-setting';

type InstanceOs = (typeof INSTANCE_OS)[number];
type AuthType = 0 | 1 | 2;

export interface InstanceValues {
  name: string;
  ip_address: string;
  os: InstanceOs;
  port: number;
  usernames: string;
  auth_type: AuthType;
  password?: string;
}

export const INSTANCE_DEFAULTS: InstanceValues = {
  name: '',
  ip_address: '',
  os: 'linux',
  port: OS_DEFAULTS.linux.port,
  usernames: OS_DEFAULTS.linux.username ?? '',
  auth_type: 0,
};

export interface InstancePanelProps {
  clusterId: number;
  /** The server to edit (Instance setting); without one the panel adds a server. */
  resource?: Resource | null;
}

/**
 * Add Instance and Instance setting (spec 2 §5): name, inner IP (four groups of digits or *),
 * Linux or Windows (picking one sets port 22 and root, or 3389 and administrator), login users
 * separated by ';', port 0-65535, and how they authenticate with a host password.
 */
export function InstancePanel({ clusterId, resource }: InstancePanelProps): ReactNode {
  const { t } = useTranslation();
  const editing = resource !== undefined;
  const panelKey = editing ? INSTANCE_SETTING_PANEL : ADD_INSTANCE_PANEL;
  return (
    <RightPanel
      panelKey={panelKey}
      title={t(editing ? 'clusters.instance.editTitle' : 'clusters.instance.addTitle')}
      width={520}
    >
      {editing && !resource ? null : (
        <InstanceForm clusterId={clusterId} resource={resource ?? undefined} panelKey={panelKey} />
      )}
    </RightPanel>
  );
}

export function InstanceForm({
  clusterId,
  resource,
  panelKey,
}: {
  clusterId: number;
  resource: Resource | undefined;
  panelKey: string;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const create = useCreateResourceMutation(clusterId);
  const update = useUpdateResourceMutation(clusterId);
  const [form] = Form.useForm<InstanceValues>();
  const authType = Form.useWatch('auth_type', form) ?? 0;
  const results = resource?.extension.data.map((d) => d.test_result) ?? [];
  // SSH key and team-account login need a test that did not fail (spec 2 §4).
  const keyLocked = resource ? results.some((r) => r === 'disable' || r === 'pending') : false;

  const initial: InstanceValues = resource
    ? {
        name: resource.name,
        ip_address: resource.ip_address,
        os: resource.os === 'win32' ? 'win32' : 'linux',
        port: resource.port,
        usernames: resource.extension.username.join(';'),
        auth_type: (resource.extension.data[0]?.auth_type ?? 0) as AuthType,
      }
    : INSTANCE_DEFAULTS;

  const onOsChange = (os: InstanceOs): void => {
    const defaults = OS_DEFAULTS[os];
    form.setFieldsValue({ port: defaults.port, usernames: defaults.username ?? '' });
  };

  const onDone = (text: string) => ({
    onSuccess: () => {
      void message.success(t(text));
      panel.close(panelKey);
    },
    onError: (error: Error) => void message.error(errorText(error)),
  });

  const onFinish = (values: InstanceValues): void => {
    const password = values.auth_type === 0 && values.password ? values.password : undefined;
    const login_users = splitUsernames(values.usernames).map((username) => ({
      username,
      auth_type: values.auth_type,
      ...(password !== undefined && { password }),
    }));
    if (resource) {
      update.mutate(
        {
          resourceId: resource.id,
          body: {
            name: values.name.trim(),
            ip_address: values.ip_address.trim(),
            port: values.port,
            login_users,
          },
        },
        onDone('messages.updateSuccess'),
      );
    } else {
      create.mutate(
        {
          network_id: clusterId,
          name: values.name.trim(),
          ip_address: values.ip_address.trim(),
          os: values.os,
          port: values.port,
          login_users,
        },
        onDone('messages.addSuccess'),
      );
    }
  };

  return (
    <Form<InstanceValues> form={form} layout="vertical" initialValues={initial} onFinish={onFinish}>
      <Form.Item name="name" label={t('clusters.instance.name')} rules={resourceNameRules(t)}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="ip_address" label={t('clusters.instance.ip')} rules={innerIpRules(t)}>
        <Input autoComplete="off" placeholder="192.168.1.10" />
      </Form.Item>
      <Form.Item name="os" label={t('clusters.instance.os')} rules={[{ required: true }]}>
        <Radio.Group
          disabled={resource !== undefined}
          onChange={(e) => onOsChange(e.target.value as InstanceOs)}
          options={INSTANCE_OS.map((os) => ({ value: os, label: t(`clusters.os.${os}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="usernames"
        label={t('clusters.instance.usernames')}
        extra={t('clusters.instance.usernamesHint')}
        rules={usernamesRules(t)}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="port" label={t('clusters.instance.port')} rules={portRules(t)}>
        <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="auth_type" label={t('clusters.instance.auth')}>
        <Select<AuthType>
          options={([0, 1, 2] as const).map((value) => ({
            value,
            label: t(`clusters.auth.${value}`),
            disabled: value !== 0 && keyLocked,
          }))}
        />
      </Form.Item>
      {authType === 0 ? (
        <Form.Item
          name="password"
          label={t('clusters.instance.password')}
          extra={resource ? t('clusters.instance.passwordKeep') : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      ) : (
        <Typography.Paragraph type="secondary">
          {t(`clusters.instance.authHint${authType}`)}
        </Typography.Paragraph>
      )}
      <Space>
        <Button onClick={() => panel.close(panelKey)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
          {t(resource ? 'common.action.save' : 'common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
