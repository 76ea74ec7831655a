/**
 * A workgroup's servers (ecs) or databases (rds) tab (spec 2 §2 Workgroup detail): Add (from the
 * workgroup's candidates) and batch Delete, a search by name or address, and the table. Servers
 * show name, IP, the login users the workgroup grants, cluster, OS, specification, Change (the
 * login users) and Delete; databases show name, database names, connect IP, cluster, type and
 * Delete. A cluster's default workgroup holds exactly its cluster's resources: no Add or Delete.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { App, Button, Empty, Popconfirm, Space, Table, Tag } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProjectResource, Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import {
  useWorkgroupResourcesMutation,
  useWorkgroupResourcesQuery,
  type ResourceKind,
  type SearchFilter,
} from '../api';
import { AddResourcesPanel, addResourcesPanelKey } from './AddResourcesPanel';
import { FieldSearch } from './FieldSearch';
import { LoginUsersPanel, LOGIN_USERS_PANEL } from './LoginUsersPanel';
import { osLabel } from './os';
import { pager, useClampPage } from './paging';

export function ResourcesTab({
  workgroup,
  kind,
}: {
  workgroup: Workgroup;
  kind: ResourceKind;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [filter, setFilter] = useState<SearchFilter>({ page: 1, field: 'q_name' });
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [changing, setChanging] = useState<ProjectResource | null>(null);
  const resources = useWorkgroupResourcesQuery(workgroup.id, kind, filter);
  const remove = useWorkgroupResourcesMutation(workgroup.id, 'remove');
  const total = resources.data?.num_results ?? 0;
  const rows = resources.data?.objects ?? [];
  const servers = kind === 'ecs';
  const fixed = workgroup.is_default;
  const setPage = useCallback((page: number) => setFilter((f) => ({ ...f, page })), []);
  useClampPage(resources.data !== undefined, total, filter.page, setPage);

  // Rows are keyed by the resource id, which is what add and delete take.
  const onDelete = (ids: number[]): void =>
    remove.mutate(ids, {
      onSuccess: () => {
        setSelectedIds((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('messages.deleteSuccess'));
      },
      onError: (error) => void message.error(errorText(error)),
    });

  const current = changing ? (rows.find((r) => r.id === changing.id) ?? changing) : null;

  const deleteColumn = {
    key: 'actions',
    title: t('workgroup-admin.resources.col.actions'),
    render: (_: unknown, r: ProjectResource) => (
      <Space size={0}>
        {servers ? (
          <Button
            type="link"
            icon={<EditOutlined />}
            aria-label={t('workgroup-admin.resources.changeLabel', { name: r.name })}
            onClick={() => {
              setChanging(r);
              panel.open(LOGIN_USERS_PANEL);
            }}
          >
            {t('workgroup-admin.resources.change')}
          </Button>
        ) : null}
        {fixed ? null : (
          <Popconfirm
            title={t('workgroup-admin.resources.deleteTitle')}
            description={t('workgroup-admin.resources.deleteBody', { name: r.name })}
            okText={t('common.action.delete')}
            cancelText={t('common.action.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete([r.resource_id])}
          >
            <Button
              type="link"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('workgroup-admin.resources.deleteLabel', { name: r.name })}
            >
              {t('common.action.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    ),
  };

  const address = (r: ProjectResource): string => `${r.ip}:${r.port}`;
  const columns = servers
    ? [
        { key: 'name', dataIndex: 'name', title: t('workgroup-admin.resources.col.name') },
        { key: 'ip', title: t('workgroup-admin.resources.col.ip'), render: address },
        {
          key: 'users',
          title: t('workgroup-admin.resources.col.loginUsers'),
          render: (_: unknown, r: ProjectResource) =>
            r.resource.extension.login_username.length > 0 ? (
              <Space size={[4, 4]} wrap>
                {r.resource.extension.login_username.map((u) => (
                  <Tag key={u}>{u}</Tag>
                ))}
              </Space>
            ) : (
              '-'
            ),
        },
        {
          key: 'cluster',
          dataIndex: 'network_name',
          title: t('workgroup-admin.resources.col.cluster'),
        },
        {
          key: 'os',
          title: t('workgroup-admin.resources.col.os'),
          render: (_: unknown, r: ProjectResource) => osLabel(r.os, t),
        },
        {
          key: 'flavor',
          title: t('workgroup-admin.resources.col.flavor'),
          render: (_: unknown, r: ProjectResource) => r.flavor || '-',
        },
        deleteColumn,
      ]
    : [
        { key: 'name', dataIndex: 'name', title: t('workgroup-admin.resources.col.name') },
        {
          key: 'databases',
          title: t('workgroup-admin.resources.col.databases'),
          render: (_: unknown, r: ProjectResource) => r.db_name.join('; ') || '-',
        },
        { key: 'ip', title: t('workgroup-admin.resources.col.connectIp'), render: address },
        {
          key: 'cluster',
          dataIndex: 'network_name',
          title: t('workgroup-admin.resources.col.cluster'),
        },
        {
          key: 'type',
          title: t('workgroup-admin.resources.col.type'),
          render: (_: unknown, r: ProjectResource) => osLabel(r.os, t),
        },
        ...(fixed ? [] : [deleteColumn]),
      ];

  return (
    <div>
      <div className="pc-toolbar">
        {fixed ? (
          <span />
        ) : (
          <Space wrap>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => panel.open(addResourcesPanelKey(kind))}
            >
              {t(servers ? 'workgroup-admin.resources.addHost' : 'workgroup-admin.resources.addDb')}
            </Button>
            <Popconfirm
              title={t('workgroup-admin.resources.batchDeleteTitle')}
              description={t('workgroup-admin.resources.batchDeleteBody', {
                count: selectedIds.length,
              })}
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
        )}
        <FieldSearch
          subject="resource"
          onSearch={(field, text) => setFilter({ page: 1, field, text })}
        />
      </div>
      <Table<ProjectResource>
        rowKey="resource_id"
        loading={resources.isPending || resources.isFetching}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
        rowSelection={
          fixed
            ? undefined
            : {
                selectedRowKeys: selectedIds,
                onChange: (keys) => setSelectedIds(keys.map(Number)),
              }
        }
        pagination={pager(total, filter.page, setPage)}
        columns={columns}
      />
      {fixed ? null : <AddResourcesPanel workgroup={workgroup} kind={kind} />}
      {servers ? <LoginUsersPanel resource={current} /> : null}
    </div>
  );
}
