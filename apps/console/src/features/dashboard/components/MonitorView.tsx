/**
 * Watching an online terminal session (spec 1 §2.5, Monitor): the session's recording as it
 * reaches the server, drawn by xterm.js, read-only. The gateway sends a live recording about
 * once a second, so the picture is a second or two behind; it asks again every second and says
 * when the session has ended. Loaded lazily with xterm.js.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { recordingRoutes, type OnlineConnection } from '@portcullis/contract';
import { callApi } from '../../../shared/api/client';
import { useErrorText } from '../../../shared/i18n/errors';
import { castSteps } from './cast-lines';

const POLL_MS = 1000;

type Status = { kind: 'live' } | { kind: 'ended' } | { kind: 'failed'; error: unknown };

export default function MonitorView({ session }: { session: OnlineConnection }): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const box = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>({ kind: 'live' });
  // Bumped by Retry: the effect starts over (a new terminal, from the start of the recording).
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const term = new Terminal({ disableStdin: true, fontSize: 13, scrollback: 5000 });
    term.open(element);
    const stopped = new AbortController();
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        stopped.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      });
    const follow = async (): Promise<void> => {
      let offset = 0;
      while (!stopped.signal.aborted) {
        const piece = await callApi(recordingRoutes.monitorConnection, {
          params: { id: session.id },
          query: { offset },
          signal: stopped.signal,
        });
        for (const s of castSteps(piece.cast)) {
          if (s.kind === 'size') term.resize(s.cols, s.rows);
          else term.write(s.data);
        }
        offset = piece.offset;
        if (piece.more) continue;
        if (!piece.live) return setStatus({ kind: 'ended' });
        await sleep(POLL_MS);
      }
    };
    setStatus({ kind: 'live' });
    follow().catch((error: unknown) => {
      if (!stopped.signal.aborted) setStatus({ kind: 'failed', error });
    });
    return () => {
      stopped.abort();
      term.dispose();
    };
  }, [session.id, attempt]);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {status.kind === 'live' ? (
        <Typography.Text type="secondary">{t('dashboard.monitor.live')}</Typography.Text>
      ) : status.kind === 'ended' ? (
        <Alert type="info" showIcon message={t('dashboard.monitor.ended')} />
      ) : (
        <Alert
          type="error"
          showIcon
          message={errorText(status.error)}
          action={
            <Button size="small" onClick={() => setAttempt((n) => n + 1)}>
              {t('common.action.retry')}
            </Button>
          }
        />
      )}
      <div
        ref={box}
        className="pc-monitor-terminal"
        role="region"
        aria-label={t('dashboard.monitor.region', { name: session.account.name })}
      />
    </Space>
  );
}
