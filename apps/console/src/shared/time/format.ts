import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DAY_MS = 86_400_000;

/** Epoch seconds as YYYY-MM-DD HH:mm:ss; null, undefined or 0 give the fallback. */
export function formatEpoch(seconds: number | null | undefined, fallback = '-'): string {
  if (!seconds) return fallback;
  return dayjs.unix(seconds).format(DATE_TIME_FORMAT);
}
