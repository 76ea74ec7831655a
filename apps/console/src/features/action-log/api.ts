/**
 * Action-log calls (spec 1 §7 Logs): the search as an infinite list of pages of 25, the export
 * link built from the same filters (so the report is exactly what the page shows), the report
 * panel's counts, the name lists of the advanced search (/v1/account/list, /resource/all_name),
 * the recording's download and playback links, and which entries are file-log entries.
 */
import {
  useInfiniteQuery,
  useQueries,
  useQuery,
  type UseInfiniteQueryResult,
  type InfiniteData,
  type UseQueryResult,
} from '@tanstack/react-query';
import {
  PAGE_SIZE_ACTION_LOG,
  actionLogRoutes,
  resourceNameRoutes,
  teamRoutes,
  type ResourceName,
  type ActionLogEntry,
  type SearchTunnelFilters,
  SearchTunnelReplySchema,
  type SearchTunnelReply,
} from '@portcullis/contract';
import { apiUrl, callApi } from '../../shared/api/client';

// The descriptor has no reply schema (with export=true the reply is a file); the list call
// reads the JSON reply with the contract's schema.
export const searchTunnelList = { ...actionLogRoutes.searchTunnel, reply: SearchTunnelReplySchema };

export const actionLogKeys = {
  search: (query: SearchTunnelFilters) => ['action-log', query] as const,
  count: (query: SearchTunnelFilters) => ['action-log', 'count', query] as const,
  accountNames: ['action-log', 'names', 'accounts'] as const,
  resourceNames: ['action-log', 'names', 'resources'] as const,
};

export function useActionLogQuery(
  query: SearchTunnelFilters,
): UseInfiniteQueryResult<InfiniteData<SearchTunnelReply, number>> {
  return useInfiniteQuery({
    queryKey: actionLogKeys.search(query),
    queryFn: async ({ pageParam, signal }) =>
      callApi(searchTunnelList, {
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

/**
 * A file-log entry (way sftp or scp): one file a session moved, with its direction and name.
 * It has no recording of its own; the session it belongs to has.
 */
export function isFileEntry<T extends Pick<ActionLogEntry, 'op'>>(
  entry: T,
): entry is T & { op: NonNullable<ActionLogEntry['op']> } {
  return entry.op !== undefined;
}

/**
 * How many sessions match each of `variants` (the report panel's breakdown): one page of one
 * row per variant, read for its total, so the counts come from the server's own filters.
 */
export function useSessionCounts(
  variants: readonly SearchTunnelFilters[],
  enabled: boolean,
): UseQueryResult<number>[] {
  return useQueries({
    queries: variants.map((query) => ({
      queryKey: actionLogKeys.count(query),
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (
          await callApi(searchTunnelList, {
            query: { ...query, page_index: 1, page_size: 1 },
            signal,
          })
        ).total,
      enabled,
      staleTime: 0,
    })),
  });
}

/** The team's members' names for the account filter (only the team's log readers may ask). */
export function useAccountNamesQuery(enabled: boolean): UseQueryResult<string[]> {
  return useQuery({
    queryKey: actionLogKeys.accountNames,
    queryFn: async () => {
      const list = await callApi(teamRoutes.memberNames);
      return [...new Set(list.map((a) => a.name))];
    },
    enabled,
    staleTime: 60_000,
    // A name list is a convenience: the field still takes free text when it fails.
    meta: { silent: true },
  });
}

/** The resource names for the resource-name filter (a member's: their own sessions'). */
export function useResourceNamesQuery(): UseQueryResult<ResourceName[]> {
  return useQuery({
    queryKey: actionLogKeys.resourceNames,
    queryFn: () => callApi(resourceNameRoutes.resourceNames),
    staleTime: 60_000,
    meta: { silent: true },
  });
}
