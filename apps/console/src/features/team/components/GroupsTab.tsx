/**
 * The group tab: search by name (q_name), ten a page with the pager only past ten; a group's
 * name opens its detail page, Setting its panel, Delete asks first (members stay in the team).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Card, Empty, Input, Popconfirm, Space, Table } from 'antd';
import { DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, PAGER_THRESHOLD, type Group } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { groupDetailPath } from '../../../shared/routes';
import { formatEpoch } from '../../../shared/time/format';
import { useDeleteGroupMutation, useGroupsQuery, type GroupFilter } from '../api';
import { ADD_GROUP_PANEL, GroupPanel, GROUP_SETTING_PANEL } from './GroupPanel';

export function GroupsTab(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [filter, setFilter] = useState<GroupFilter>({ page: 1 });
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Group | null>(null);
  const groups = useGroupsQuery(filter);
  const remove = useDeleteGroupMutation();
  const total = groups.data?.num_results ?? 0;

  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (groups.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [groups.data, filter.page, lastPage]);

  const onDelete = (group: Group): void =>
    remove.mutate(group.id, {
      onSuccess: () => void message.success(t('messages.deleteSuccess')),
      onError: (error) => void message.error(errorText(error)),
    });

  return (
    <Card>
      <div className="pc-toolbar">
        <Input.Search
          allowClear
          aria-label={t('team.groups.search')}
          placeholder={t('team.groups.searchPlaceholder')}
          className="pc-toolbar__search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(name) => setFilter({ page: 1, name })}
          enterButton={t('common.action.search')}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => panel.open(ADD_GROUP_PANEL)}>
          {t('team.groups.add')}
        </Button>
      </div>
      <Table<Group>
        rowKey="id"
        loading={groups.isPending || groups.isFetching}
        dataSource={groups.data?.objects ?? []}
        locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
        scroll={{ x: 'max-content' }}
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
          {
            key: 'name',
            dataIndex: 'name',
            title: t('team.groups.col.name'),
            render: (name: string, g: Group) => (
              <Link to={groupDetailPath(g.id, name)}>{name}</Link>
            ),
          },
          {
            key: 'note',
            dataIndex: 'note',
            title: t('team.groups.col.note'),
            render: (note: string) => note || '-',
          },
          { key: 'member_count', dataIndex: 'member_count', title: t('team.groups.col.members') },
          {
            key: 'create_time',
            dataIndex: 'create_time',
            title: t('team.groups.col.created'),
            render: (value: number) => formatEpoch(value),
          },
          {
            key: 'actions',
            title: t('team.groups.col.actions'),
            render: (_: unknown, g: Group) => (
              <Space size={0}>
                <Button
                  type="link"
                  icon={<SettingOutlined />}
                  aria-label={t('team.groups.settingLabel', { name: g.name })}
                  onClick={() => {
                    setSelected(g);
                    panel.open(GROUP_SETTING_PANEL);
                  }}
                >
                  {t('common.action.setting')}
                </Button>
                <Popconfirm
                  title={t('team.groups.deleteTitle')}
                  description={t('team.groups.deleteBody', { name: g.name })}
                  okText={t('common.action.delete')}
                  cancelText={t('common.action.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(g)}
                >
                  <Button
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('team.groups.deleteLabel', { name: g.name })}
                  >
                    {t('common.action.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <GroupPanel />
      <GroupPanel group={selected} />
    </Card>
  );
}
