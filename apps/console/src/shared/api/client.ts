/**
 * The one way the console talks to the server: a route descriptor from the contract plus its
 * params, query and body. It sends the CSRF header on every state-changing call, aborts after
 * REQUEST_TIMEOUT_MS, turns the error envelope `{ code, error_message, field? }` into an
 * {@link ApiError}, and reports session errors (NeedLogin and the unfinished login steps) to the
 * handler the app registers, so any call anywhere can send the browser back to /login.
 */
import type { z } from 'zod';
import i18next from 'i18next';
import {
  buildPath,
  ErrorReplySchema,
  REQUEST_TIMEOUT_MS,
  type ErrorReply,
  type RouteDescriptor,
} from '@portcullis/contract';

export const API_PREFIX = '/api';
export const CSRF_COOKIE = 'pc_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** A failed call: branch on `code`, never on `errorMessage`. */
export class ApiError extends Error {
  readonly code: string;
  readonly errorMessage: string;
  readonly field: string | undefined;
  readonly status: number;

  constructor(status: number, reply: ErrorReply) {
    super(`${reply.code}: ${reply.error_message}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = reply.code;
    this.errorMessage = reply.error_message;
    this.field = reply.field;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** Codes that mean "this session is not (fully) signed in": the app decides where to go. */
export const SESSION_CODES = ['NeedLogin', 'NeedMfaLogin', 'NeedChangePassword', 'NeedBindMfa'];

type SessionHandler = (code: string) => void;
let sessionHandler: SessionHandler = () => undefined;

/** Registered once by the app (router navigation); tests may register their own. */
export function setSessionErrorHandler(handler: SessionHandler): void {
  sessionHandler = handler;
}

// Descriptor schemas are optional properties: strip the `undefined` before inferring.
type Input<T> = [NonNullable<T>] extends [z.ZodType] ? z.input<NonNullable<T>> : never;
type Output<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : undefined;

export interface CallOptions<R extends RouteDescriptor> {
  params?: Input<R['params']>;
  query?: Input<R['query']>;
  body?: Input<R['body']>;
  signal?: AbortSignal;
}

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The URL of a route, for `<img src>` and links (captcha, QR code, avatar files). */
export function apiUrl(
  route: RouteDescriptor,
  params?: Record<string, string | number>,
  query?: Record<string, string | number | undefined>,
): string {
  const url = API_PREFIX + buildPath(route.path, params);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

// The server sets the readable CSRF cookie on its replies; a state-changing call made before
// any reply (a first login) fetches one cheap public GET to receive it.
async function ensureCsrfCookie(): Promise<string> {
  const existing = readCookie(CSRF_COOKIE);
  if (existing) return existing;
  try {
    await fetch(`${API_PREFIX}/v2/utils/notification_banner/csos`, { credentials: 'same-origin' });
  } catch {
    // The real call below reports the failure.
  }
  return readCookie(CSRF_COOKIE) ?? '';
}

async function parseError(response: Response): Promise<ApiError> {
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  const parsed = ErrorReplySchema.safeParse(payload);
  if (parsed.success) return new ApiError(response.status, parsed.data);
  return new ApiError(response.status, {
    code: response.status === 404 ? 'RouteNotFound' : 'UnknowError',
    error_message: response.statusText || `HTTP ${response.status}`,
  });
}

/** Calls a contract route and returns its parsed reply; throws {@link ApiError} on failure. */
export async function callApi<R extends RouteDescriptor>(
  route: R,
  options: CallOptions<R> = {},
): Promise<Output<R['reply']>> {
  const url = apiUrl(
    route,
    options.params as Record<string, string | number> | undefined,
    options.query as Record<string, string | number | undefined> | undefined,
  );
  const headers: Record<string, string> = {
    accept: 'application/json',
    // The server writes error_message in this language, with the catalogue's placeholders filled.
    'accept-language': i18next.language === 'zh_CN' ? 'zh-CN' : 'en',
  };
  // A GET that changes state (reset_mfa) is protected like any POST.
  if (route.method !== 'GET' || route.changesState) headers[CSRF_HEADER] = await ensureCsrfCookie();
  const hasBody = options.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('timeout'), REQUEST_TIMEOUT_MS);
  const onOuterAbort = (): void => controller.abort('cancelled');
  options.signal?.addEventListener('abort', onOuterAbort);

  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method,
      headers,
      body: hasBody ? JSON.stringify(options.body) : undefined,
      credentials: 'same-origin',
      signal: controller.signal,
    });
  } catch (cause) {
    if (controller.signal.aborted && controller.signal.reason === 'timeout') {
      throw new ApiError(408, { code: 'RequestTimeout', error_message: 'Request timeout' });
    }
    if (controller.signal.aborted) throw cause;
    throw new ApiError(0, { code: 'UnknowError', error_message: String(cause) });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }

  if (!response.ok) {
    const error = await parseError(response);
    if (SESSION_CODES.includes(error.code)) sessionHandler(error.code);
    throw error;
  }
  if (!route.reply) return undefined as Output<R['reply']>;
  const data: unknown = await response.json();
  const parsed = route.reply.safeParse(data);
  if (!parsed.success) {
    // The server and the console disagree about the contract: surface it, never guess.
    console.error(`Reply of ${route.method} ${route.path} does not match the contract`, parsed);
    throw new ApiError(response.status, {
      code: 'UnknowError',
      error_message: `Reply of ${route.method} ${route.path} does not match the contract`,
    });
  }
  return parsed.data as Output<R['reply']>;
}
