/**
 * A workgroup's members tab (spec 2 §2 Workgroup detail, §6; also on the members' workgroup
 * detail for the workgroup's own administrators): Distribute (add members as
 * administrators or ordinary members), batch Delete, a search by name or account, and the table
 * of name (linking to the member's workgroups), account, type (changeable in place) and Delete.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { App, Avatar, Button, Empty, Input, Popconfirm, Select, Space, Table } from 'antd';
import { DeleteOutlined, ShareAltOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { canSeeMenu, type Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { accountWorkgroupsPath } from '../../../shared/routes';
import { roleOf, useCurrentAccountQuery } from '../../../shared/session/session';
import { formatEpoch } from '../../../shared/time/format';
import {
  useChangeMemberRoleMutation,
  useRemoveWorkgroupMembersMutation,
  useWorkgroupMembersQuery,
  type KeyFilter,
  type MemberRole,
  type WorkgroupMember,
} from '../api';
import { AddMembersPanel, ADD_MEMBERS_PANEL } from './AddMembersPanel';
import { pager, useClampPage } from './paging';
import { useRoleOptions } from './roles';

export function MembersTab({ workgroup }: { workgroup: Workgroup }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const roleOptions = useRoleOptions();
  // A workgroup administrator who is an ordinary team member has no member pages to link to.
  const me = useCurrentAccountQuery().data;
  const linksToMember = me !== undefined && canSeeMenu(roleOf(me), 'workgroupManage');
  const [filter, setFilter] = useState<KeyFilter>({ page: 1 });
  const [search, setSearch] = useState('');
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const members = useWorkgroupMembersQuery(workgroup.id, filter);
  const remove = useRemoveWorkgroupMembersMutation(workgroup.id);
  const changeRole = useChangeMemberRoleMutation(workgroup.id);
  const total = members.data?.num_results ?? 0;
  const setPage = useCallback((page: number) => setFilter((f) => ({ ...f, page })), []);
  useClampPage(members.data !== undefined, total, filter.page, setPage);

  const onDelete = (ids: number[]): void =>
    remove.mutate(ids, {
      onSuccess: () => {
        setSelectedIds((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('messages.deleteSuccess'));
      },
      onError: (error) => void message.error(errorText(error)),
    });

  const onRole = (member: WorkgroupMember, role: MemberRole): void =>
    changeRole.mutate(
      { accountId: member.id, role },
      {
        onSuccess: () => void message.success(t('messages.changeSuccess')),
        onError: (error) => void message.error(errorText(error)),
      },
    );

  return (
    <div>
      <div className="pc-toolbar">
        <Space wrap>
          <Button
            type="primary"
            icon={<ShareAltOutlined />}
            onClick={() => panel.open(ADD_MEMBERS_PANEL)}
          >
            {t('workgroup-admin.members.distribute')}
          </Button>
          <Popconfirm
            title={t('workgroup-admin.members.batchDeleteTitle')}
            description={t('workgroup-admin.members.batchDeleteBody', {
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
        <Input.Search
          allowClear
          aria-label={t('workgroup-admin.members.search')}
          placeholder={t('workgroup-admin.members.searchPlaceholder')}
          className="pc-toolbar__search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(key) => setFilter({ page: 1, key })}
          enterButton={t('common.action.search')}
        />
      </div>
      <Table<WorkgroupMember>
        rowKey="id"
        loading={members.isPending || members.isFetching}
        dataSource={members.data?.objects ?? []}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selectedIds,
          onChange: (keys) => setSelectedIds(keys.map(Number)),
        }}
        pagination={pager(total, filter.page, setPage)}
        columns={[
          {
            key: 'name',
            title: t('workgroup-admin.members.col.name'),
            render: (_: unknown, m: WorkgroupMember) => (
              <Space>
                <Avatar size="small" src={m.avatar || undefined} icon={<UserOutlined />} />
                {linksToMember ? (
                  <Link to={accountWorkgroupsPath(m.id, m.name)}>{m.name}</Link>
                ) : (
                  m.name
                )}
              </Space>
            ),
          },
          { key: 'account', dataIndex: 'account', title: t('workgroup-admin.members.col.account') },
          {
            key: 'role',
            title: t('workgroup-admin.members.col.role'),
            render: (_: unknown, m: WorkgroupMember) => (
              <Select<MemberRole>
                size="small"
                variant="borderless"
                aria-label={t('workgroup-admin.members.roleLabel', { name: m.name })}
                value={m.role}
                style={{ minWidth: 150 }}
                onChange={(role) => onRole(m, role)}
                options={roleOptions}
              />
            ),
          },
          {
            key: 'created',
            dataIndex: 'create_time',
            title: t('workgroup-admin.members.col.joined'),
            render: (value: number) => formatEpoch(value),
          },
          {
            key: 'actions',
            title: t('workgroup-admin.members.col.actions'),
            render: (_: unknown, m: WorkgroupMember) => (
              <Popconfirm
                title={t('workgroup-admin.members.deleteTitle')}
                description={t('workgroup-admin.members.deleteBody', {
                  name: m.name,
                  workgroup: workgroup.name,
                })}
                okText={t('common.action.delete')}
                cancelText={t('common.action.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete([m.id])}
              >
                <Button
                  type="link"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('workgroup-admin.members.deleteLabel', { name: m.name })}
                >
                  {t('common.action.delete')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <AddMembersPanel workgroupId={workgroup.id} />
    </div>
  );
}
