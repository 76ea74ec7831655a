/**
 * The dashboard's calls (spec 1 §7 "Dashboard and sessions"): the statistics of
 * a window of 7, 30 or 90 days ending tonight at the member's midnight. Statistics calls give
 * up after 8 s (spec 1 §9), so a slow figure shows as failed with a Retry instead of a spinner
 * for a minute.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  statisticsRoutes,
  type ConnectionDay,
  type InstancesSummary,
  type StatisticsOverview,
  type TopAccount,
  type TopResource,
} from '@portcullis/contract';
import { callApi } from '../../shared/api/client';
import { withStatisticsDeadline } from '../../shared/api/summary';

export interface StatsWindow {
  time_from: number;
  time_end: number;
  /** Minutes east of UTC, so the server's days are the member's. */
  utc_offset: number;
}

/** The `days` days up to and including today, in the browser's time zone. */
export function statsWindow(days: number, now = dayjs()): StatsWindow {
  const end = now.startOf('day').add(1, 'day');
  return {
    time_from: end.subtract(days, 'day').unix(),
    time_end: end.unix(),
    utc_offset: end.utcOffset(),
  };
}

export const dashboardKeys = {
  types: ['dashboard', 'types'] as const,
  numbers: (w: StatsWindow) => ['dashboard', 'numbers', w] as const,
  overview: (w: StatsWindow) => ['dashboard', 'overview', w] as const,
  topAccounts: (w: StatsWindow) => ['dashboard', 'top-accounts', w] as const,
  topResources: (w: StatsWindow) => ['dashboard', 'top-resources', w] as const,
};

// Each part of the page shows its own failure (LoadFailed): no toast on top.
const quiet = { meta: { silent: true }, placeholderData: keepPreviousData };

export function useResourceTypesQuery(): UseQueryResult<InstancesSummary> {
  return useQuery({
    queryKey: dashboardKeys.types,
    queryFn: ({ signal }) =>
      callApi(statisticsRoutes.instancesSummary, { signal: withStatisticsDeadline(signal) }),
    meta: { silent: true },
  });
}

export function useConnectionNumbersQuery(w: StatsWindow): UseQueryResult<ConnectionDay[]> {
  return useQuery({
    queryKey: dashboardKeys.numbers(w),
    queryFn: async ({ signal }) =>
      (
        await callApi(statisticsRoutes.connectionNumbers, {
          query: w,
          signal: withStatisticsDeadline(signal),
        })
      ).items,
    ...quiet,
  });
}

export function useOverviewQuery(w: StatsWindow): UseQueryResult<StatisticsOverview> {
  return useQuery({
    queryKey: dashboardKeys.overview(w),
    queryFn: ({ signal }) =>
      callApi(statisticsRoutes.overview, { query: w, signal: withStatisticsDeadline(signal) }),
    ...quiet,
  });
}

type TopFetch<T> = (
  query: { time_from: number; time_end: number },
  signal: AbortSignal,
) => Promise<{ items: T[] }>;

/** Top members and top resources: the same window, without the offset (no days there). */
function useTopQuery<T>(
  key: readonly unknown[],
  fetchTop: TopFetch<T>,
  w: StatsWindow,
): UseQueryResult<T[]> {
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (
        await fetchTop(
          { time_from: w.time_from, time_end: w.time_end },
          withStatisticsDeadline(signal),
        )
      ).items,
    ...quiet,
  });
}

export function useTopAccountsQuery(w: StatsWindow): UseQueryResult<TopAccount[]> {
  return useTopQuery(
    dashboardKeys.topAccounts(w),
    (query, signal) => callApi(statisticsRoutes.topAccounts, { query, signal }),
    w,
  );
}

export function useTopResourcesQuery(w: StatsWindow): UseQueryResult<TopResource[]> {
  return useTopQuery(
    dashboardKeys.topResources(w),
    (query, signal) => callApi(statisticsRoutes.topResources, { query, signal }),
    w,
  );
}
