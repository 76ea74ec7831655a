/**
 * Where a session's recording is reached from the console: its download, its playback page,
 * and whether it can be played. The action log and a workgroup's Connect Logs both offer them.
 */
import { recordingRoutes, type ActionLogEntry } from '@portcullis/contract';
import { apiUrl } from '../api/client';

/** The session's recording as a `.cast` file. */
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

/** Playback is for terminal sessions with a recording that ended after it began (spec 1 §2.7). */
export function canPlay(
  entry: Pick<ActionLogEntry, 'play' | 'way' | 'start_date' | 'date'>,
): boolean {
  return entry.play !== 0 && entry.date > entry.start_date && !DATABASE_WAYS.includes(entry.way);
}

const DATABASE_WAYS: readonly string[] = ['rds', 'mysql', 'mssql', 'postgresql'];
