import { z } from 'zod';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';

/** Every failure: a non-2xx status with this body (ARCHITECTURE.md, Replies). */
export const ErrorReplySchema = z.object({
  code: z.string(),
  error_message: z.string(),
  /** For InvalidParameter: the offending field's dotted path. */
  field: z.string().optional(),
});
export type ErrorReply = z.infer<typeof ErrorReplySchema>;

export const OkReplySchema = z.object({ ok: z.literal(true) });
export type OkReply = z.infer<typeof OkReplySchema>;

export const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** The spec's list shape: objects / num_results / total_pages / page. */
export function pagedReply<T extends z.ZodType>(item: T) {
  return z.object({
    objects: z.array(item),
    num_results: z.number().int(),
    total_pages: z.number().int(),
    page: z.number().int(),
  });
}

/** Trimmed, required text (spec: 'team ID and account trimmed'). */
export function requiredText(max: number) {
  return z.string().trim().min(1).max(max);
}

/** Epoch seconds. */
export const EpochSeconds = z.number().int();

/**
 * A number from a query string where an empty value means "no filter": `?end_time=` must not
 * become 0 (the console builds export URLs with every filter, set or not).
 */
export function optionalQueryNumber(schema: z.ZodNumber) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number().pipe(schema).optional(),
  );
}

/** An e-mail address, trimmed before it is checked. */
export const EmailSchema = z.string().trim().pipe(z.email().max(254));
