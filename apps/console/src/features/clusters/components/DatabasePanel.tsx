import type { ReactNode } from 'react';
import { App, Button, Form, Input, InputNumber, Select, Space, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { DATABASE_OS, DB_TLS_MODES, type DbTlsMode, type Resource } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCreateResourceMutation, useUpdateResourceMutation } from '../api';
import { databaseNamesRules, hostRules, OS_DEFAULTS, portRules, resourceNameRules } from '../rules';
import { requiredRule } from '../../../shared/form/rules';
import { DatabaseSecurityForm } from './DatabaseSecurityForm';

export const ADD_DATABASE_PANEL = 'panel/clusters/add-database';
export const DATABASE_SETTING_PANEL = 'panel/clusters/database-setting';

type DatabaseOs = (typeof DATABASE_OS)[number];

export interface DatabaseValues {
  name: string;
  ip_address: string;
  os: DatabaseOs;
  port: number;
  username: string;
  password?: string;
  databases: string;
  /** How the gateway's own connection to the database uses TLS. */
  tls_mode: DbTlsMode;
  /** CA certificates in PEM for 'verify' ('' for the public CAs Node.js ships with). */
  tls_ca: string;
}

export const DATABASE_DEFAULTS: DatabaseValues = {
  name: '',
  ip_address: '',
  os: 'mysql',
  port: OS_DEFAULTS.mysql.port,
  username: '',
  databases: '',
  tls_mode: 'prefer',
  tls_ca: '',
};

/** SQL Server sessions are a later issue: its TLS is not asked yet. */
const hasTls = (os: DatabaseOs): boolean => os !== 'mssql';

export interface DatabasePanelProps {
  clusterId: number;
  /** The database to edit (Database setting, with its security tab); else Add Database. */
  resource?: Resource | null;
}

/**
 * Add Database and Database setting (spec 2 §5): name, IP or link, MySQL, PostgreSQL or SQL
 * Server (default ports 3306, 5432, 1433), username, password, database names separated by ';'
 * or '*'. The setting panel adds the database's security settings.
 */
export function DatabasePanel({ clusterId, resource }: DatabasePanelProps): ReactNode {
  const { t } = useTranslation();
  const editing = resource !== undefined;
  const panelKey = editing ? DATABASE_SETTING_PANEL : ADD_DATABASE_PANEL;
  const form = (r: Resource | undefined): ReactNode => (
    <DatabaseForm key={r?.id ?? 'new'} clusterId={clusterId} resource={r} panelKey={panelKey} />
  );
  return (
    <RightPanel
      panelKey={panelKey}
      title={t(editing ? 'clusters.database.editTitle' : 'clusters.database.addTitle')}
      width={620}
    >
      {!editing ? (
        form(undefined)
      ) : resource ? (
        <Tabs
          items={[
            { key: 'basic', label: t('clusters.database.basicTab'), children: form(resource) },
            {
              key: 'security',
              label: t('clusters.database.securityTab'),
              children: <DatabaseSecurityForm resourceId={resource.id} panelKey={panelKey} />,
            },
          ]}
        />
      ) : null}
    </RightPanel>
  );
}

export function DatabaseForm({
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
  const [form] = Form.useForm<DatabaseValues>();

  const initial: DatabaseValues = resource
    ? {
        name: resource.name,
        ip_address: resource.ip_address,
        os: resource.os as DatabaseOs,
        port: resource.port,
        username: resource.username,
        databases: resource.databases.join(';'),
        tls_mode: resource.tls_mode ?? 'prefer',
        tls_ca: resource.tls_ca ?? '',
      }
    : DATABASE_DEFAULTS;
  const os = Form.useWatch('os', form) ?? initial.os;
  const tlsMode = Form.useWatch('tls_mode', form) ?? initial.tls_mode;

  const onDone = (text: string) => ({
    onSuccess: () => {
      void message.success(t(text));
      panel.close(panelKey);
    },
    onError: (error: Error) => void message.error(errorText(error)),
  });

  const onFinish = (values: DatabaseValues): void => {
    const common = {
      name: values.name.trim(),
      ip_address: values.ip_address.trim(),
      port: values.port,
      username: values.username.trim(),
      databases: values.databases.trim(),
      ...(hasTls(values.os ?? initial.os) && {
        tls_mode: values.tls_mode,
        // Hidden unless verify: another mode leaves the stored CAs as they are.
        ...(values.tls_mode === 'verify' && { tls_ca: (values.tls_ca ?? '').trim() }),
      }),
    };
    if (resource) {
      update.mutate(
        {
          resourceId: resource.id,
          body: { ...common, ...(values.password ? { password: values.password } : {}) },
        },
        onDone('messages.updateSuccess'),
      );
    } else {
      create.mutate(
        { network_id: clusterId, os: values.os, password: values.password ?? '', ...common },
        onDone('messages.addSuccess'),
      );
    }
  };

  return (
    <Form<DatabaseValues> form={form} layout="vertical" initialValues={initial} onFinish={onFinish}>
      <Form.Item name="name" label={t('clusters.database.name')} rules={resourceNameRules(t)}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="ip_address" label={t('clusters.database.host')} rules={hostRules(t)}>
        <Input autoComplete="off" placeholder="10.0.0.5" />
      </Form.Item>
      <Form.Item name="os" label={t('clusters.database.type')} rules={[{ required: true }]}>
        <Select<DatabaseOs>
          disabled={resource !== undefined}
          onChange={(os) => form.setFieldsValue({ port: OS_DEFAULTS[os].port })}
          options={DATABASE_OS.map((os) => ({ value: os, label: t(`clusters.os.${os}`) }))}
        />
      </Form.Item>
      <Form.Item name="port" label={t('clusters.database.port')} rules={portRules(t)}>
        <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="username"
        label={t('clusters.database.username')}
        rules={[requiredRule(t('clusters.rules.username'))]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('clusters.database.password')}
        extra={resource ? t('clusters.instance.passwordKeep') : undefined}
        rules={resource ? [] : [{ required: true, message: t('clusters.rules.password') }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="databases"
        label={t('clusters.database.databases')}
        extra={t('clusters.database.databasesHint')}
        rules={databaseNamesRules(t)}
      >
        <Input autoComplete="off" />
      </Form.Item>
      {hasTls(os) && (
        <Form.Item
          name="tls_mode"
          label={t('clusters.database.tlsMode')}
          extra={t(`clusters.database.tlsModeHint.${tlsMode}`)}
        >
          <Select<DbTlsMode>
            options={DB_TLS_MODES.map((m) => ({
              value: m,
              label: t(`clusters.database.tlsModes.${m}`),
            }))}
          />
        </Form.Item>
      )}
      {hasTls(os) && tlsMode === 'verify' && (
        <Form.Item
          name="tls_ca"
          label={t('clusters.database.tlsCa')}
          extra={t('clusters.database.tlsCaHint')}
          rules={[
            {
              pattern: /^\s*(-----BEGIN CERTIFICATE-----[\s\S]*-----END CERTIFICATE-----\s*)?$/,
              message: t('clusters.rules.tlsCa'),
            },
          ]}
        >
          <Input.TextArea
            rows={5}
            spellCheck={false}
            placeholder="-----BEGIN CERTIFICATE-----"
            style={{ fontFamily: 'monospace', fontSize: 12 }}
          />
        </Form.Item>
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
