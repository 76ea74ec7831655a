/**
 * Action-log calls (spec 1 §7 Logs): the search as an infinite list of pages of 25, the export
 * link built from the same filters (so the report is exactly what the page shows), and the
 * recording's download and playback links.
 */
import {
  useInfiniteQuery,
  type UseInfiniteQueryResult,
  type InfiniteData,
} from '@tanstack/react-query';
import {
  PAGE_SIZE_ACTION_LOG,
  actionLogRoutes,
  recordingRoutes,
  type ActionLogEntry,
  type SearchTunnelFilters,
  SearchTunnelReplySchema,
  type SearchTunnelReply,
} from '@portcullis/contract';
import { apiUrl, callApi } from '../../shared/api/client';

// The descriptor has no reply schema (with export=true the reply is a file); the list call
// reads the JSON reply with the contract's schema.
const searchList = { ...actionLogRoutes.searchTunnel, reply: SearchTunnelReplySchema };

export const actionLogKeys = {
  search: (query: SearchTunnelFilters) => ['action-log', query] as const,
};

export function useActionLogQuery(
  query: SearchTunnelFilters,
): UseInfiniteQueryResult<InfiniteData<SearchTunnelReply, number>> {
  return useInfiniteQuery({
    queryKey: actionLogKeys.search(query),
    queryFn: async ({ pageParam, signal }) =>
      callApi(searchList, {
        query: { ...query, page_index: pageParam, page_size: PAGE_SIZE_ACTION_LOG },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages, lastParam) =>
      pages.reduce((n, p) => n + p.data.length, 0) < last.total && last.data.length > 0
        ? lastParam + 1
        : undefined,
    staleTime: 0,
  });
}

/** The Download report link: every match as an xlsx file. */
export function exportUrl(query: SearchTunnelFilters): string {
  const fields = query as Record<string, string | number | undefined>;
  return apiUrl(actionLogRoutes.searchTunnel, undefined, { ...fields, export: 'true' });
}

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
