/**
 * One action-log entry: who reached which resource how and from where, when, for how long
 * (`HH:MM:SS`), and the recording's playback and download when there is one to play.
 */
import type { ReactNode } from 'react';
import { Avatar, Button, Space, Tag, Typography } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDuration, type ActionLogEntry } from '@portcullis/contract';
import { formatEpoch } from '../../../shared/time/format';
import { canPlay, playbackUrl } from '../api';
import { DownloadRecording } from './DownloadRecording';

export function LogEntry({ entry }: { entry: ActionLogEntry }): ReactNode {
  const { t } = useTranslation();
  const recorded = entry.play !== 0;
  return (
    <div
      role="listitem"
      className="action-log-entry"
      data-testid={`action-log-entry-${entry.connection_id}`}
    >
      <Avatar src={entry.avatar || undefined}>{entry.account_name.slice(0, 1)}</Avatar>
      <div className="action-log-entry__body">
        <Space wrap>
          <Typography.Text strong>{entry.account_name}</Typography.Text>
          <Typography.Text>{entry.resource_name}</Typography.Text>
          <Typography.Text type="secondary">{entry.resource_ip_address}</Typography.Text>
          <Tag>{entry.way}</Tag>
          {entry.unsafe_mode === 1 && <Tag color="orange">{t('action-log.entry.unsafe')}</Tag>}
        </Space>
        <Space wrap size="large" className="action-log-entry__meta">
          <span>{t('action-log.entry.code', { code: entry.code || '-' })}</span>
          <span>{t('action-log.entry.client', { ip: entry.client_ip_address || '-' })}</span>
          <span>{t('action-log.entry.start', { time: formatEpoch(entry.start_date) })}</span>
          <span>{t('action-log.entry.end', { time: formatEpoch(entry.date) })}</span>
          <span>
            {t('action-log.entry.total', { total: formatDuration(entry.start_date, entry.date) })}
          </span>
        </Space>
      </div>
      {recorded && (
        <Space>
          {canPlay(entry) && (
            <Button
              type="link"
              icon={<PlayCircleOutlined />}
              href={playbackUrl(entry)}
              target="_blank"
              rel="noopener"
            >
              {t('action-log.entry.play')}
            </Button>
          )}
          <DownloadRecording entry={entry} />
        </Space>
      )}
    </div>
  );
}
