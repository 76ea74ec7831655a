/**
 * One action-log entry: who reached which resource how and from where, when, for how long
 * (`HH:MM:SS`), and the recording's download whenever there is one, with its playback when it
 * has something to play (a terminal session that ended after it began).
 *
 * A file-log entry (way sftp or scp, spec 1 §3: "file-log sessions carry op and filename") is
 * one file a session moved: its direction as a tag, the file name as the client named it (data,
 * shown as text and never opened), the session it belongs to and the moment it was logged. It
 * has no recording, so no playback or download; the session it belongs to has them.
 */
import type { ReactNode } from 'react';
import { Avatar, Button, Space, Tag, Typography } from 'antd';
import {
  CloudDownloadOutlined,
  CloudUploadOutlined,
  FileOutlined,
  PlayCircleOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDuration, type ActionLogEntry } from '@portcullis/contract';
import { formatEpoch } from '../../../shared/time/format';
import { canDownload, canPlay, playbackUrl } from '../../../shared/recording/links';
import { isFileEntry } from '../api';
import { DownloadRecording } from '../../../shared/recording/DownloadRecording';

export function LogEntry({ entry }: { entry: ActionLogEntry }): ReactNode {
  const { t } = useTranslation();
  const file = isFileEntry(entry);
  const recorded = canDownload(entry) && !file;
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
          {file && (
            <Tag
              color={entry.op === 'upload' ? 'blue' : 'green'}
              icon={entry.op === 'upload' ? <CloudUploadOutlined /> : <CloudDownloadOutlined />}
            >
              {t(`action-log.op.${entry.op}`)}
            </Tag>
          )}
          <Tag>{entry.way}</Tag>
          {entry.unsafe_mode === 1 && <Tag color="orange">{t('action-log.entry.unsafe')}</Tag>}
        </Space>
        {file && (
          <div className="action-log-entry__file">
            <FileOutlined aria-hidden />
            <Typography.Text type="secondary" className="action-log-entry__file-label">
              {t('action-log.entry.file')}
            </Typography.Text>
            {/* Long paths wrap anywhere and stop at three lines; the title holds the whole. */}
            <span className="action-log-entry__filename" title={entry.filename}>
              {entry.filename || '-'}
            </span>
          </div>
        )}
        <Space wrap size="large" className="action-log-entry__meta">
          {file ? (
            <span>
              {entry.parent_connection_id !== undefined
                ? t('action-log.entry.inSession', { id: entry.parent_connection_id })
                : t('action-log.entry.noSession')}
            </span>
          ) : (
            <span>{t('action-log.entry.session', { id: entry.connection_id })}</span>
          )}
          <span>{t('action-log.entry.code', { code: entry.code || '-' })}</span>
          <span>{t('action-log.entry.client', { ip: entry.client_ip_address || '-' })}</span>
          {file ? (
            // A file entry is an instant: logged when the client opened the file.
            <span>{t('action-log.entry.time', { time: formatEpoch(entry.start_date) })}</span>
          ) : (
            <>
              <span>{t('action-log.entry.start', { time: formatEpoch(entry.start_date) })}</span>
              {/* A session still open has no end yet (0): its total is left out too. */}
              {entry.date ? (
                <>
                  <span>{t('action-log.entry.end', { time: formatEpoch(entry.date) })}</span>
                  <span>
                    {t('action-log.entry.total', {
                      total: formatDuration(entry.start_date, entry.date),
                    })}
                  </span>
                </>
              ) : (
                <span>{t('action-log.entry.open')}</span>
              )}
            </>
          )}
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
