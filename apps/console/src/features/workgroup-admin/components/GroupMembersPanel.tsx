import { useState, type ReactNode } from 'react';
import { Avatar, Empty, Space, Table } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useGroupMembersQuery, type GroupMemberRow, type WorkgroupGroup } from '../api';
import { pager } from './paging';

export const GROUP_MEMBERS_PANEL = 'panel/workgroup-admin/group-members';

/** View group members (spec 2 §2 Workgroup panels): ten a page. */
export function GroupMembersPanel({
  workgroupId,
  group,
}: {
  workgroupId: number;
  group: WorkgroupGroup | null;
}): ReactNode {
  const { t } = useTranslation();
  return (
    <RightPanel
      panelKey={GROUP_MEMBERS_PANEL}
      title={t('workgroup-admin.groupMembers.title', { name: group?.name ?? '' })}
    >
      {group ? <GroupMembers key={group.id} workgroupId={workgroupId} groupId={group.id} /> : null}
    </RightPanel>
  );
}

function GroupMembers({
  workgroupId,
  groupId,
}: {
  workgroupId: number;
  groupId: number;
}): ReactNode {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const members = useGroupMembersQuery(workgroupId, groupId, page);
  const total = members.data?.num_results ?? 0;
  return (
    <Table<GroupMemberRow>
      rowKey="id"
      size="small"
      loading={members.isPending || members.isFetching}
      dataSource={members.data?.objects ?? []}
      locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
      pagination={pager(total, page, setPage)}
      columns={[
        {
          key: 'name',
          title: t('workgroup-admin.members.col.name'),
          render: (_: unknown, m: GroupMemberRow) => (
            <Space>
              <Avatar size="small" src={m.avatar || undefined} icon={<UserOutlined />} />
              <span>{m.name}</span>
            </Space>
          ),
        },
        { key: 'account', dataIndex: 'account', title: t('workgroup-admin.members.col.account') },
      ]}
    />
  );
}
