/**
 * Starts the gateway's database proxies (PostgreSQL on ports.postgresql_port, MySQL on
 * ports.mysql_port) with what they share: the session lifecycle (session.ts), the SQL parsers,
 * and the TLS certificate.
 */
import type { GatewayPorts } from '@portcullis/contract';
import type { SessionControlApi } from '../control/session-requests';
import type { Logger } from '../core/logger';
import { startMysqlProxy } from '../mysql-proxy/server';
import { DEFAULT_POOL } from '../postgres-proxy/backend-pool';
import { startPostgresProxy } from '../postgres-proxy/server';
import type { Recordings } from '../recording';
import { loadSqlParsers } from '../sql-audit';
import { createDbSessions } from './session';
import { loadProxyTls } from './tls';

export interface DatabaseProxies {
  postgresPort: number;
  mysqlPort: number;
  close(): Promise<void>;
}

export interface DatabaseProxiesOptions {
  dataDir: string;
  listenHost?: string;
  ports: GatewayPorts;
  control: SessionControlApi;
  logger: Logger;
  recordings: Pick<Recordings, 'track' | 'finish' | 'finishFromMemory' | 'finishWithTail'>;
  /** Seconds an idle PostgreSQL connection is kept for the next session (default 30; 0: none). */
  pgKeepIdleSeconds?: number;
}

export async function startDatabaseProxies(
  options: DatabaseProxiesOptions,
): Promise<DatabaseProxies> {
  await loadSqlParsers();
  const sessions = createDbSessions(options);
  const tls = await loadProxyTls(options.dataDir, options.logger);
  const postgres = await startPostgresProxy({
    port: options.ports.postgresql_port,
    ...(options.listenHost && { host: options.listenHost }),
    sessions,
    logger: options.logger,
    ...(tls && { tls }),
    ...(options.pgKeepIdleSeconds !== undefined && {
      pool: { ...DEFAULT_POOL, idleMs: options.pgKeepIdleSeconds * 1000 },
    }),
  });
  const mysql = await startMysqlProxy({
    port: options.ports.mysql_port,
    ...(options.listenHost && { host: options.listenHost }),
    sessions,
    logger: options.logger,
    ...(tls && { tls }),
  }).catch(async (err: unknown) => {
    await postgres.close();
    throw err;
  });
  return {
    postgresPort: postgres.port,
    mysqlPort: mysql.port,
    close: async () => {
      await Promise.all([postgres.close(), mysql.close()]);
    },
  };
}
