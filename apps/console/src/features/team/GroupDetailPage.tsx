/**
 * Group detail (spec 2 §2, route settingTeamGroupDetail): the group's name as the title (from
 * the `name` query at once, then from the server), a link back to the group tab, and its
 * members searchable by name or account, with Add Member and Remove (after confirming).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Card, Empty, Input, Popconfirm, Table, Typography } from 'antd';
import { ArrowLeftOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD,
  ROLE_NAMES,
  isRole,
  type Member,
} from '@portcullis/contract';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { PATHS } from '../../shared/routes';
import {
  useGroupMembersMutation,
  useGroupMembersQuery,
  useGroupQuery,
  type GroupMemberFilter,
} from './api';
import { AddGroupMembersPanel, ADD_GROUP_MEMBERS_PANEL } from './components/AddGroupMembersPanel';

export function GroupDetailPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const { id: idParam } = useParams();
  const [params] = useSearchParams();
  const id = Number.parseInt(idParam ?? '', 10) || 0;
  const group = useGroupQuery(id);
  const [filter, setFilter] = useState<GroupMemberFilter>({ page: 1 });
  const [search, setSearch] = useState('');
  const members = useGroupMembersQuery(id, filter);
  const remove = useGroupMembersMutation(id, 'remove');
  const total = members.data?.num_results ?? 0;
  const title = group.data?.name ?? params.get('name') ?? '';

  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (members.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [members.data, filter.page, lastPage]);

  const onRemove = (member: Member): void =>
    remove.mutate([member.id], {
      onSuccess: () => void message.success(t('team.notice.removeSuccess')),
      onError: (error) => void message.error(errorText(error)),
    });

  return (
    <>
      <Link to={`${PATHS.team}?type=group`} className="pc-back-link">
        <ArrowLeftOutlined /> {t('team.groupDetail.back')}
      </Link>
      <PageHeader
        title={title}
        subtitle={group.data?.note || t('team.groupDetail.subtitle')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => panel.open(ADD_GROUP_MEMBERS_PANEL)}
          >
            {t('team.groupDetail.add')}
          </Button>
        }
      />
      <Card>
        <div className="pc-toolbar">
          <Input.Search
            allowClear
            aria-label={t('team.groupDetail.search')}
            placeholder={t('team.groupDetail.searchPlaceholder')}
            className="pc-toolbar__search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(key) => setFilter({ page: 1, key })}
            enterButton={t('common.action.search')}
          />
          <Typography.Text type="secondary">
            {t('team.groupDetail.count', { count: total })}
          </Typography.Text>
        </div>
        <Table<Member>
          rowKey="id"
          loading={members.isPending || members.isFetching}
          dataSource={members.data?.objects ?? []}
          locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
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
            { key: 'name', dataIndex: 'name', title: t('team.members.col.name') },
            { key: 'account', dataIndex: 'account', title: t('team.members.col.account') },
            {
              key: 'role',
              dataIndex: 'is_admin',
              title: t('team.members.col.role'),
              render: (role: number) =>
                isRole(role) ? t(`common.role.${ROLE_NAMES[role]}`) : String(role),
            },
            {
              key: 'actions',
              title: t('team.members.col.actions'),
              render: (_: unknown, m: Member) => (
                <Popconfirm
                  title={t('team.groupDetail.removeTitle')}
                  description={t('team.groupDetail.removeBody', { name: m.name, group: title })}
                  okText={t('common.action.remove')}
                  cancelText={t('common.action.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onRemove(m)}
                >
                  <Button
                    type="link"
                    danger
                    icon={<MinusCircleOutlined />}
                    aria-label={t('team.groupDetail.removeLabel', { name: m.name })}
                  >
                    {t('common.action.remove')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
      <AddGroupMembersPanel groupId={id} />
    </>
  );
}
