/**
 * The workgroup list (spec 2 §2 /settings/workgroup): Create, a search by a selectable field
 * (name, q_name, by default; or a resource's address, q_ip), ten a page with the pager only
 * past ten. Each row links to the detail's servers tab and shows the description, resource and
 * member counts; actions Details, Setting and Delete (after confirming). A cluster's default
 * workgroup carries a globe and cannot be deleted (the server refuses it too).
 */
import { useCallback, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, ProfileOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { formatEpoch } from '../../shared/time/format';
import { useDeleteWorkgroupMutation, useWorkgroupsQuery, type SearchFilter } from './api';
import { DefaultMark } from './components/DefaultMark';
import { FieldSearch } from './components/FieldSearch';
import { pager, useClampPage } from './components/paging';
import {
  ADD_WORKGROUP_PANEL,
  WorkgroupPanel,
  WORKGROUP_SETTING_PANEL,
} from './components/WorkgroupPanel';
import { workgroupDetailPath } from './paths';

export function WorkgroupListPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [filter, setFilter] = useState<SearchFilter>({ page: 1, field: 'q_name' });
  const [selected, setSelected] = useState<Workgroup | null>(null);
  const workgroups = useWorkgroupsQuery(filter);
  const remove = useDeleteWorkgroupMutation();
  const total = workgroups.data?.num_results ?? 0;
  const rows = workgroups.data?.objects ?? [];
  const setPage = useCallback((page: number) => setFilter((f) => ({ ...f, page })), []);
  useClampPage(workgroups.data !== undefined, total, filter.page, setPage);

  const onDelete = (workgroup: Workgroup): void =>
    remove.mutate(workgroup.id, {
      onSuccess: () => void message.success(t('messages.deleteSuccess')),
      onError: (error) => void message.error(errorText(error)),
    });

  const openSetting = (workgroup: Workgroup): void => {
    setSelected(workgroup);
    panel.open(WORKGROUP_SETTING_PANEL);
  };
  const current = selected ? (rows.find((w) => w.id === selected.id) ?? selected) : null;

  return (
    <>
      <PageHeader
        title={t('workgroup-admin.page.title')}
        subtitle={t('workgroup-admin.page.subtitle')}
      />
      <Card>
        <div className="pc-toolbar">
          <FieldSearch
            subject="workgroup"
            onSearch={(field, text) => setFilter({ page: 1, field, text })}
          />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => panel.open(ADD_WORKGROUP_PANEL)}
          >
            {t('workgroup-admin.list.create')}
          </Button>
        </div>
        <Table<Workgroup>
          rowKey="id"
          loading={workgroups.isPending || workgroups.isFetching}
          dataSource={rows}
          locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
          scroll={{ x: 'max-content' }}
          pagination={pager(total, filter.page, setPage)}
          columns={[
            {
              key: 'name',
              title: t('workgroup-admin.list.col.name'),
              render: (_: unknown, w: Workgroup) => (
                <Space size={6}>
                  <Link to={workgroupDetailPath(w.id)}>{w.name}</Link>
                  {w.is_default ? <DefaultMark /> : null}
                </Space>
              ),
            },
            {
              key: 'desc',
              title: t('workgroup-admin.list.col.desc'),
              render: (_: unknown, w: Workgroup) =>
                w.desc ? (
                  <Typography.Text ellipsis={{ tooltip: w.desc }} style={{ maxWidth: 320 }}>
                    {w.desc}
                  </Typography.Text>
                ) : (
                  '-'
                ),
            },
            {
              key: 'resources',
              dataIndex: 'resource_count',
              title: t('workgroup-admin.list.col.resources'),
            },
            {
              key: 'members',
              dataIndex: 'account_count',
              title: t('workgroup-admin.list.col.members'),
            },
            {
              key: 'created',
              dataIndex: 'create_time',
              title: t('workgroup-admin.list.col.created'),
              render: (value: number) => formatEpoch(value),
            },
            {
              key: 'actions',
              title: t('workgroup-admin.list.col.actions'),
              render: (_: unknown, w: Workgroup) => {
                const deleteButton = (
                  <Button
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={w.is_default}
                    aria-label={t('workgroup-admin.list.deleteLabel', { name: w.name })}
                  >
                    {t('common.action.delete')}
                  </Button>
                );
                return (
                  <Space size={0}>
                    <Link
                      to={workgroupDetailPath(w.id)}
                      className="ant-btn ant-btn-link"
                      aria-label={t('workgroup-admin.list.detailsLabel', { name: w.name })}
                    >
                      <ProfileOutlined /> {t('workgroup-admin.list.details')}
                    </Link>
                    <Button
                      type="link"
                      icon={<SettingOutlined />}
                      aria-label={t('workgroup-admin.list.settingLabel', { name: w.name })}
                      onClick={() => openSetting(w)}
                    >
                      {t('common.action.setting')}
                    </Button>
                    {w.is_default ? (
                      <Tooltip title={t('errors.DefaultProjectCannotDelete')}>
                        <span>{deleteButton}</span>
                      </Tooltip>
                    ) : (
                      <Popconfirm
                        title={t('workgroup-admin.list.deleteTitle')}
                        description={t('workgroup-admin.list.deleteBody', { name: w.name })}
                        okText={t('common.action.delete')}
                        cancelText={t('common.action.cancel')}
                        okButtonProps={{ danger: true }}
                        onConfirm={() => onDelete(w)}
                      >
                        {deleteButton}
                      </Popconfirm>
                    )}
                  </Space>
                );
              },
            },
          ]}
        />
      </Card>
      <WorkgroupPanel />
      <WorkgroupPanel workgroup={current} />
    </>
  );
}
