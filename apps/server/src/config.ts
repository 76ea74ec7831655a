/**
 * Server configuration, read once from the environment. Defaults give the embedded setup of
 * `npm start`: SQLite and local storage under ./data, port 8080.
 */
import path from 'node:path';
import { HEARTBEAT_GRACE_SECONDS } from '@portcullis/contract';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` switches to PostgreSQL; otherwise SQLite at `<dataDir>/portcullis.db`. */
  databaseUrl: string | null;
  /**
   * SQLite's `synchronous` (WAL mode): `normal` (the default) writes a commit to the operating
   * system and syncs at checkpoints: a crash of the server loses nothing, a power loss or a
   * crash of the machine may lose the last commits, never the database; `full` syncs every
   * commit to the disk, at a fraction of a millisecond per write, during which the server
   * (SQLite is synchronous here) serves nothing else.
   */
  sqliteSynchronous: SqliteSynchronous;
  /** Where links in mails point (reset links). */
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** Base64 of 32 bytes; when unset a key is generated once into the data folder. */
  masterKey: string | null;
  bannerText: string | null;
  /** Built console to serve at `/`; absent in API-only tests. */
  consoleDist: string | null;
  /** Addresses of reverse proxies whose X-Forwarded-For is trusted. */
  trustedProxies: string[];
  firstRun: { team: string; adminEmail: string; adminPassword: string | null };
  logLevel: string;
  /** Cookies marked Secure; on when publicUrl is https. */
  secureCookies: boolean;
  /**
   * Seconds without a word from a gateway (heartbeat, message, pong) after which the server
   * counts it gone: its channel is closed and its sessions' rows ended.
   */
  gatewaySilenceSeconds: number;
}

export const SQLITE_SYNCHRONOUS = ['normal', 'full'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number.parseInt(env.PORT ?? '8080', 10);
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)');
  }
  const sqliteSynchronous = (env.SQLITE_SYNCHRONOUS?.trim().toLowerCase() ||
    'normal') as SqliteSynchronous;
  if (!SQLITE_SYNCHRONOUS.includes(sqliteSynchronous)) {
    throw new Error('SQLITE_SYNCHRONOUS must be normal or full');
  }
  const gatewaySilenceSeconds = Number(
    env.GATEWAY_SILENCE_SECONDS?.trim() || HEARTBEAT_GRACE_SECONDS,
  );
  if (!Number.isInteger(gatewaySilenceSeconds) || gatewaySilenceSeconds < 1) {
    throw new Error('GATEWAY_SILENCE_SECONDS must be a whole number of seconds, 1 or more');
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    sqliteSynchronous,
    publicUrl,
    smtpUrl: env.SMTP_URL?.trim() || null,
    mailFrom: env.MAIL_FROM ?? 'Portcullis <no-reply@portcullis.local>',
    masterKey: env.PORTCULLIS_MASTER_KEY?.trim() || null,
    bannerText: env.PORTCULLIS_BANNER?.trim() || null,
    consoleDist:
      env.CONSOLE_DIST === '' ? null : path.resolve(env.CONSOLE_DIST ?? 'apps/console/dist'),
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    firstRun: {
      team: env.PORTCULLIS_TEAM?.trim() || 'demo',
      adminEmail: env.PORTCULLIS_ADMIN_EMAIL?.trim() || 'admin@demo.local',
      adminPassword: env.PORTCULLIS_ADMIN_PASSWORD || null,
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    secureCookies: publicUrl.startsWith('https://'),
    gatewaySilenceSeconds,
  };
}
