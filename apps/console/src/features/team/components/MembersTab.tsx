/**
 * The members tab: filter by role (q_is_admin) and a search key (name or account), ten a page
 * with the pager only past ten. Setting opens the member's Base Info panel; Delete asks first
 * and is unavailable, with the reason, for oneself, the team's owner and other administrators
 * (the server refuses those too). Workgroups opens the member's workgroups page (Distribute to
 * workgroups, Exit).
 */
import { useEffect, useState, type ReactNode } from 'react';
import {
  App,
  Avatar,
  Button,
  Card,
  Empty,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import {
  ApartmentOutlined,
  DeleteOutlined,
  PlusOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  ALL_ROLES,
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD,
  ROLE_NAMES,
  isRole,
  type Member,
} from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { accountWorkgroupsPath } from '../../../shared/routes';
import { useCurrentAccountQuery } from '../../../shared/session/session';
import { formatEpoch } from '../../../shared/time/format';
import { useDeleteMemberMutation, useMembersQuery, type MemberFilter } from '../api';
import { AddMemberPanel, ADD_MEMBER_PANEL } from './AddMemberPanel';
import { MemberSettingPanel, MEMBER_SETTING_PANEL } from './MemberSettingPanel';

/** Why a member cannot be deleted by `selfId`, as a catalogue code, or null when they can. */
export function deleteBlocker(member: Member, selfId: number | undefined): string | null {
  if (member.id === selfId) return 'DeleteSelf';
  if (member.is_owner) return 'AccountNotAllowDelete';
  if (member.is_admin !== 0) return 'AdminProtected';
  return null;
}

export function MembersTab(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const me = useCurrentAccountQuery();
  const [filter, setFilter] = useState<MemberFilter>({ page: 1 });
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Member | null>(null);
  const members = useMembersQuery(filter);
  const remove = useDeleteMemberMutation();
  const total = members.data?.num_results ?? 0;
  const rows = members.data?.objects ?? [];

  // Deleting the last row of the last page moves back one page.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (members.data && filter.page > lastPage) setFilter((f) => ({ ...f, page: lastPage }));
  }, [members.data, filter.page, lastPage]);

  const roleName = (role: number): string =>
    isRole(role) ? t(`common.role.${ROLE_NAMES[role]}`) : String(role);

  const onDelete = (member: Member): void =>
    remove.mutate(member.id, {
      onSuccess: () => void message.success(t('messages.deleteSuccess')),
      onError: (error) => void message.error(errorText(error)),
    });

  const openSetting = (member: Member): void => {
    setSelected(member);
    panel.open(MEMBER_SETTING_PANEL);
  };

  // The panel follows the row as the list refreshes (a status toggled inside it).
  const current = selected ? (rows.find((m) => m.id === selected.id) ?? selected) : null;

  return (
    <Card>
      <div className="pc-toolbar">
        <Space wrap>
          <Select<number>
            allowClear
            aria-label={t('team.members.roleFilter')}
            placeholder={t('team.members.allRoles')}
            className="pc-toolbar__select"
            value={filter.role}
            onChange={(role) => setFilter((f) => ({ ...f, page: 1, role }))}
            options={ALL_ROLES.map((role) => ({ value: role, label: roleName(role) }))}
          />
          <Input.Search
            allowClear
            aria-label={t('team.members.search')}
            placeholder={t('team.members.searchPlaceholder')}
            className="pc-toolbar__search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(key) => setFilter((f) => ({ ...f, page: 1, key }))}
            enterButton={t('common.action.search')}
          />
        </Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => panel.open(ADD_MEMBER_PANEL)}>
          {t('team.members.add')}
        </Button>
      </div>
      <Table<Member>
        rowKey="id"
        loading={members.isPending || members.isFetching}
        dataSource={rows}
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
            title: t('team.members.col.name'),
            render: (_: unknown, m: Member) => (
              <Space>
                <Avatar size="small" src={m.avatar || undefined} icon={<UserOutlined />} />
                <span>{m.name}</span>
              </Space>
            ),
          },
          { key: 'account', dataIndex: 'account', title: t('team.members.col.account') },
          {
            key: 'role',
            dataIndex: 'is_admin',
            title: t('team.members.col.role'),
            render: (role: number, m: Member) => (
              <Space size={4}>
                <span>{roleName(role)}</span>
                {m.is_owner ? <Tag color="gold">{t('team.members.owner')}</Tag> : null}
              </Space>
            ),
          },
          {
            key: 'status',
            dataIndex: 'status',
            title: t('team.members.col.status'),
            render: (disabled: boolean) =>
              disabled ? (
                <Tag color="error">{t('team.members.disabled')}</Tag>
              ) : (
                <Tag color="success">{t('team.members.enabled')}</Tag>
              ),
          },
          {
            key: 'mfa',
            dataIndex: 'otp_enabled',
            title: t('team.members.col.mfa'),
            render: (on: boolean) =>
              on ? (
                <Tag color="processing">{t('team.members.mfaOn')}</Tag>
              ) : (
                <Tag>{t('team.members.mfaOff')}</Tag>
              ),
          },
          {
            key: 'last_login_time',
            dataIndex: 'last_login_time',
            title: t('team.members.col.lastLogin'),
            render: (value: number | null) => formatEpoch(value, t('team.members.never')),
          },
          {
            key: 'actions',
            title: t('team.members.col.actions'),
            render: (_: unknown, m: Member) => {
              const blocker = deleteBlocker(m, me.data?.id);
              const deleteButton = (
                <Button
                  type="link"
                  danger
                  icon={<DeleteOutlined />}
                  disabled={blocker !== null}
                  aria-label={t('team.members.deleteLabel', { name: m.name })}
                >
                  {t('common.action.delete')}
                </Button>
              );
              return (
                <Space size={0}>
                  <Link
                    to={accountWorkgroupsPath(m.id, m.name)}
                    className="ant-btn ant-btn-link"
                    aria-label={t('workgroup-admin.memberEntry.aria', { name: m.name })}
                  >
                    <ApartmentOutlined /> {t('workgroup-admin.memberEntry.label')}
                  </Link>
                  <Button
                    type="link"
                    icon={<SettingOutlined />}
                    aria-label={t('team.members.settingLabel', { name: m.name })}
                    onClick={() => openSetting(m)}
                  >
                    {t('common.action.setting')}
                  </Button>
                  {blocker ? (
                    <Tooltip title={t(`errors.${blocker}`)}>
                      <span>{deleteButton}</span>
                    </Tooltip>
                  ) : (
                    <Popconfirm
                      title={t('team.members.deleteTitle')}
                      description={t('team.members.deleteBody', {
                        name: m.name,
                        account: m.account,
                      })}
                      okText={t('common.action.delete')}
                      cancelText={t('common.action.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => onDelete(m)}
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
      <AddMemberPanel />
      <MemberSettingPanel member={current} selfId={me.data?.id} />
    </Card>
  );
}
