/**
 * The cluster list (spec 2 §2 /settings/cluster): search by name; each row shows the name (with
 * the owning team for a shared cluster), available/unavailable, the resource count and an
 * update warning (hidden while this account has snoozed the cluster's update tip until the
 * next midnight, see update-tip.ts); actions Export (the resources as xlsx), Details, Return (shared clusters) and
 * Delete (own clusters, after confirming). Twenty a page, the pager only past twenty.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { App, Button, Card, Empty, Input, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import {
  DeleteOutlined,
  ExportOutlined,
  PlusOutlined,
  RollbackOutlined,
  WarningFilled,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { clusterRoutes, PAGE_SIZE_CLUSTER_LIST, type Cluster } from '@portcullis/contract';
import { apiUrl } from '../../shared/api/client';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { useCurrentAccountQuery } from '../../shared/session/session';
import { useClustersQuery, useDeleteClusterMutation, type ClusterFilter } from './api';
import { ClusterStatus } from './components/ClusterStatus';
import { CreateClusterPanel, CREATE_CLUSTER_PANEL } from './components/CreateClusterPanel';
import { clusterDetailPath } from './paths';
import { isSnoozed } from './update-tip';

export function ClusterListPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [filter, setFilter] = useState<ClusterFilter>({ page: 1 });
  const [search, setSearch] = useState('');
  const clusters = useClustersQuery(filter);
  const accountId = useCurrentAccountQuery().data?.id;
  const showUpdate = (c: Cluster): boolean =>
    c.need_update && !c.parent_id && !(accountId !== undefined && isSnoozed(accountId, c.id));
  const remove = useDeleteClusterMutation();
  const total = clusters.data?.num_results ?? 0;
  const rows = clusters.data?.objects ?? [];

  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_CLUSTER_LIST));
  useEffect(() => {
    if (clusters.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [clusters.data, filter.page, lastPage]);

  const onDelete = (cluster: Cluster): void =>
    remove.mutate(cluster.id, {
      onSuccess: () =>
        void message.success(
          t(cluster.parent_id ? 'clusters.list.returnSuccess' : 'messages.deleteSuccess'),
        ),
      onError: (error) => void message.error(errorText(error)),
    });

  return (
    <>
      <PageHeader title={t('clusters.page.title')} subtitle={t('clusters.page.subtitle')} />
      <Card>
        <div className="pc-toolbar">
          <Input.Search
            allowClear
            aria-label={t('clusters.list.search')}
            placeholder={t('clusters.list.searchPlaceholder')}
            className="pc-toolbar__search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(name) => setFilter({ page: 1, name })}
            enterButton={t('common.action.search')}
          />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => panel.open(CREATE_CLUSTER_PANEL)}
          >
            {t('clusters.list.create')}
          </Button>
        </div>
        <Table<Cluster>
          rowKey="id"
          loading={clusters.isPending || clusters.isFetching}
          dataSource={rows}
          locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
          scroll={{ x: 'max-content' }}
          pagination={
            total > PAGE_SIZE_CLUSTER_LIST
              ? {
                  current: filter.page,
                  pageSize: PAGE_SIZE_CLUSTER_LIST,
                  total,
                  showSizeChanger: false,
                  onChange: (page) => setFilter((f) => ({ ...f, page })),
                }
              : false
          }
          columns={[
            {
              key: 'name',
              title: t('clusters.list.col.name'),
              render: (_: unknown, c: Cluster) => (
                <Space size={6} wrap>
                  <Link to={clusterDetailPath(c.id)}>{c.name}</Link>
                  {c.parent_id ? (
                    <Tag color="purple">
                      {t('clusters.list.sharedFrom', {
                        team: c.parent_company?.full_name ?? '',
                      })}
                    </Tag>
                  ) : null}
                  {showUpdate(c) ? (
                    <Tooltip title={t('clusters.agent.lower')}>
                      <WarningFilled
                        className="pc-cluster-warning"
                        aria-label={t('clusters.list.needUpdate')}
                        style={{ color: '#faad14' }}
                      />
                    </Tooltip>
                  ) : null}
                </Space>
              ),
            },
            {
              key: 'status',
              title: t('clusters.list.col.status'),
              render: (_: unknown, c: Cluster) => <ClusterStatus agentStatus={c.agent_status} />,
            },
            {
              key: 'resources',
              dataIndex: 'resource_count',
              title: t('clusters.list.col.resources'),
            },
            {
              key: 'actions',
              title: t('clusters.list.col.actions'),
              render: (_: unknown, c: Cluster) => (
                <Space size={0}>
                  <Button
                    type="link"
                    icon={<ExportOutlined />}
                    href={apiUrl(clusterRoutes.exportCluster, { id: c.id })}
                    download
                    aria-label={t('clusters.list.exportLabel', { name: c.name })}
                  >
                    {t('common.action.export')}
                  </Button>
                  <Link to={clusterDetailPath(c.id)} className="ant-btn ant-btn-link">
                    {t('clusters.list.details')}
                  </Link>
                  {c.parent_id ? (
                    <Popconfirm
                      title={t('clusters.list.returnTitle')}
                      description={t('clusters.list.returnBody', { name: c.name })}
                      okText={t('clusters.list.return')}
                      cancelText={t('common.action.cancel')}
                      onConfirm={() => onDelete(c)}
                    >
                      <Button
                        type="link"
                        icon={<RollbackOutlined />}
                        aria-label={t('clusters.list.returnLabel', { name: c.name })}
                      >
                        {t('clusters.list.return')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Popconfirm
                      title={t('clusters.list.deleteTitle')}
                      description={t('clusters.list.deleteBody', { name: c.name })}
                      okText={t('common.action.delete')}
                      cancelText={t('common.action.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => onDelete(c)}
                    >
                      <Button
                        type="link"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('clusters.list.deleteLabel', { name: c.name })}
                      >
                        {t('common.action.delete')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <CreateClusterPanel />
    </>
  );
}
