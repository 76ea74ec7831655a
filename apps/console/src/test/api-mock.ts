/**
 * A fetch stub for console tests: handlers keyed by "METHOD /api/path" (no query string) answer
 * with a JSON body, or with { status, body } for failures. Every call is recorded.
 */
import { vi } from 'vitest';

export interface MockReply {
  status?: number;
  body?: unknown;
}

export type Handler = (call: RecordedCall) => MockReply | unknown;

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

/** A failure reply in the server's error envelope. */
export function apiError(status: number, code: string, error_message = code): MockReply {
  return { status, body: { code, error_message } };
}

// A reply object such as a Member has its own `status` field: only { status: number, body? }
// is a mock reply.
function isMockReply(value: unknown): value is MockReply {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as MockReply).status === 'number' &&
    Object.keys(value).every((key) => key === 'status' || key === 'body')
  );
}

export function mockApi(handlers: Record<string, Handler | unknown>): { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      const call: RecordedCall = {
        method,
        path: url.pathname,
        query: url.searchParams,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: (init.headers ?? {}) as Record<string, string>,
      };
      calls.push(call);
      const handler = handlers[`${method} ${url.pathname}`];
      if (handler === undefined) {
        return new Response(
          JSON.stringify({ code: 'RouteNotFound', error_message: 'not mocked' }),
          {
            status: 404,
            headers: { 'content-type': 'application/json' },
          },
        );
      }
      const result = typeof handler === 'function' ? (handler as Handler)(call) : handler;
      const reply: MockReply = isMockReply(result) ? result : { status: 200, body: result };
      return new Response(JSON.stringify(reply.body ?? null), {
        status: reply.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return { calls };
}
