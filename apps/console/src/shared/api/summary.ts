/**
 * The team's counters (`/v1/summary`): read by the shell's plan reminder and the dashboard, one
 * query for both. It is a statistics call, and like the others gives up after 8 s (spec 1 §9).
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { accountRoutes, STATISTICS_TIMEOUT_MS, type Summary } from '@portcullis/contract';
import { callApi } from './client';

export const summaryKey = ['summary'] as const;

/** The query's signal, also aborted after the statistics timeout. */
export function withStatisticsDeadline(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('statistics timeout', 'TimeoutError')),
    STATISTICS_TIMEOUT_MS,
  );
  const stop = (): void => {
    clearTimeout(timer);
    controller.abort(signal.reason);
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return controller.signal;
}

export function useSummaryQuery(): UseQueryResult<Summary> {
  return useQuery({
    queryKey: summaryKey,
    queryFn: ({ signal }) =>
      callApi(accountRoutes.summary, { signal: withStatisticsDeadline(signal) }),
    // Whoever shows it shows its failure (or, the plan reminder, nothing).
    meta: { silent: true },
  });
}
