/**
 * A workgroup's groups tab (spec 2 §2 Workgroup detail): Distribute (add groups by name),
 * batch Delete, and the table of name, note, member count, View (the group's members, ten a
 * page) and Delete. Every member of a group sees the workgroup.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Empty, Popconfirm, Space, Table } from 'antd';
import { DeleteOutlined, EyeOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { useWorkgroupGroupsMutation, useWorkgroupGroupsQuery, type WorkgroupGroup } from '../api';
import { AddGroupsPanel, ADD_GROUPS_PANEL } from './AddGroupsPanel';
import { GroupMembersPanel, GROUP_MEMBERS_PANEL } from './GroupMembersPanel';
import { pager, useClampPage } from './paging';

export function GroupsTab({ workgroup }: { workgroup: Workgroup }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [page, setPage] = useState(1);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [viewing, setViewing] = useState<WorkgroupGroup | null>(null);
  const groups = useWorkgroupGroupsQuery(workgroup.id, page);
  const remove = useWorkgroupGroupsMutation(workgroup.id, 'remove');
  const total = groups.data?.num_results ?? 0;
  useClampPage(groups.data !== undefined, total, page, setPage);

  const onDelete = (ids: number[]): void =>
    remove.mutate(ids, {
      onSuccess: () => {
        setSelectedIds((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('messages.deleteSuccess'));
      },
      onError: (error) => void message.error(errorText(error)),
    });

  return (
    <div>
      <div className="pc-toolbar">
        <Space wrap>
          <Button
            type="primary"
            icon={<ShareAltOutlined />}
            onClick={() => panel.open(ADD_GROUPS_PANEL)}
          >
            {t('workgroup-admin.groups.distribute')}
          </Button>
          <Popconfirm
            title={t('workgroup-admin.groups.batchDeleteTitle')}
            description={t('workgroup-admin.groups.batchDeleteBody', {
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
      </div>
      <Table<WorkgroupGroup>
        rowKey="id"
        loading={groups.isPending || groups.isFetching}
        dataSource={groups.data?.objects ?? []}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selectedIds,
          onChange: (keys) => setSelectedIds(keys.map(Number)),
        }}
        pagination={pager(total, page, setPage)}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('workgroup-admin.groups.col.name') },
          {
            key: 'note',
            title: t('workgroup-admin.groups.col.note'),
            render: (_: unknown, g: WorkgroupGroup) => g.note || '-',
          },
          {
            key: 'members',
            dataIndex: 'member_count',
            title: t('workgroup-admin.groups.col.members'),
          },
          {
            key: 'actions',
            title: t('workgroup-admin.groups.col.actions'),
            render: (_: unknown, g: WorkgroupGroup) => (
              <Space size={0}>
                <Button
                  type="link"
                  icon={<EyeOutlined />}
                  aria-label={t('workgroup-admin.groups.viewLabel', { name: g.name })}
                  onClick={() => {
                    setViewing(g);
                    panel.open(GROUP_MEMBERS_PANEL);
                  }}
                >
                  {t('workgroup-admin.groups.view')}
                </Button>
                <Popconfirm
                  title={t('workgroup-admin.groups.deleteTitle')}
                  description={t('workgroup-admin.groups.deleteBody', {
                    name: g.name,
                    workgroup: workgroup.name,
                  })}
                  okText={t('common.action.delete')}
                  cancelText={t('common.action.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete([g.id])}
                >
                  <Button
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('workgroup-admin.groups.deleteLabel', { name: g.name })}
                  >
                    {t('common.action.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <AddGroupsPanel workgroupId={workgroup.id} />
      <GroupMembersPanel workgroupId={workgroup.id} group={viewing} />
    </div>
  );
}
