/**
 * Download of one recording with the cold-storage flow (spec 1 §2.9): ask first (check=1);
 * a ready recording downloads at once; an archived one opens the thaw dialog, whose Restore
 * starts the restore and then polls every POLL_ARCHIVE_RESTORE_MS until it is ready and the
 * download opens. Closing the dialog stops the polling, and an answer still on its way then is
 * dropped.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { App, Button, Modal, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  POLL_ARCHIVE_RESTORE_MS,
  recordingRoutes,
  type ActionLogEntry,
} from '@portcullis/contract';
import { callApi, isApiError } from '../api/client';
import { useErrorText } from '../i18n/errors';
import { downloadUrl } from './links';

type Thaw = 'closed' | 'archived' | 'restoring';

export function DownloadRecording({
  entry,
  size,
  label,
  onReady,
}: {
  entry: Pick<ActionLogEntry, 'connection_id' | 'way'>;
  /** The button's size (small inside a table row). */
  size?: 'small' | 'middle';
  /** The button's text (Download unless given). */
  label?: string;
  /** What a ready recording leads to (the download unless given: the playback page reloads). */
  onReady?: () => void;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [thaw, setThaw] = useState<Thaw>('closed');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /**
   * Bumped by every start and stop: an answer that arrives for an older one (the dialog was
   * closed, or the page left, while a request was on its way) neither polls again nor opens
   * the download.
   */
  const attempt = useRef(0);
  const stop = () => {
    attempt.current += 1;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => stop, []);
  /** `then` and `catch` handlers that run only while `started` is still the attempt. */
  const current =
    <A,>(started: number, handler: (arg: A) => void) =>
    (arg: A) => {
      if (attempt.current === started) handler(arg);
    };

  const unfreeze = (check: boolean) =>
    callApi(recordingRoutes.unfreezeTunnelLog, {
      query: { connection_id: entry.connection_id, way: entry.way, ...(check && { check: '1' }) },
    });
  const open = () => {
    stop();
    setThaw('closed');
    if (onReady) onReady();
    else window.location.assign(downloadUrl(entry));
  };
  const poll = (started: number) => {
    timer.current = setTimeout(() => {
      unfreeze(true).then(
        current(started, open),
        current(started, (e: unknown) => {
          if (isApiError(e, 'OSSFileRestoring')) poll(started);
          else {
            setThaw('closed');
            void message.error(errorText(e));
          }
        }),
      );
    }, POLL_ARCHIVE_RESTORE_MS);
  };
  /**
   * Asks the server (check: only whether it is ready; else: start the restore), then downloads,
   * opens the thaw dialog, or polls while the restore runs.
   */
  const ask = (check: boolean) => {
    stop();
    const started = attempt.current;
    return unfreeze(check).then(
      current(started, open),
      current(started, (e: unknown) => {
        if (check && isApiError(e, 'OSSFileArchived')) setThaw('archived');
        else if (isApiError(e, 'OSSFileRestoring')) {
          setThaw('restoring');
          poll(started);
        } else void message.error(errorText(e));
      }),
    );
  };
  const onDownload = () => ask(true);
  const onRestore = () => ask(false);

  return (
    <>
      <Button type="link" size={size} icon={<DownloadOutlined />} onClick={() => void onDownload()}>
        {label ?? t('action-log.entry.download')}
      </Button>
      <Modal
        open={thaw !== 'closed'}
        title={t('action-log.thaw.title')}
        onCancel={() => {
          stop();
          setThaw('closed');
        }}
        okText={t('action-log.thaw.restore')}
        okButtonProps={{ loading: thaw === 'restoring' }}
        onOk={() => void onRestore()}
      >
        <Typography.Paragraph>
          {t(thaw === 'restoring' ? 'action-log.thaw.restoring' : 'action-log.thaw.archived')}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
