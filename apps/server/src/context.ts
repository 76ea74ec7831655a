/**
 * What every feature needs, built once at start-up and passed to each feature's routes.
 */
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import type { Database } from './db/schema';
import type { Dialect } from './db/migrations/index';
import type { Sealer } from './lib/crypto';
import type { Mailer } from './lib/mailer';
import type { SmsProvider } from './lib/sms';
import type { Metrics } from './plugins/app/metrics';
import type { GatewayHub } from './features/clusters/hub';

export interface AppContext {
  config: AppConfig;
  db: Kysely<Database>;
  dialect: Dialect;
  sealer: Sealer;
  mailer: Mailer;
  sms: SmsProvider;
  metrics: Metrics;
  gateways: GatewayHub;
}
