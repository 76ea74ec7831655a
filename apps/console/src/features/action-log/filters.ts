/**
 * The action log's filters as the page holds them, and as the query of GET /search_tunnel
 * (spec 1 §2.9, §7). Time presets count back from now; a date range runs from the start of its
 * first day to the start of the day after its last (the end padded a day, so it is included).
 */
import dayjs, { type Dayjs } from 'dayjs';
import { LOG_END_PADDING_SECONDS, type SearchTunnelFilters } from '@portcullis/contract';

export const TIME_PRESETS = ['unlimited', 'day', 'week', 'month', 'range'] as const;
export type TimePreset = (typeof TIME_PRESETS)[number];

export const WAYS = [
  'terminal',
  'sftp',
  'scp',
  'wetty',
  'mysql',
  'postgresql',
  'mssql',
  'rdp',
] as const;

export interface ActionLogFilters {
  keywords: string;
  preset: TimePreset;
  /** A start date and an optional end date (spec 1 §2.9). */
  range?: [Dayjs, Dayjs | null] | null | undefined;
  /** From the route (`resourceName=id:name`): the resource's id and the name for its tag. */
  resource?: { id: number; name: string } | undefined;
  way?: string | undefined;
  account_name?: string | undefined;
  ip?: string | undefined;
  resource_name?: string | undefined;
  unsafe_mode?: 0 | 1 | undefined;
}

export const EMPTY_FILTERS: ActionLogFilters = { keywords: '', preset: 'unlimited' };

const PRESET_BACK: Record<'day' | 'week' | 'month', [number, dayjs.ManipulateType]> = {
  day: [1, 'day'],
  week: [7, 'day'],
  month: [30, 'day'], // spec 1 §9: the presets are 1, 7 and 30 days
};

/** The time bounds of a preset or range, in epoch seconds. */
export function timeBounds(
  filters: Pick<ActionLogFilters, 'preset' | 'range'>,
  now: Dayjs = dayjs(),
): { time_from?: number; time_end?: number } {
  if (filters.preset === 'unlimited') return {};
  if (filters.preset === 'range') {
    if (!filters.range) return {};
    const [start, end] = filters.range;
    return {
      time_from: start.startOf('day').unix(),
      ...(end && { time_end: end.startOf('day').unix() + LOG_END_PADDING_SECONDS }),
    };
  }
  const [amount, unit] = PRESET_BACK[filters.preset];
  return { time_from: now.subtract(amount, unit).unix() };
}

/** The query for these filters; empty ones are left out. */
export function searchQuery(filters: ActionLogFilters, now?: Dayjs): SearchTunnelFilters {
  const query: SearchTunnelFilters = { ...timeBounds(filters, now) };
  const text = (key: 'keywords' | 'way' | 'account_name' | 'ip' | 'resource_name') => {
    const value = filters[key]?.trim();
    if (value) query[key] = value;
  };
  text('keywords');
  text('way');
  text('account_name');
  text('ip');
  text('resource_name');
  if (filters.resource) query.resource_id = filters.resource.id;
  if (filters.unsafe_mode !== undefined) query.unsafe_mode = filters.unsafe_mode ? '1' : '0';
  return query;
}

/** The route's `resourceName=id:name`, or undefined when it is absent or malformed. */
export function resourceFromRoute(value: string | null): ActionLogFilters['resource'] {
  const match = value ? /^(\d+):(.*)$/.exec(value) : null;
  return match ? { id: Number(match[1]), name: match[2] ?? '' } : undefined;
}
