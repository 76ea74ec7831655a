/**
 * Fetches a session's recording for the playback page: GET /api/download_tunnel_log with the
 * session cookie. A refusal (not the caller's session, archived, not found) becomes an
 * ApiError carrying the server's code, so the page can say why instead of a blank player.
 */
import { ErrorReplySchema, recordingRoutes } from '@portcullis/contract';
import { ApiError, apiUrl } from '../../shared/api/client';

export async function fetchCast(
  connectionId: number,
  way: string,
  signal?: AbortSignal,
): Promise<string> {
  const url = apiUrl(recordingRoutes.downloadTunnelLog, undefined, {
    connection_id: connectionId,
    ...(way && { way }),
  });
  const response = await fetch(url, { credentials: 'same-origin', ...(signal && { signal }) });
  if (response.ok) return response.text();
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  const parsed = ErrorReplySchema.safeParse(payload);
  throw new ApiError(
    response.status,
    parsed.success ? parsed.data : { code: 'UnknowError', error_message: response.statusText },
  );
}
