/**
 * System-log calls (spec 2 §7 Logs): one list call per log type, the alarm detail and the
 * export URL, all built from the same filters so the export is exactly what the page shows.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  LOG_END_PADDING_SECONDS,
  PAGE_SIZE_DEFAULT,
  logRoutes,
  type AlarmLogRowSchema,
  type ClusterLogRowSchema,
  type LoginLogRowSchema,
  type LogQuery,
  type LogType,
  type ProjectLogRowSchema,
  type TeamLogRowSchema,
} from '@portcullis/contract';
import type { Dayjs } from 'dayjs';
import { apiUrl, callApi } from '../../shared/api/client';

export type LoginLogRow = z.infer<typeof LoginLogRowSchema>;
export type TeamLogRow = z.infer<typeof TeamLogRowSchema>;
export type ClusterLogRow = z.infer<typeof ClusterLogRowSchema>;
export type ProjectLogRow = z.infer<typeof ProjectLogRowSchema>;
export type AlarmLogRow = z.infer<typeof AlarmLogRowSchema>;
export type LogRow = LoginLogRow | TeamLogRow | ClusterLogRow | ProjectLogRow | AlarmLogRow;

export interface LogPage {
  objects: LogRow[];
  num_results: number;
}

/** What the filter bar holds. */
export interface LogFilters {
  event?: string | undefined;
  /** Login log: the account type (role). */
  admin?: number | undefined;
  /** Which field the text filters (LOG_SEARCH_KEYS of the log). */
  searchKey: string;
  text: string;
  range?: [Dayjs | null, Dayjs | null] | null | undefined;
}

type FilterQuery = Omit<LogQuery, 'page_index' | 'page_size'>;

/**
 * The query fields of a log's filters: dates as epoch seconds from the start of each chosen
 * day, the end padded by a day (LOG_END_PADDING_SECONDS) so the end date is included; texts
 * trimmed; empty filters left out.
 */
export function filterQuery(type: LogType, filters: LogFilters): FilterQuery {
  const query: Record<string, string | number> = {};
  const [start, end] = filters.range ?? [];
  if (start) query.start_time = start.startOf('day').unix();
  if (end) query.end_time = end.startOf('day').unix() + LOG_END_PADDING_SECONDS;
  if (type === 'login' && filters.admin !== undefined) query.admin = filters.admin;
  if (type !== 'login' && filters.event) query.event = filters.event;
  const text = filters.text.trim();
  if (text) query[filters.searchKey] = text;
  return query as FilterQuery;
}

const LIST_ROUTES = {
  login: logRoutes.loginLogs,
  team: logRoutes.teamLogs,
  cluster: logRoutes.clusterLogs,
  project: logRoutes.projectLogs,
  alarm: logRoutes.alarmLogs,
} as const;

export const logKeys = {
  page: (type: LogType, page: number, query: FilterQuery) => ['logs', type, page, query] as const,
  alarm: (id: number) => ['logs', 'alarm-detail', id] as const,
};

export function useLogsQuery(
  type: LogType,
  page: number,
  query: FilterQuery,
): UseQueryResult<LogPage> {
  return useQuery({
    queryKey: logKeys.page(type, page, query),
    queryFn: () =>
      callApi(LIST_ROUTES[type], {
        query: { ...query, page_index: page, page_size: PAGE_SIZE_DEFAULT },
      }) as Promise<LogPage>,
    placeholderData: keepPreviousData,
    // A tab opened again, or a route change, reads the log afresh.
    staleTime: 0,
  });
}

export function useAlarmQuery(id: number | null): UseQueryResult<AlarmLogRow> {
  return useQuery({
    queryKey: logKeys.alarm(id ?? 0),
    queryFn: () => callApi(logRoutes.alarmDetail, { body: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}

/** The export link: the same filters, as a CSV download. */
export function exportUrl(type: LogType, query: FilterQuery): string {
  return apiUrl(logRoutes.exportLogs, undefined, {
    log_type: type,
    ...(query as Record<string, string | number | undefined>),
  });
}
