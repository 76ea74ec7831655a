/**
 * Connect Logs (spec 1 §2.7): one resource's sessions as the action log holds them (the
 * member's own; every member's for those who read the team's log), newest first, 10 a page:
 * user with the unsafe-mode mark, way, client IP, time, total time, and the recording's
 * playback (non-database sessions whose play is not 0 and whose end is after the start) and
 * download. Show all opens the action log narrowed to this resource.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { PlayCircleOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  formatDuration,
  PAGE_SIZE_DEFAULT,
  PAGER_THRESHOLD,
  type ActionLogEntry,
  type ProjectResource,
} from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { formatEpoch } from '../../../shared/time/format';
import { ACTION_LOG_PATH } from '../../action-log';
import { canDownload, canPlay, playbackUrl } from '../../../shared/recording/links';
import { DownloadRecording } from '../../../shared/recording/DownloadRecording';
import { useConnectLogsQuery } from '../api';

export const CONNECT_LOGS_PANEL = 'panel/workgroup/connect-logs';

/** Column widths in pixels: together within the 760 px panel's 712 px of content. */
const WIDTHS = { user: 130, way: 64, ip: 110, time: 100, total: 80, actions: 210 };
const TABLE_WIDTH = Object.values(WIDTHS).reduce((sum, w) => sum + w, 0);

/** The action log route narrowed to one resource (`resourceName=id:name`, spec 1 §2.1). */
export function resourceLogPath(resourceId: number, name: string): string {
  return `${ACTION_LOG_PATH}?${new URLSearchParams({ resourceName: `${resourceId}:${name}` }).toString()}`;
}

export function ConnectLogsPanel({ resource }: { resource: ProjectResource | null }): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const open = activeKey === CONNECT_LOGS_PANEL && resource !== null;
  return (
    <RightPanel
      panelKey={CONNECT_LOGS_PANEL}
      title={t('workgroup.logs.title', { name: resource?.name ?? '' })}
      width={760}
    >
      {resource ? (
        <ConnectLogs key={resource.resource_id} resource={resource} enabled={open} />
      ) : null}
    </RightPanel>
  );
}

function ConnectLogs({
  resource,
  enabled,
}: {
  resource: ProjectResource;
  enabled: boolean;
}): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [page, setPage] = useState(1);
  const logs = useConnectLogsQuery(resource.resource_id, page, enabled);
  const total = logs.data?.total ?? 0;
  return (
    <>
      <div className="pc-connect-logs__toolbar">
        <Link to={resourceLogPath(resource.resource_id, resource.name)}>
          <UnorderedListOutlined /> {t('workgroup.logs.showAll')}
        </Link>
      </div>
      {logs.isError ? <Alert type="error" showIcon message={errorText(logs.error)} /> : null}
      <Table<ActionLogEntry>
        rowKey="connection_id"
        size="small"
        loading={logs.isPending || logs.isPlaceholderData}
        dataSource={logs.data?.data ?? []}
        locale={{ emptyText: <Empty description={t('workgroup.logs.empty')} /> }}
        // Fixed widths that fit the panel (a long name or address ends in an ellipsis, the
        // unsafe-mode tag goes under the name, the time takes two lines); a narrower panel
        // scrolls the rows under the action column, which stays at the right edge.
        scroll={{ x: TABLE_WIDTH }}
        pagination={
          total > PAGER_THRESHOLD
            ? {
                current: page,
                pageSize: PAGE_SIZE_DEFAULT,
                total,
                showSizeChanger: false,
                onChange: setPage,
              }
            : false
        }
        columns={[
          {
            key: 'user',
            title: t('workgroup.logs.col.user'),
            width: WIDTHS.user,
            render: (_: unknown, e: ActionLogEntry) => (
              <Space size={4} wrap>
                <Typography.Text
                  className="pc-connect-logs__user"
                  ellipsis={{ tooltip: e.account_name }}
                >
                  {e.account_name}
                </Typography.Text>
                {e.unsafe_mode === 1 ? (
                  <Tag color="orange">{t('workgroup.logs.unsafe')}</Tag>
                ) : null}
              </Space>
            ),
          },
          { key: 'way', title: t('workgroup.logs.col.way'), dataIndex: 'way', width: WIDTHS.way },
          {
            key: 'ip',
            title: t('workgroup.logs.col.clientIp'),
            width: WIDTHS.ip,
            ellipsis: true,
            render: (_: unknown, e: ActionLogEntry) => e.client_ip_address || '-',
          },
          {
            key: 'time',
            title: t('workgroup.logs.col.time'),
            width: WIDTHS.time,
            render: (_: unknown, e: ActionLogEntry) => formatEpoch(e.start_date),
          },
          {
            key: 'total',
            title: t('workgroup.logs.col.total'),
            width: WIDTHS.total,
            render: (_: unknown, e: ActionLogEntry) =>
              e.date ? formatDuration(e.start_date, e.date) : t('workgroup.logs.open'),
          },
          {
            key: 'actions',
            title: t('workgroup.logs.col.actions'),
            // Held at the right edge: a row wider than the panel scrolls under it, so
            // Playback and Download are never cut off.
            fixed: 'right' as const,
            width: WIDTHS.actions,
            className: 'pc-connect-logs__nowrap',
            render: (_: unknown, e: ActionLogEntry) => <EntryActions entry={e} />,
          },
        ]}
      />
    </>
  );
}

function EntryActions({ entry }: { entry: ActionLogEntry }): ReactNode {
  const { t } = useTranslation();
  if (!canDownload(entry)) return '-';
  return (
    <Space size={0}>
      {canPlay(entry) ? (
        <Button
          type="link"
          size="small"
          icon={<PlayCircleOutlined />}
          href={playbackUrl(entry)}
          target="_blank"
          rel="noopener"
          aria-label={t('workgroup.logs.playLabel', { time: formatEpoch(entry.start_date) })}
        >
          {t('workgroup.logs.play')}
        </Button>
      ) : null}
      <DownloadRecording entry={entry} size="small" />
    </Space>
  );
}
