/**
 * The dashboard's statistics (spec 1 §2.5, §7 "Dashboard and sessions"): connections per day,
 * their totals, the team's resources by type, and the members and resources used most. The
 * counters (resources, workgroups, clusters, members) are accountRoutes.summary.
 *
 * Every figure is the caller's team's, over sessions (not file transfers) that started inside
 * [time_from, time_end); a session's whole duration counts on the day it started, and a session
 * still open counts until the moment of the answer. Only the dashboard's roles (1-4) may ask.
 */
import { z } from 'zod';
import { DASHBOARD_TOP } from './constants';
import { defineRoute, roles } from './http';

/** The longest window a statistics call accepts: the console offers 7, 30 and 90 days. */
export const STATS_MAX_DAYS = 366;

const WindowFields = {
  time_from: z.coerce.number().int().min(0),
  time_end: z.coerce.number().int().min(0),
};

/** A window in epoch seconds ends after it starts, within STATS_MAX_DAYS. */
function checkWindow(q: { time_from: number; time_end: number }, ctx: z.RefinementCtx): void {
  if (q.time_end <= q.time_from)
    ctx.addIssue({
      code: 'custom',
      message: 'time_end must be after time_from',
      path: ['time_end'],
    });
  else if (q.time_end - q.time_from > STATS_MAX_DAYS * 86_400)
    ctx.addIssue({
      code: 'custom',
      message: `the window is at most ${STATS_MAX_DAYS} days`,
      path: ['time_end'],
    });
}

/**
 * A window and the caller's offset from UTC in minutes (east positive: 480 in Beijing), so
 * that days are the caller's days.
 */
export const StatisticsRangeQuerySchema = z
  .object({ ...WindowFields, utc_offset: z.coerce.number().int().min(-840).max(840).default(0) })
  .superRefine(checkWindow);
export type StatisticsRangeQuery = z.infer<typeof StatisticsRangeQuerySchema>;

export const ConnectionDaySchema = z.object({
  /** YYYY-MM-DD in the caller's offset. */
  date: z.string(),
  conn_count: z.number().int(),
  /** Seconds. */
  conn_time: z.number().int(),
});
export type ConnectionDay = z.infer<typeof ConnectionDaySchema>;

export const ConnectionNumbersReplySchema = z.object({
  /** One per day of the window, oldest first, days without a session included as zeros. */
  items: z.array(ConnectionDaySchema),
});

export const OverviewReplySchema = z.object({
  conn_count: z.number().int(),
  conn_time: z.number().int(),
  /** Distinct members and resources that had a session in the window. */
  accounts: z.number().int(),
  resources: z.number().int(),
});
export type StatisticsOverview = z.infer<typeof OverviewReplySchema>;

/** The team's resources by kind (resource os): the dashboard's donut. */
export const InstancesSummaryReplySchema = z.object({
  linux: z.number().int(),
  windows: z.number().int(),
  mysql: z.number().int(),
  postgresql: z.number().int(),
  sqlserver: z.number().int(),
});
export type InstancesSummary = z.infer<typeof InstancesSummaryReplySchema>;

/** A window and how many to list (the dashboard's 10 by default). */
export const TopQuerySchema = z
  .object({
    ...WindowFields,
    limit: z.coerce.number().int().min(1).max(100).default(DASHBOARD_TOP),
  })
  .superRefine(checkWindow);
export type TopQuery = z.infer<typeof TopQuerySchema>;

export const TopAccountSchema = z.object({
  account_id: z.number().int(),
  account: z.string(),
  name: z.string(),
  /** The avatar's file path, '' when none (or the member is deleted). */
  avatar: z.string(),
  conn_count: z.number().int(),
  conn_time: z.number().int(),
});
export type TopAccount = z.infer<typeof TopAccountSchema>;

export const TopResourceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  conn_count: z.number().int(),
  conn_time: z.number().int(),
});
export type TopResource = z.infer<typeof TopResourceSchema>;

const DASHBOARD_ROLES = roles([1, 2, 3, 4]);

export const statisticsRoutes = {
  connectionNumbers: defineRoute({
    method: 'GET',
    path: '/connect/numbers',
    summary: 'Connections and their duration per day of a window (the dashboard’s week chart)',
    access: DASHBOARD_ROLES,
    query: StatisticsRangeQuerySchema,
    reply: ConnectionNumbersReplySchema,
  }),
  overview: defineRoute({
    method: 'GET',
    path: '/statistic/overview_v1',
    summary: 'Totals of a window: connections, their duration, members and resources used',
    access: DASHBOARD_ROLES,
    query: StatisticsRangeQuerySchema,
    reply: OverviewReplySchema,
  }),
  instancesSummary: defineRoute({
    method: 'GET',
    path: '/instances_summary',
    summary: 'The team’s resources by type',
    access: DASHBOARD_ROLES,
    reply: InstancesSummaryReplySchema,
  }),
  topAccounts: defineRoute({
    method: 'GET',
    path: '/statistic/account_v1',
    summary: 'Members by connection time in a window, longest first',
    access: DASHBOARD_ROLES,
    query: TopQuerySchema,
    reply: z.object({ items: z.array(TopAccountSchema) }),
  }),
  topResources: defineRoute({
    method: 'GET',
    path: '/statistic/resource_v1',
    summary: 'Resources by connection count in a window, most first',
    access: DASHBOARD_ROLES,
    query: TopQuerySchema,
    reply: z.object({ items: z.array(TopResourceSchema) }),
  }),
};
