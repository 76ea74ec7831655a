/**
 * The playback page (`/playlog.html?connection_id=N&way=W`, opened from the action log): the
 * session's asciicast v2 recording in asciinema-player, which brings play, pause, seek
 * (click the bar, arrow keys), full screen (the button or `f`) and, with our selector, speed.
 * A speed change recreates the player at the moment it had reached.
 *
 * A database session has a statement log, not a terminal recording: the page says so and
 * offers the log's download instead of feeding JSON lines to the player. Download is offered
 * only for a recording that exists (ready, or archived and restorable from here).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Select, Space, Spin, Typography } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { create, type Player } from 'asciinema-player';
import 'asciinema-player/dist/bundle/asciinema-player.css';
import { recordingRoutes } from '@portcullis/contract';
import { callApi, isApiError } from '../../shared/api/client';
import { useErrorText } from '../../shared/i18n/errors';
import { rememberReturn } from '../../shared/session/return-to';
import { DownloadRecording } from '../../shared/recording/DownloadRecording';
import { isDatabaseWay } from '../../shared/recording/links';
import { fetchCast } from './cast';

const SPEEDS = [0.5, 1, 2, 4, 8] as const;

export function PlaylogPage(): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const connectionId = Number(params.get('connection_id'));
  const way = params.get('way') ?? '';
  const database = isDatabaseWay(way);
  const [cast, setCast] = useState<string | null>(null);
  /** The recording (a database session's statement log) is there to download. */
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [speed, setSpeed] = useState<number>(1);
  const host = useRef<HTMLDivElement>(null);
  const player = useRef<Player | null>(null);
  const resumeAt = useRef(0);

  /** Bumped to fetch the recording again (after an archived one was restored). */
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    if (!Number.isInteger(connectionId) || connectionId <= 0) return;
    const controller = new AbortController();
    // A statement log is only asked about (check: ready, archived or missing), never played.
    const loaded = database
      ? callApi(recordingRoutes.unfreezeTunnelLog, {
          query: { connection_id: connectionId, way, check: '1' },
        }).then(() => null)
      : fetchCast(connectionId, way, controller.signal);
    loaded.then(
      (text) => {
        if (controller.signal.aborted) return;
        setCast(text);
        setReady(true);
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        // The tab was opened from a session that has since ended: sign in again, and come back.
        if (isApiError(e, 'NeedLogin')) {
          rememberReturn(here);
          navigate('/login');
        } else setError(e);
      },
    );
    return () => controller.abort();
  }, [connectionId, way, database, navigate, loads, here]);
  const reload = () => {
    setError(null);
    setLoads((n) => n + 1);
  };

  useEffect(() => {
    if (cast === null || !host.current) return;
    const created = create({ data: cast }, host.current, {
      speed,
      fit: 'width',
      controls: true,
      startAt: resumeAt.current,
      autoPlay: resumeAt.current > 0,
      terminalFontSize: 'medium',
    });
    player.current = created;
    return () => {
      resumeAt.current = created.getCurrentTime();
      created.dispose();
      player.current = null;
    };
  }, [cast, speed]);

  const invalid = !Number.isInteger(connectionId) || connectionId <= 0;
  // An archived recording exists: its download opens the restore dialog. A missing one has
  // nothing to download.
  const archived = isApiError(error, 'OSSFileArchived') || isApiError(error, 'OSSFileRestoring');
  const downloadable = !invalid && (ready || archived);
  return (
    <div style={{ padding: 16, maxWidth: 1200, margin: '0 auto' }}>
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(database ? 'playlog.page.statementsTitle' : 'playlog.page.title', {
            id: invalid ? '-' : connectionId,
          })}
        </Typography.Title>
        {!database && (
          <Select
            aria-label={t('playlog.page.speed')}
            value={speed}
            style={{ width: 100 }}
            onChange={setSpeed}
            options={SPEEDS.map((s) => ({
              value: s,
              label: t('playlog.page.speedValue', { speed: s }),
            }))}
          />
        )}
        {/* Asks first: an archived recording opens the restore dialog, not a page of JSON. */}
        {downloadable && (
          <DownloadRecording
            entry={{ connection_id: connectionId, way }}
            label={t(database ? 'playlog.page.downloadStatements' : 'playlog.page.download')}
          />
        )}
      </Space>
      {invalid && <Alert type="error" showIcon title={t('playlog.page.invalid')} />}
      {database && !invalid && error === null && (
        <Alert type="info" showIcon title={t('playlog.page.database')} />
      )}
      {error !== null && (
        <Alert
          type="error"
          showIcon
          title={errorText(error)}
          action={
            isApiError(error, 'OSSFileArchived') ? (
              <DownloadRecording
                entry={{ connection_id: connectionId, way }}
                label={t('action-log.thaw.restore')}
                onReady={reload}
              />
            ) : undefined
          }
        />
      )}
      {!invalid && !ready && error === null && <Spin />}
      {!database && <div ref={host} data-testid="playlog-player" />}
    </div>
  );
}
