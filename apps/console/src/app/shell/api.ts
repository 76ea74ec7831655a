import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { accountRoutes } from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { onlineKeys } from '../../shared/online/api';

export const shellKeys = {
  banner: ['banner'] as const,
  // Under the online lists' key, so a cut refreshes the count too.
  onlineCount: onlineKeys.count,
};

const ONLINE_COUNT_REFRESH_MS = 30_000;

export function useBannerQuery(): UseQueryResult<{ id: string; text: string } | null> {
  return useQuery({
    queryKey: shellKeys.banner,
    queryFn: () => callApi(accountRoutes.banner),
    staleTime: Infinity,
    // A missing banner is not worth a notice.
    meta: { silent: true },
  });
}

export function useOnlineCountQuery(): UseQueryResult<{ count: number }> {
  return useQuery({
    queryKey: shellKeys.onlineCount,
    queryFn: () => callApi(accountRoutes.onlineCount),
    refetchInterval: ONLINE_COUNT_REFRESH_MS,
    meta: { silent: true },
  });
}
