/**
 * Builds the server: plugins in order (cookies, security headers and CSRF, error envelope,
 * sessions, metrics, OpenAPI), every feature's routes under /api, and the built console at /.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/connect';
import { createSealer, loadMasterKey } from './lib/crypto';
import { createMailer } from './lib/mailer';
import { createOutboxSms } from './lib/sms';
import { authPlugin } from './plugins/app/auth';
import { errorHandlerPlugin, sendError } from './plugins/app/error-handler';
import { createMetrics, metricsPlugin } from './plugins/app/metrics';
import { securityPlugin } from './plugins/external/security';
import { registerAccountRoutes } from './features/account/routes';
import { registerAuthRoutes } from './features/auth/routes';
import { registerCompanyRoutes } from './features/company/routes';
import { registerFileRoutes } from './features/files/routes';
import { registerSshKeyRoutes } from './features/ssh-keys/routes';
import { registerTeamRoutes } from './features/team/routes';
import { registerLogRoutes } from './features/logs/routes';
import { registerSsoRoutes } from './features/sso/routes';
import { registerClusterRoutes } from './features/clusters/routes';
import { createGatewayHub } from './features/clusters/hub';
import { registerResourceRoutes } from './features/resources/routes';
import { registerAgentDistRoutes } from './features/agent-dist/routes';
import { registerAutologinRoutes } from './features/autologin/routes';
import { registerWorkgroupRoutes } from './features/workgroups/routes';
import { registerCodeRoutes } from './features/codes/routes';
import { registerRecordingRoutes } from './features/recordings/routes';
import { registerActionLogRoutes } from './features/action-logs/routes';
import { alarmMailsSettled } from './features/sessions/alarms';
import { registerConnectionRoutes } from './features/sessions/connections-routes';
import { registerStatisticsRoutes } from './features/statistics/routes';
import { endConnectionsOfLostGateways } from './features/sessions/connections';
import { registerWebTerminalRoutes } from './features/web-terminal/routes';
import { registerResourceNameRoutes } from './features/resource-names/routes';

/** Query strings carry reset codes; SSO exchange paths carry single-use credentials. */
export function redactUrl(url: string): string {
  return (url.split('?')[0] ?? '').replace(/\/auth\/(pw|cf)_sso\/[^/]+/, '/auth/$1_sso/[redacted]');
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

/** Uploads are JSON with base64 content: documents of 10 MB need room for the encoding. */
const BODY_LIMIT = 16 * 1024 * 1024;

export interface BuildOptions {
  /** Replaces parts of the context (tests swap the SMS provider, for instance). */
  overrides?: Partial<AppContext>;
  /** Where JSON logs go (stdout by default); tests read them to prove no secret is logged. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<BuiltApp> {
  const { overrides = {}, logStream } = options;
  // The logger exists only once Fastify does; until then pool errors go to stderr.
  let logPoolError = (error: Error) => console.error('database pool error', error.message);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteSynchronous: config.sqliteSynchronous,
    onPoolError: (error) => logPoolError(error),
  });
  const ctx: AppContext = {
    config,
    db: db.kysely,
    dialect: db.dialect,
    sealer: createSealer(loadMasterKey(config.masterKey, config.dataDir)),
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
    }),
    sms: createOutboxSms(config.dataDir),
    metrics: createMetrics(),
    gateways: createGatewayHub(() => ctx),
    ...overrides,
  };
  const leftOpen = await endConnectionsOfLostGateways(ctx, { unknown: true });

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    logger: {
      level: config.logLevel,
      ...(logStream && { stream: logStream }),
      // Query strings carry reset codes and similar; headers carry cookies. Neither is logged.
      serializers: {
        req: (req) => ({
          method: req.method,
          url: redactUrl(String(req.url)),
          remoteAddress: req.ip,
        }),
      },
      redact: {
        paths: ['req.headers', 'body', '*.password', '*.pwd', '*.secret', '*.code'],
        censor: '[redacted]',
      },
    },
  });
  logPoolError = (error) => app.log.warn({ err: error }, 'database pool error');
  if (leftOpen > 0) app.log.warn({ sessions: leftOpen }, 'ended sessions a previous run left open');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onClose', async () => {
    // The gateways' last messages may record alarms, whose mails then go on: both before the
    // database closes.
    await ctx.gateways.close();
    await alarmMailsSettled(ctx);
    await db.kysely.destroy();
  });

  await app.register(cookie);
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(securityPlugin({ secureCookies: config.secureCookies }));
  await app.register(errorHandlerPlugin);
  await app.register(authPlugin(ctx));
  await app.register(metricsPlugin(ctx.metrics, process.env.METRICS_TOKEN ?? null));
  await app.register(swagger, {
    openapi: { info: { title: 'Portcullis API', version: '0.1.0' }, servers: [{ url: '/api' }] },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      registerAuthRoutes(api, ctx);
      registerAccountRoutes(api, ctx);
      registerFileRoutes(api, ctx);
      registerCompanyRoutes(api, ctx);
      registerSshKeyRoutes(api, ctx);
      registerTeamRoutes(api, ctx);
      registerLogRoutes(api, ctx);
      registerSsoRoutes(api, ctx);
      registerClusterRoutes(api, ctx);
      registerResourceRoutes(api, ctx);
      registerAgentDistRoutes(api, ctx);
      registerAutologinRoutes(api, ctx);
      registerWorkgroupRoutes(api, ctx);
      registerCodeRoutes(api, ctx);
      registerRecordingRoutes(api, ctx);
      registerActionLogRoutes(api, ctx);
      registerConnectionRoutes(api, ctx);
      registerWebTerminalRoutes(api, ctx);
      registerResourceNameRoutes(api, ctx);
      registerStatisticsRoutes(api, ctx);
    },
    { prefix: '/api' },
  );

  ctx.gateways.attach(app);

  const dist = config.consoleDist;
  const hasConsole = dist !== null && fs.existsSync(path.join(dist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, { root: dist, wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler((request, reply) => {
    // The console is a single-page app: its routes all load index.html.
    if (hasConsole && request.method === 'GET' && !request.url.startsWith('/api/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 'RouteNotFound');
  });

  return { app, ctx };
}
