/**
 * Where a session's recording is reached from the console: its download, its playback page,
 * and whether it can be played. The action log and a workgroup's Connect Logs both offer them.
 */
import { recordingRoutes, type ActionLogEntry } from '@portcullis/contract';
import { apiUrl } from '../api/client';

/** The session's recording as a `.cast` file (a database session's: its statement log). */
export function downloadUrl(entry: Pick<ActionLogEntry, 'connection_id' | 'way'>): string {
  return apiUrl(recordingRoutes.downloadTunnelLog, undefined, {
    connection_id: entry.connection_id,
    way: entry.way,
  });
}

/** The playback page of a session (a console route that loads the player). */
export function playbackUrl(entry: Pick<ActionLogEntry, 'connection_id' | 'way'>): string {
  const query = new URLSearchParams({ connection_id: String(entry.connection_id), way: entry.way });
  return `/playlog.html?${query.toString()}`;
}

/**
 * Playback is for terminal sessions with a recording that ended after it began (spec 1 §2.7).
 * A session that began and ended in the same second has nothing to play back, but its
 * recording still downloads: see canDownload.
 */
export function canPlay(
  entry: Pick<ActionLogEntry, 'play' | 'way' | 'start_date' | 'date'>,
): boolean {
  return canDownload(entry) && entry.date > entry.start_date && !isDatabaseWay(entry.way);
}

/**
 * Download is offered whenever the session has a recording (a database session: its statement
 * log), whatever its length: the server says so with `play` not 0.
 */
export function canDownload(entry: Pick<ActionLogEntry, 'play'>): boolean {
  return entry.play !== 0;
}

/** Database sessions: their log is a statement log to download, never a terminal playback. */
export function isDatabaseWay(way: string): boolean {
  return DATABASE_WAYS.includes(way);
}

const DATABASE_WAYS: readonly string[] = ['rds', 'mysql', 'mssql', 'postgresql'];
