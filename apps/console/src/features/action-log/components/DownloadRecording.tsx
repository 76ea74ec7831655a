/**
 * Download of one recording with the cold-storage flow (spec 1 §2.9): ask first (check=1);
 * a ready recording downloads at once; an archived one opens the thaw dialog, whose Restore
 * starts the restore and then polls every POLL_ARCHIVE_RESTORE_MS until it is ready and the
 * download opens. Closing the dialog stops the polling.
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
import { callApi, isApiError } from '../../../shared/api/client';
import { useErrorText } from '../../../shared/i18n/errors';
import { downloadUrl } from '../api';

type Thaw = 'closed' | 'archived' | 'restoring';

export function DownloadRecording({
  entry,
  size,
}: {
  entry: ActionLogEntry;
  /** The button's size (small inside a table row). */
  size?: 'small' | 'middle';
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [thaw, setThaw] = useState<Thaw>('closed');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => stop, []);

  const unfreeze = (check: boolean) =>
    callApi(recordingRoutes.unfreezeTunnelLog, {
      query: { connection_id: entry.connection_id, way: entry.way, ...(check && { check: '1' }) },
    });
  const open = () => {
    stop();
    setThaw('closed');
    window.location.assign(downloadUrl(entry));
  };
  const poll = () => {
    timer.current = setTimeout(() => {
      unfreeze(true).then(open, (e: unknown) => {
        if (isApiError(e, 'OSSFileRestoring')) poll();
        else {
          setThaw('closed');
          void message.error(errorText(e));
        }
      });
    }, POLL_ARCHIVE_RESTORE_MS);
  };
  const onDownload = () =>
    unfreeze(true).then(open, (e: unknown) => {
      if (isApiError(e, 'OSSFileArchived')) setThaw('archived');
      else if (isApiError(e, 'OSSFileRestoring')) {
        setThaw('restoring');
        poll();
      } else void message.error(errorText(e));
    });
  const onRestore = () =>
    unfreeze(false).then(open, (e: unknown) => {
      if (isApiError(e, 'OSSFileRestoring')) {
        setThaw('restoring');
        poll();
      } else void message.error(errorText(e));
    });

  return (
    <>
      <Button type="link" size={size} icon={<DownloadOutlined />} onClick={() => void onDownload()}>
        {t('action-log.entry.download')}
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
