/**
 * Prometheus metrics at /metrics: process defaults, HTTP requests by route and status, and
 * sign-in outcomes. Served to loopback scrapers, or to anyone presenting METRICS_TOKEN.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { safeEqual } from '../../lib/crypto';

export interface Metrics {
  registry: client.Registry;
  loginAttempts: client.Counter<'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'portcullis_server_' });
  const loginAttempts = new client.Counter({
    name: 'portcullis_login_attempts_total',
    help: 'Sign-in attempts by outcome (a catalogue code, or ok)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return { registry, loginAttempts };
}

function isLoopback(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip.startsWith('127.') || ip === '::ffff:127.0.0.1';
}

export function metricsPlugin(metrics: Metrics, token: string | null) {
  return fp(async (app: FastifyInstance) => {
    const requests = new client.Histogram({
      name: 'portcullis_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [metrics.registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      requests.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    app.get('/metrics', async (request, reply) => {
      const header = String(request.headers.authorization ?? '');
      const allowed = token ? safeEqual(header, `Bearer ${token}`) : isLoopback(request.ip);
      if (!allowed)
        return reply.status(404).send({ code: 'RouteNotFound', error_message: 'Not found' });
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  });
}
