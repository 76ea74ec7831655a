/**
 * A cluster's servers (ecs) or databases (rds) tab (spec 2 §2 Cluster detail): the safe-mode
 * state with Change (servers), Add, Scan Import (servers), Mass import and batch Delete, a
 * search by OS or type and by name or IP, and the table with the connectivity test, Setting
 * and Delete. A shared cluster's tabs are not shown at all (only its log filters are).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Empty, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import {
  DeleteOutlined,
  PlusOutlined,
  RadarChartOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  DATABASE_OS,
  INSTANCE_OS,
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD,
  type Cluster,
  type Resource,
} from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import {
  useDeleteResourcesMutation,
  useResourcesQuery,
  type ResourceFilter,
  type ResourceKind,
} from '../api';
import { ConnectivityTest } from './ConnectivityTest';
import { ADD_DATABASE_PANEL, DATABASE_SETTING_PANEL, DatabasePanel } from './DatabasePanel';
import { ADD_INSTANCE_PANEL, INSTANCE_SETTING_PANEL, InstancePanel } from './InstancePanel';
import { MASS_IMPORT_PANEL, MassImportPanel } from './MassImportPanel';
import { SAFE_MODE_PANEL, SafeModePanel } from './SafeModePanel';
import { SCAN_IMPORT_PANEL, ScanImportPanel } from './ScanImportPanel';

export function ResourcesTab({
  cluster,
  kind,
}: {
  cluster: Cluster;
  kind: ResourceKind;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [filter, setFilter] = useState<ResourceFilter>({ page: 1 });
  const [search, setSearch] = useState('');
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [editing, setEditing] = useState<Resource | null>(null);
  const resources = useResourcesQuery(cluster.id, kind, filter);
  const remove = useDeleteResourcesMutation(cluster.id);
  const total = resources.data?.num_results ?? 0;
  const rows = resources.data?.objects ?? [];
  const available = cluster.agent_status === 1;
  const servers = kind === 'ecs';
  const osList = servers ? INSTANCE_OS : DATABASE_OS;

  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (resources.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [resources.data, filter.page, lastPage]);

  const onDelete = (ids: number[]): void =>
    remove.mutate(ids, {
      onSuccess: () => {
        setSelectedIds((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('messages.deleteSuccess'));
      },
      onError: (error) => void message.error(errorText(error)),
    });

  const openSetting = (resource: Resource): void => {
    setEditing(resource);
    panel.open(servers ? INSTANCE_SETTING_PANEL : DATABASE_SETTING_PANEL);
  };
  const current = editing ? (rows.find((r) => r.id === editing.id) ?? editing) : null;

  return (
    <div>
      {servers ? (
        <div className="pc-toolbar">
          <Space>
            <Typography.Text>{t('clusters.safeMode.state')}</Typography.Text>
            {cluster.safe_mode ? (
              <Tag color="success">{t('clusters.safeMode.on')}</Tag>
            ) : (
              <Tag>{t('clusters.safeMode.off')}</Tag>
            )}
            <Button type="link" onClick={() => panel.open(SAFE_MODE_PANEL)}>
              {t('clusters.safeMode.change')}
            </Button>
          </Space>
        </div>
      ) : null}
      <div className="pc-toolbar">
        <Space wrap>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => panel.open(servers ? ADD_INSTANCE_PANEL : ADD_DATABASE_PANEL)}
          >
            {t(servers ? 'clusters.resources.addInstance' : 'clusters.resources.addDatabase')}
          </Button>
          {servers ? (
            <Button
              icon={<RadarChartOutlined />}
              disabled={!available}
              onClick={() => panel.open(SCAN_IMPORT_PANEL)}
            >
              {t('clusters.resources.scanImport')}
            </Button>
          ) : null}
          <Button icon={<UploadOutlined />} onClick={() => panel.open(MASS_IMPORT_PANEL)}>
            {t('clusters.resources.massImport')}
          </Button>
          <Popconfirm
            title={t('clusters.resources.batchDeleteTitle')}
            description={t('clusters.resources.batchDeleteBody', { count: selectedIds.length })}
            okText={t('common.action.delete')}
            cancelText={t('common.action.cancel')}
            okButtonProps={{ danger: true }}
            disabled={selectedIds.length === 0}
            onConfirm={() => onDelete(selectedIds)}
          >
            <Button danger icon={<DeleteOutlined />} disabled={selectedIds.length === 0}>
              {t('common.action.delete')}
            </Button>
          </Popconfirm>
        </Space>
        <Space wrap>
          <Select<Resource['os']>
            allowClear
            aria-label={t(
              servers ? 'clusters.resources.osFilter' : 'clusters.resources.typeFilter',
            )}
            placeholder={t(servers ? 'clusters.resources.allOs' : 'clusters.resources.allTypes')}
            className="pc-toolbar__select"
            value={filter.os}
            onChange={(os) => setFilter((f) => ({ ...f, page: 1, os }))}
            options={osList.map((os) => ({ value: os, label: t(`clusters.os.${os}`) }))}
          />
          <Input.Search
            allowClear
            aria-label={t('clusters.resources.search')}
            placeholder={t('clusters.resources.searchPlaceholder')}
            className="pc-toolbar__search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(name) => setFilter((f) => ({ ...f, page: 1, name }))}
            enterButton={t('common.action.search')}
          />
        </Space>
      </div>
      <Table<Resource>
        rowKey="id"
        loading={resources.isPending || resources.isFetching}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selectedIds,
          onChange: (keys) => setSelectedIds(keys.map(Number)),
        }}
        pagination={
          total > PAGER_THRESHOLD
            ? {
                current: filter.page,
                pageSize: PAGE_SIZE_DEFAULT,
                total,
                showSizeChanger: false,
                onChange: (page) => setFilter((f) => ({ ...f, page })),
              }
            : false
        }
        columns={[
          { key: 'name', dataIndex: 'name', title: t('clusters.resources.col.name') },
          {
            key: 'accounts',
            title: t(servers ? 'clusters.resources.col.users' : 'clusters.resources.col.databases'),
            render: (_: unknown, r: Resource) =>
              servers ? r.extension.username.join('; ') : r.databases.join('; '),
          },
          {
            key: 'ip',
            title: t('clusters.resources.col.ip'),
            render: (_: unknown, r: Resource) => `${r.ip_address}:${r.port}`,
          },
          {
            key: 'os',
            title: t(servers ? 'clusters.resources.col.os' : 'clusters.resources.col.type'),
            render: (_: unknown, r: Resource) => t(`clusters.os.${r.os}`),
          },
          {
            key: 'test',
            title: t('clusters.resources.col.test'),
            render: (_: unknown, r: Resource) =>
              servers ? (
                <Space direction="vertical" size={4}>
                  {r.extension.data.map((login) => (
                    <ConnectivityTest
                      key={login.username}
                      resourceId={r.id}
                      username={login.username}
                      lastResult={login.test_result}
                      available={available}
                    />
                  ))}
                </Space>
              ) : (
                <ConnectivityTest
                  resourceId={r.id}
                  lastResult={r.extension.data[0]?.test_result}
                  available={available}
                />
              ),
          },
          {
            key: 'actions',
            title: t('clusters.resources.col.actions'),
            render: (_: unknown, r: Resource) => (
              <Space size={0}>
                <Button
                  type="link"
                  icon={<SettingOutlined />}
                  aria-label={t('clusters.resources.settingLabel', { name: r.name })}
                  onClick={() => openSetting(r)}
                >
                  {t('common.action.setting')}
                </Button>
                <Popconfirm
                  title={t('clusters.resources.deleteTitle')}
                  description={t('clusters.resources.deleteBody', { name: r.name })}
                  okText={t('common.action.delete')}
                  cancelText={t('common.action.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete([r.id])}
                >
                  <Button
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('clusters.resources.deleteLabel', { name: r.name })}
                  >
                    {t('common.action.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {servers ? (
        <>
          <InstancePanel clusterId={cluster.id} available={available} />
          <InstancePanel clusterId={cluster.id} resource={current} available={available} />
          <SafeModePanel clusterId={cluster.id} />
          <ScanImportPanel clusterId={cluster.id} />
        </>
      ) : (
        <>
          <DatabasePanel clusterId={cluster.id} />
          <DatabasePanel clusterId={cluster.id} resource={current} />
        </>
      )}
      <MassImportPanel clusterId={cluster.id} kind={kind} />
    </div>
  );
}
