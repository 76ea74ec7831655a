/**
 * Online connections (spec 1 §7 "Dashboard and sessions"): the list and its cuts, shared by
 * the header's online sessions dialog and the workgroup detail's online connections panel.
 * A cut refreshes every list and count of online sessions.
 */
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import {
  connectionRoutes,
  type OnlineConnection,
  type OnlineConnectionQuery,
} from '@portcullis/contract';
import { callApi } from '../api/client';

export const onlineKeys = {
  all: ['online'] as const,
  count: ['online', 'count'] as const,
  list: (filter: Partial<OnlineConnectionQuery>) => ['online', 'list', filter] as const,
};

export interface OnlinePage {
  objects: OnlineConnection[];
  num_results: number;
}

/** Sessions come and go by themselves: the open list refreshes this often. */
const ONLINE_LIST_REFRESH_MS = 10_000;

export function useOnlineConnectionsQuery(
  filter: Partial<OnlineConnectionQuery>,
  enabled: boolean,
): UseQueryResult<OnlinePage> {
  return useQuery({
    queryKey: onlineKeys.list(filter),
    queryFn: () => callApi(connectionRoutes.listConnections, { query: filter }),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: enabled ? ONLINE_LIST_REFRESH_MS : false,
    // The table shows a failure itself: a toast every refresh would repeat it every 10 s.
    meta: { silent: true },
  });
}

/** Cuts one session (DELETE) or several (delete_all). */
export function useCutConnectionsMutation(
  onCut?: () => void,
): UseMutationResult<unknown, Error, number[]> {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) =>
      ids.length === 1 && ids[0] !== undefined
        ? callApi(connectionRoutes.cutConnection, { params: { id: ids[0] } })
        : callApi(connectionRoutes.cutConnections, { body: { connection_ids: ids } }),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: onlineKeys.all });
      onCut?.();
    },
  });
}
