/**
 * The QueryClient: a failed query shows its translated error once, globally, unless the query
 * is marked `meta.silent` or the failure is a session code (the router handles those).
 * Mutations report their own failures where they happen.
 */
import { QueryCache, QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { isApiError, SESSION_CODES } from '../shared/api/client';
import { errorText } from '../shared/i18n/errors';
import { notifyError } from './feedback';
import '../shared/api/query-meta';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent) return;
        if (isApiError(error) && SESSION_CODES.includes(error.code)) return;
        notifyError(errorText(error, i18next.t));
      },
    }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
