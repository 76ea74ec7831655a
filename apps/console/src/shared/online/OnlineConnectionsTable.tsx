/**
 * Online sessions as a table with multi-select disconnect (spec 1 §2.4 and §2.7): member,
 * workgroup and resource (unless the caller already narrowed to one resource), client IP, way,
 * start time and duration. Disconnect, for the selected rows or one row, asks first; a failure
 * is shown as information (spec 1 §8 "Disconnect failure"). The server decides what the caller
 * may see and cut; this only shows it.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DisconnectOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  TERMINAL_WAYS,
  PAGE_SIZE_DEFAULT,
  type OnlineConnection,
  type OnlineConnectionQuery,
} from '@portcullis/contract';
import { LoadFailed } from '../components/LoadFailed';
import { useErrorText } from '../i18n/errors';
import { formatEpoch } from '../time/format';
import { useCutConnectionsMutation, useOnlineConnectionsQuery } from './api';
import { formatDuration } from './format';

export interface OnlineConnectionsTableProps {
  /** Narrows the list (the workgroup panel: q_project and q_resource). */
  filter?: Omit<Partial<OnlineConnectionQuery>, 'page' | 'page_size'>;
  /** Fetch only while shown. */
  enabled: boolean;
  /** Leave out the workgroup and resource columns (the list is one resource's). */
  compact?: boolean;
  /** After a cut, for lists outside this table that count sessions. */
  onCut?: () => void;
  /** Mark the sessions that run without security mode (the dashboard's unsafe-mode warning). */
  flagUnsafe?: boolean;
  /** Offer Monitor on terminal sessions (the dashboard): called with the session to watch. */
  onMonitor?: (session: OnlineConnection) => void;
}

export function OnlineConnectionsTable({
  filter = {},
  enabled,
  compact = false,
  onCut,
  flagUnsafe = false,
  onMonitor,
}: OnlineConnectionsTableProps): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const list = useOnlineConnectionsQuery(
    { ...filter, page, page_size: PAGE_SIZE_DEFAULT },
    enabled,
  );
  const cut = useCutConnectionsMutation(onCut);
  const rows = list.data?.objects ?? [];
  // Sessions end (a cut, or by themselves between refreshes): a page past the last one would
  // show an empty list with no pager to leave it.
  const lastPage = Math.max(1, Math.ceil((list.data?.num_results ?? 0) / PAGE_SIZE_DEFAULT));
  useEffect(() => {
    if (list.data && page > lastPage) setPage(lastPage);
  }, [list.data, page, lastPage]);

  const disconnect = (ids: number[]): void =>
    cut.mutate(ids, {
      onSuccess: () => {
        setSelected((s) => s.filter((id) => !ids.includes(id)));
        void message.success(t('online.table.cutDone'));
      },
      onError: (error) => void message.info(errorText(error)),
    });

  const confirmProps = {
    title: t('online.table.confirmTitle'),
    description: t('online.table.confirmBody'),
    okText: t('online.table.disconnect'),
    cancelText: t('common.action.cancel'),
    okButtonProps: { danger: true },
  };

  const columns = [
    {
      key: 'account',
      title: t('online.table.col.member'),
      render: (_: unknown, r: OnlineConnection) => {
        const name = r.account.name || r.account.account;
        // Security mode governs terminals; a database session's rules are its resource's.
        if (!flagUnsafe || r.safe_mode === 1 || !TERMINAL_WAYS.includes(r.way)) return name;
        return (
          <Space size={4}>
            {name}
            <Tooltip title={t('online.table.unsafeHint')}>
              <Typography.Text type="warning">
                <WarningOutlined role="img" aria-label={t('online.table.unsafe')} />
              </Typography.Text>
            </Tooltip>
          </Space>
        );
      },
    },
    ...(compact
      ? []
      : [
          {
            key: 'project',
            title: t('online.table.col.workgroup'),
            render: (_: unknown, r: OnlineConnection) => r.project_name,
          },
          {
            key: 'resource',
            title: t('online.table.col.resource'),
            render: (_: unknown, r: OnlineConnection) => (
              <Space direction="vertical" size={0}>
                <span>{r.resource_name}</span>
                <Typography.Text type="secondary">{r.resource_ip_address}</Typography.Text>
              </Space>
            ),
          },
        ]),
    {
      key: 'ip',
      title: t('online.table.col.clientIp'),
      render: (_: unknown, r: OnlineConnection) => r.client_ip_address || '-',
    },
    {
      key: 'way',
      title: t('online.table.col.way'),
      render: (_: unknown, r: OnlineConnection) => (r.way ? <Tag>{r.way}</Tag> : '-'),
    },
    {
      key: 'start',
      title: t('online.table.col.start'),
      render: (_: unknown, r: OnlineConnection) => formatEpoch(r.create_time),
    },
    {
      key: 'duration',
      title: t('online.table.col.duration'),
      render: (_: unknown, r: OnlineConnection) => formatDuration(r.duration),
    },
    {
      key: 'actions',
      title: t('online.table.col.actions'),
      render: (_: unknown, r: OnlineConnection) => (
        <Space size={0}>
          {onMonitor && TERMINAL_WAYS.includes(r.way) ? (
            <Button
              type="link"
              size="small"
              aria-label={t('online.table.monitorOne', { name: r.account.name })}
              onClick={() => onMonitor(r)}
            >
              {t('online.table.monitor')}
            </Button>
          ) : null}
          <Popconfirm {...confirmProps} onConfirm={() => disconnect([r.id])}>
            <Button
              type="link"
              danger
              size="small"
              aria-label={t('online.table.disconnectOne', { name: r.account.name })}
            >
              {t('online.table.disconnect')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="pc-online">
      <Space className="pc-toolbar">
        <Popconfirm
          {...confirmProps}
          // Says how many end: "The 3 selected sessions end at once", not "The session".
          description={t('online.table.confirmBodySelected', { count: selected.length })}
          // Below the button: above it, the question covered the dialog's title.
          placement="bottomLeft"
          onConfirm={() => disconnect(selected)}
        >
          <Button
            danger
            icon={<DisconnectOutlined />}
            disabled={selected.length === 0}
            loading={cut.isPending}
          >
            {selected.length === 0
              ? t('online.table.disconnect')
              : t('online.table.disconnectSelected', { count: selected.length })}
          </Button>
        </Popconfirm>
      </Space>
      {list.isError ? <LoadFailed error={list.error} onRetry={() => void list.refetch()} /> : null}
      <Table<OnlineConnection>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={rows}
        columns={columns}
        rowSelection={{
          selectedRowKeys: selected,
          // Ticks on other pages stay ticked (and counted) while another page is shown.
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys.map(Number)),
        }}
        locale={{
          emptyText: list.isError ? null : <Empty description={t('online.table.empty')} />,
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE_DEFAULT,
          total: list.data?.num_results ?? 0,
          hideOnSinglePage: true,
          showSizeChanger: false,
          onChange: setPage,
        }}
        scroll={{ x: true }}
      />
    </div>
  );
}
