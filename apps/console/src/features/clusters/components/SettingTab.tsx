/**
 * A cluster's setting tab (spec 2 §2): the agent area (installed version, host, connected
 * gateways; install, update, roll-back and uninstall commands to copy), the recommended machine
 * with the OS support check list in its side panel, the share list (add by team code, cancel) and the log filters
 * (operator contains; add, delete, batch delete). A shared cluster shows only its log filters,
 * read-only.
 */
import { useState, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Popconfirm,
  Space,
  Table,
  Typography,
} from 'antd';
import { CopyOutlined, DeleteOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Cluster } from '@portcullis/contract';
import { requiredRule } from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { formatEpoch } from '../../../shared/time/format';
import {
  useAgentScriptsQuery,
  useChangeSharesMutation,
  useCreateLogFilterMutation,
  useDeleteLogFiltersMutation,
  useLogFiltersQuery,
  useSharesQuery,
  type LogFilter,
  type Share,
} from '../api';
import { DetachGateways } from './DetachGateways';
import { OS_SUPPORT_PANEL, OsSupportPanel } from './OsSupportPanel';

const SCRIPTS = ['install', 'update', 'rollback', 'uninstall'] as const;

export function SettingTab({ cluster }: { cluster: Cluster }): ReactNode {
  const shared = cluster.parent_id !== null;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {shared ? null : <AgentCard cluster={cluster} />}
      {shared ? null : <SharesCard clusterId={cluster.id} />}
      <LogFiltersCard clusterId={cluster.id} readOnly={shared} />
    </Space>
  );
}

function AgentCard({ cluster }: { cluster: Cluster }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const panel = usePanel();
  const scripts = useAgentScriptsQuery(cluster.id, true);
  const copy = async (text: string): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('messages.copySuccess'));
    } catch {
      void message.error(t('messages.copyFailed'));
    }
  };
  return (
    <Card title={t('clusters.agent.title')}>
      {cluster.need_update ? (
        <Alert
          type="warning"
          showIcon
          message={t('clusters.agent.lower')}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {scripts.data?.insecure_http ? (
        <Alert
          type="warning"
          showIcon
          data-testid="insecure-http"
          message={t('clusters.agent.insecureHttp')}
          description={t('clusters.agent.insecureHttpHint')}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Descriptions
        style={{ marginBottom: 16 }}
        column={{ xs: 1, md: 2, xl: 4 }}
        items={[
          {
            key: 'version',
            label: t('clusters.agent.version'),
            children: cluster.agent?.version || cluster.agent_version || '-',
          },
          {
            key: 'latest',
            label: t('clusters.agent.latest'),
            children: scripts.data?.latest_version ?? '-',
          },
          { key: 'host', label: t('clusters.agent.host'), children: cluster.agent?.host ?? '-' },
          {
            key: 'connected',
            label: t('clusters.agent.connected'),
            children: String(cluster.agent?.connected ?? 0),
          },
        ]}
      />
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        {SCRIPTS.map((name) => (
          <div key={name}>
            <Typography.Text strong>{t(`clusters.agent.script.${name}`)}</Typography.Text>
            <div className="pc-cluster-script">
              {/* The whole command shows: the four differ only in their last word. */}
              <Input.TextArea
                readOnly
                autoSize
                aria-label={t(`clusters.agent.script.${name}`)}
                value={scripts.data?.[name] ?? ''}
                style={{ fontFamily: 'monospace', fontSize: 12, marginTop: 4 }}
              />
              <Button
                icon={<CopyOutlined />}
                disabled={!scripts.data}
                aria-label={t('clusters.agent.copyLabel', {
                  name: t(`clusters.agent.script.${name}`),
                })}
                onClick={() => void copy(scripts.data?.[name] ?? '')}
                style={{ marginTop: 4 }}
              >
                {t('clusters.agent.copy')}
              </Button>
            </div>
            {name === 'uninstall' ? <DetachGateways clusterId={cluster.id} /> : null}
          </div>
        ))}
      </Space>
      <Alert
        type="info"
        showIcon
        title={t('clusters.agent.recommend')}
        style={{ marginTop: 16 }}
        action={
          <Button
            size="small"
            icon={<UnorderedListOutlined />}
            onClick={() => panel.open(OS_SUPPORT_PANEL)}
          >
            {t('clusters.agent.osSupport')}
          </Button>
        }
      />
      <OsSupportPanel />
    </Card>
  );
}

function SharesCard({ clusterId }: { clusterId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const shares = useSharesQuery(clusterId, true);
  const change = useChangeSharesMutation(clusterId);
  const [form] = Form.useForm<{ domain: string }>();
  return (
    <Card title={t('clusters.share.title')}>
      <Form<{ domain: string }>
        form={form}
        layout="inline"
        onFinish={({ domain }) =>
          change.mutate(
            { action: 'add', domain: domain.trim() },
            {
              onSuccess: () => {
                form.resetFields();
                void message.success(t('clusters.share.success'));
              },
              onError: (error) => void message.error(errorText(error)),
            },
          )
        }
        style={{ marginBottom: 16 }}
      >
        <Form.Item
          name="domain"
          label={t('clusters.share.teamCode')}
          rules={[requiredRule(t('clusters.rules.teamCode'))]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          {t('clusters.share.add')}
        </Button>
      </Form>
      <Table<Share>
        rowKey="id"
        size="small"
        pagination={false}
        loading={shares.isPending}
        dataSource={shares.data ?? []}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        columns={[
          {
            key: 'domain',
            title: t('clusters.share.col.teamId'),
            render: (_: unknown, s: Share) => s.company.domain,
          },
          {
            key: 'name',
            title: t('clusters.share.col.teamName'),
            render: (_: unknown, s: Share) => s.company.full_name,
          },
          {
            key: 'time',
            title: t('clusters.share.col.time'),
            render: (_: unknown, s: Share) => formatEpoch(s.create_time),
          },
          {
            key: 'actions',
            title: t('clusters.share.col.actions'),
            render: (_: unknown, s: Share) => (
              <Popconfirm
                title={t('clusters.share.cancelTitle')}
                description={t('clusters.share.cancelBody', { team: s.company.full_name })}
                okText={t('common.action.confirm')}
                cancelText={t('common.action.cancel')}
                onConfirm={() =>
                  change.mutate(
                    { action: 'cancel', share_id: s.id },
                    {
                      onSuccess: () => void message.success(t('clusters.share.cancelled')),
                      onError: (error) => void message.error(errorText(error)),
                    },
                  )
                }
              >
                <Button type="link" danger>
                  {t('clusters.share.cancel')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}

function LogFiltersCard({
  clusterId,
  readOnly,
}: {
  clusterId: number;
  readOnly: boolean;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const filters = useLogFiltersQuery(clusterId);
  const create = useCreateLogFilterMutation(clusterId);
  const remove = useDeleteLogFiltersMutation(clusterId);
  const [selected, setSelected] = useState<number[]>([]);
  const [form] = Form.useForm<{ condition: string }>();
  const onDelete = (ids: number[]): void =>
    remove.mutate(ids, {
      onSuccess: () => {
        setSelected((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('messages.deleteSuccess'));
      },
      onError: (error) => void message.error(errorText(error)),
    });
  return (
    <Card title={t('clusters.logFilter.title')}>
      {readOnly ? null : (
        <div className="pc-toolbar">
          <Form<{ condition: string }>
            form={form}
            layout="inline"
            onFinish={({ condition }) =>
              create.mutate(condition, {
                onSuccess: () => {
                  form.resetFields();
                  void message.success(t('messages.addSuccess'));
                },
                onError: (error) => void message.error(errorText(error)),
              })
            }
          >
            <Form.Item label={t('clusters.logFilter.operator')}>
              <Input value={t('clusters.logFilter.contains')} disabled style={{ width: 120 }} />
            </Form.Item>
            <Form.Item
              name="condition"
              label={t('clusters.logFilter.condition')}
              rules={[requiredRule(t('clusters.rules.condition'))]}
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={create.isPending}>
              {t('clusters.logFilter.add')}
            </Button>
          </Form>
          <Popconfirm
            title={t('clusters.logFilter.batchDeleteTitle')}
            description={t('clusters.logFilter.batchDeleteBody', { count: selected.length })}
            okText={t('common.action.delete')}
            cancelText={t('common.action.cancel')}
            okButtonProps={{ danger: true }}
            disabled={selected.length === 0}
            onConfirm={() => onDelete(selected)}
          >
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0}>
              {t('clusters.logFilter.batchDelete')}
            </Button>
          </Popconfirm>
        </div>
      )}
      <Table<LogFilter>
        rowKey="id"
        size="small"
        pagination={false}
        loading={filters.isPending}
        dataSource={filters.data ?? []}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        rowSelection={
          readOnly
            ? undefined
            : { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }
        }
        columns={[
          {
            key: 'operator',
            title: t('clusters.logFilter.operator'),
            render: () => t('clusters.logFilter.contains'),
          },
          { key: 'condition', dataIndex: 'condition', title: t('clusters.logFilter.condition') },
          {
            key: 'time',
            title: t('clusters.logFilter.time'),
            render: (_: unknown, f: LogFilter) => formatEpoch(f.create_time),
          },
          ...(readOnly
            ? []
            : [
                {
                  key: 'actions',
                  title: t('clusters.logFilter.actions'),
                  render: (_: unknown, f: LogFilter) => (
                    <Popconfirm
                      title={t('clusters.logFilter.deleteTitle')}
                      okText={t('common.action.delete')}
                      cancelText={t('common.action.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => onDelete([f.id])}
                    >
                      <Button
                        type="link"
                        danger
                        aria-label={t('clusters.logFilter.deleteLabel', { condition: f.condition })}
                      >
                        {t('common.action.delete')}
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]),
        ]}
      />
    </Card>
  );
}
