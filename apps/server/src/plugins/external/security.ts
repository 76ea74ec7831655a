/**
 * Security headers on every reply, and CSRF protection for every state-changing API call:
 * a double-submit token (readable cookie `pc_csrf`, echoed by the console in `x-csrf-token`).
 * A cross-site page can make the browser send cookies but cannot read them to echo one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error';
import { randomToken, safeEqual } from '../../lib/crypto';

export const CSRF_COOKIE = 'pc_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

// Terminal output and uploaded names are untrusted: no inline script, ever.
// 'wasm-unsafe-eval' lets the playback page's asciinema-player compile its WebAssembly
// terminal emulator; it permits WebAssembly compilation only, not eval() of JavaScript.
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Throws unless the request echoes its CSRF cookie in the header. */
export function assertCsrf(request: FastifyRequest): void {
  const cookieToken = request.cookies[CSRF_COOKIE];
  const header = request.headers[CSRF_HEADER];
  if (!cookieToken || typeof header !== 'string' || !safeEqual(header, cookieToken)) {
    throw new AppError('CsrfTokenInvalid');
  }
}

export function securityPlugin(options: { secureCookies: boolean }) {
  return fp(async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'same-origin');
      if (!request.url.startsWith('/api/docs')) reply.header('content-security-policy', CSP);

      if (!request.cookies[CSRF_COOKIE]) {
        const fresh = randomToken(24);
        reply.setCookie(CSRF_COOKIE, fresh, {
          path: '/',
          sameSite: 'strict',
          httpOnly: false,
          secure: options.secureCookies,
        });
      }
      if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
      if (request.routeOptions.config?.csrfExempt) return;
      assertCsrf(request);
    });
  });
}
