/**
 * A member's workgroups (spec 2 §2 /settings/account/{id}, route settingTeamAccountWorkgroup,
 * query type=workgroup and accountName): every workgroup the member reaches, directly (as an
 * administrator or ordinary member) or through groups, ten a page. Distribute joins the member
 * to more workgroups (bulk add); Exit, per row or for the chosen rows, takes the member out
 * (bulk delete). A workgroup reached only through a group cannot be exited here: the tooltip
 * names the groups to change instead.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, LogoutOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { PATHS } from '../../shared/routes';
import { useAccountWorkgroupsQuery, useBulkExitMutation, type AccountWorkgroup } from './api';
import { DefaultMark } from './components/DefaultMark';
import { JoinWorkgroupsPanel, JOIN_WORKGROUPS_PANEL } from './components/JoinWorkgroupsPanel';
import { pager, useClampPage } from './components/paging';
import { workgroupDetailPath } from './paths';

export function AccountWorkgroupsPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const { id: idParam } = useParams();
  const [params] = useSearchParams();
  const accountId = Number.parseInt(idParam ?? '', 10) || 0;
  const accountName = params.get('accountName') ?? '';
  const [page, setPage] = useState(1);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const workgroups = useAccountWorkgroupsQuery(accountId, page);
  const exit = useBulkExitMutation(accountId);
  const total = workgroups.data?.num_results ?? 0;
  const setPageStable = useCallback((p: number) => setPage(p), []);
  useClampPage(workgroups.data !== undefined, total, page, setPageStable);

  const onExit = (ids: number[]): void =>
    exit.mutate(ids, {
      onSuccess: () => {
        setSelectedIds((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('messages.exitSuccess'));
      },
      onError: (error) => void message.error(errorText(error)),
    });

  const roleText = (w: AccountWorkgroup): ReactNode =>
    w.role === null ? (
      <Tag>{t('workgroup-admin.account.throughGroups')}</Tag>
    ) : w.role === 1 ? (
      <Tag color="blue">{t('workgroup-admin.role.admin')}</Tag>
    ) : (
      <Tag>{t('workgroup-admin.role.ordinary')}</Tag>
    );

  return (
    <>
      <Link to={`${PATHS.team}?type=members`} className="pc-back-link">
        <ArrowLeftOutlined /> {t('workgroup-admin.account.back')}
      </Link>
      <PageHeader
        title={
          accountName
            ? t('workgroup-admin.account.title', { name: accountName })
            : t('workgroup-admin.account.titleNoName')
        }
        subtitle={t('workgroup-admin.account.subtitle')}
      />
      <Card>
        <div className="pc-toolbar">
          <Space wrap>
            <Button
              type="primary"
              icon={<ShareAltOutlined />}
              onClick={() => panel.open(JOIN_WORKGROUPS_PANEL)}
            >
              {t('workgroup-admin.account.distribute')}
            </Button>
            <Popconfirm
              title={t('workgroup-admin.account.batchExitTitle')}
              description={t('workgroup-admin.account.batchExitBody', {
                count: selectedIds.length,
              })}
              okText={t('workgroup-admin.account.exit')}
              cancelText={t('common.action.cancel')}
              okButtonProps={{ danger: true }}
              disabled={selectedIds.length === 0}
              onConfirm={() => onExit(selectedIds)}
            >
              <Button danger icon={<LogoutOutlined />} disabled={selectedIds.length === 0}>
                {t('workgroup-admin.account.exit')}
              </Button>
            </Popconfirm>
          </Space>
          <Typography.Text type="secondary">
            {t('workgroup-admin.account.count', { count: total })}
          </Typography.Text>
        </div>
        <Table<AccountWorkgroup>
          rowKey="id"
          loading={workgroups.isPending || workgroups.isFetching}
          dataSource={workgroups.data?.objects ?? []}
          locale={{ emptyText: <Empty description={t('messages.noData')} /> }}
          scroll={{ x: 'max-content' }}
          rowSelection={{
            selectedRowKeys: selectedIds,
            onChange: (keys) => setSelectedIds(keys.map(Number)),
            getCheckboxProps: (w: AccountWorkgroup) => ({
              disabled: w.role === null,
              'aria-label': t('workgroup-admin.account.selectLabel', { name: w.name }),
            }),
          }}
          pagination={pager(total, page, setPageStable)}
          columns={[
            {
              key: 'name',
              title: t('workgroup-admin.list.col.name'),
              render: (_: unknown, w: AccountWorkgroup) => (
                <Space size={6}>
                  <Link to={workgroupDetailPath(w.id, 'member')}>{w.name}</Link>
                  {w.is_default ? <DefaultMark /> : null}
                </Space>
              ),
            },
            {
              key: 'desc',
              title: t('workgroup-admin.list.col.desc'),
              render: (_: unknown, w: AccountWorkgroup) => w.desc || '-',
            },
            {
              key: 'role',
              title: t('workgroup-admin.members.col.role'),
              render: (_: unknown, w: AccountWorkgroup) => roleText(w),
            },
            {
              key: 'groups',
              title: t('workgroup-admin.account.col.groups'),
              render: (_: unknown, w: AccountWorkgroup) =>
                w.groups.length > 0 ? (
                  <Space size={[4, 4]} wrap>
                    {w.groups.map((g) => (
                      <Tag key={g}>{g}</Tag>
                    ))}
                  </Space>
                ) : (
                  '-'
                ),
            },
            {
              key: 'actions',
              title: t('workgroup-admin.list.col.actions'),
              render: (_: unknown, w: AccountWorkgroup) => {
                const button = (
                  <Button
                    type="link"
                    danger
                    icon={<LogoutOutlined />}
                    disabled={w.role === null}
                    aria-label={t('workgroup-admin.account.exitLabel', { name: w.name })}
                  >
                    {t('workgroup-admin.account.exit')}
                  </Button>
                );
                return w.role === null ? (
                  <Tooltip
                    title={t('workgroup-admin.account.onlyThroughGroups', {
                      groups: w.groups.join(', '),
                    })}
                  >
                    <span>{button}</span>
                  </Tooltip>
                ) : (
                  <Popconfirm
                    title={t('workgroup-admin.account.exitTitle')}
                    description={t('workgroup-admin.account.exitBody', {
                      name: accountName,
                      workgroup: w.name,
                    })}
                    okText={t('workgroup-admin.account.exit')}
                    cancelText={t('common.action.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => onExit([w.id])}
                  >
                    {button}
                  </Popconfirm>
                );
              },
            },
          ]}
        />
      </Card>
      <JoinWorkgroupsPanel accountId={accountId} />
    </>
  );
}
