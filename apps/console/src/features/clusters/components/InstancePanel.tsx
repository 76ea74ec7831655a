import type { ReactNode } from 'react';
import { App, Button, Form, Input, InputNumber, Radio, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { INSTANCE_OS, type Resource } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCreateResourceMutation, useUpdateResourceMutation } from '../api';
import { loginUsersBody, savedRows, syncRows, type LoginRow } from '../login-users';
import { innerIpRules, OS_DEFAULTS, portRules, resourceNameRules, usernamesRules } from '../rules';
import { HostKeyRow } from './HostKeyRow';
import { LoginUserRows } from './LoginUserRows';

export const ADD_INSTANCE_PANEL = 'panel/clusters/add-instance';
export const INSTANCE_SETTING_PANEL = 'panel/clusters/instance-setting';

type InstanceOs = (typeof INSTANCE_OS)[number];

export interface InstanceValues {
  name: string;
  ip_address: string;
  os: InstanceOs;
  port: number;
  usernames: string;
  /** One row per username: its authentication and host password. */
  logins: LoginRow[];
}

export const INSTANCE_DEFAULTS: InstanceValues = {
  name: '',
  ip_address: '',
  os: 'linux',
  port: OS_DEFAULTS.linux.port,
  usernames: OS_DEFAULTS.linux.username ?? '',
  logins: [{ username: OS_DEFAULTS.linux.username ?? '', auth_type: 0 }],
};

export interface InstancePanelProps {
  clusterId: number;
  /** The server to edit (Instance setting); without one the panel adds a server. */
  resource?: Resource | null;
  /** False without an available gateway: tests and key set-up are disabled. */
  available?: boolean;
}

/**
 * Add Instance and Instance setting (spec 2 §5): name, inner IP (four groups of digits or *),
 * Linux or Windows (picking one sets port 22 and root, or 3389 and administrator), login users
 * separated by ';', port 0-65535, and for each login user its own authentication; a saved
 * server's users also have their connectivity test, and on Linux key upload and key test.
 */
export function InstancePanel({
  clusterId,
  resource,
  available = false,
}: InstancePanelProps): ReactNode {
  const { t } = useTranslation();
  const editing = resource !== undefined;
  const panelKey = editing ? INSTANCE_SETTING_PANEL : ADD_INSTANCE_PANEL;
  return (
    <RightPanel
      panelKey={panelKey}
      title={t(editing ? 'clusters.instance.editTitle' : 'clusters.instance.addTitle')}
      width={560}
    >
      {editing && !resource ? null : (
        <InstanceForm
          // Another server's setting starts a fresh form, not the last one's values.
          key={resource?.id ?? 'new'}
          clusterId={clusterId}
          resource={resource ?? undefined}
          panelKey={panelKey}
          available={available}
        />
      )}
    </RightPanel>
  );
}

export function InstanceForm({
  clusterId,
  resource,
  panelKey,
  available = false,
}: {
  clusterId: number;
  resource: Resource | undefined;
  panelKey: string;
  available?: boolean;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const create = useCreateResourceMutation(clusterId);
  const update = useUpdateResourceMutation(clusterId);
  const [form] = Form.useForm<InstanceValues>();
  const os = Form.useWatch('os', form) ?? (resource?.os === 'win32' ? 'win32' : 'linux');
  const saved = resource ? savedRows(resource) : [];

  const initial: InstanceValues = resource
    ? {
        name: resource.name,
        ip_address: resource.ip_address,
        os: resource.os === 'win32' ? 'win32' : 'linux',
        port: resource.port,
        usernames: resource.extension.username.join(';'),
        logins: saved,
      }
    : INSTANCE_DEFAULTS;

  const onOsChange = (next: InstanceOs): void => {
    const defaults = OS_DEFAULTS[next];
    const usernames = defaults.username ?? '';
    // A new OS starts its users over: SSH key login is Linux's alone.
    form.setFieldsValue({ port: defaults.port, usernames, logins: syncRows(usernames, []) });
  };

  const onValuesChange = (changed: Partial<InstanceValues>): void => {
    if (changed.usernames === undefined) return;
    const current = (form.getFieldValue('logins') as LoginRow[] | undefined) ?? [];
    form.setFieldValue('logins', syncRows(changed.usernames, current, saved));
  };

  const onDone = (text: string) => ({
    onSuccess: () => {
      void message.success(t(text));
      panel.close(panelKey);
    },
    onError: (error: Error) => void message.error(errorText(error)),
  });

  const onFinish = (values: InstanceValues): void => {
    // The store, not `values`: a row's username has no input of its own.
    const rows = (form.getFieldValue('logins') as LoginRow[] | undefined) ?? [];
    const login_users = loginUsersBody(syncRows(values.usernames, rows, saved));
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
    <Form<InstanceValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onValuesChange={onValuesChange}
      onFinish={onFinish}
    >
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
      <LoginUserRows os={os} clusterId={clusterId} resource={resource} available={available} />
      {resource?.os === 'linux' && <HostKeyRow clusterId={clusterId} resource={resource} />}
      <Space style={{ marginTop: 16 }}>
        <Button onClick={() => panel.close(panelKey)}>{t('common.action.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
          {t(resource ? 'common.action.save' : 'common.action.add')}
        </Button>
      </Space>
    </Form>
  );
}
