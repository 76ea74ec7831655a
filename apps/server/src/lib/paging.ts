/**
 * The spec's list envelope (`objects`, `num_results`, `total_pages`, `page`) and the count and
 * window every paged list needs, written once.
 */
import type { SelectQueryBuilder } from 'kysely';

export interface PageWindow {
  page: number;
  page_size: number;
}

export interface Paged<T> {
  objects: T[];
  num_results: number;
  total_pages: number;
  page: number;
}

/** How many rows the (unordered, unpaged) query matches. */
export async function countRows<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number((row as { n?: number | string } | undefined)?.n ?? 0);
}

/** One page of an ordered query. */
export function pageOf<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  window: PageWindow,
) {
  return query.limit(window.page_size).offset((window.page - 1) * window.page_size);
}

export function paged<T>(objects: T[], total: number, window: PageWindow): Paged<T> {
  return {
    objects,
    num_results: total,
    total_pages: Math.ceil(total / window.page_size),
    page: window.page,
  };
}
