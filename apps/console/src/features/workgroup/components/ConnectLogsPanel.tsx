/**
 * Connect Logs (spec 1 §2.7): one resource's sessions as the action log holds them (the
 * member's own; every member's for those who read the team's log), newest first, 10 a page:
 * user with the unsafe-mode mark, way, client IP, time, total time, and the recording's
 * playback (non-database sessions whose play is not 0 and whose end is after the start) and
 * download. Show all opens the action log narrowed to this resource.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Empty, Space, Table, Tag } from 'antd';
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
import { canPlay, playbackUrl } from '../../../shared/recording/links';
import { DownloadRecording } from '../../../shared/recording/DownloadRecording';
import { useConnectLogsQuery } from '../api';

export const CONNECT_LOGS_PANEL = 'panel/workgroup/connect-logs';

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
        scroll={{ x: 'max-content' }}
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
            render: (_: unknown, e: ActionLogEntry) => (
              <Space size={4} wrap>
                <span>{e.account_name}</span>
                {e.unsafe_mode === 1 ? (
                  <Tag color="orange">{t('workgroup.logs.unsafe')}</Tag>
                ) : null}
              </Space>
            ),
          },
          { key: 'way', title: t('workgroup.logs.col.way'), dataIndex: 'way' },
          {
            key: 'ip',
            title: t('workgroup.logs.col.clientIp'),
            render: (_: unknown, e: ActionLogEntry) => e.client_ip_address || '-',
          },
          {
            key: 'time',
            title: t('workgroup.logs.col.time'),
            render: (_: unknown, e: ActionLogEntry) => formatEpoch(e.start_date),
          },
          {
            key: 'total',
            title: t('workgroup.logs.col.total'),
            render: (_: unknown, e: ActionLogEntry) =>
              e.date ? formatDuration(e.start_date, e.date) : t('workgroup.logs.open'),
          },
          {
            key: 'actions',
            title: t('workgroup.logs.col.actions'),
            render: (_: unknown, e: ActionLogEntry) => <EntryActions entry={e} />,
          },
        ]}
      />
    </>
  );
}

function EntryActions({ entry }: { entry: ActionLogEntry }): ReactNode {
  const { t } = useTranslation();
  if (entry.play === 0) return '-';
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
