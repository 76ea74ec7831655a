/**
 * One migration set for SQLite and PostgreSQL. The only differences between the two are the
 * auto-increment key and the width of time columns, which the context supplies.
 */
import type { ColumnDataType, ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import * as foundation from './001-foundation';
import * as teamAndEvents from './002-team-and-events';
import * as sso from './003-sso';
import * as clusters from './004-clusters';
import * as resources from './005-resources';
import * as autologin from './006-autologin';
import * as clusterSettings from './007-cluster-settings';
import * as databaseSecurity from './008-database-security';
import * as workgroups from './009-workgroups';
import * as recordings from './010-recordings';
import * as onlineConnections from './011-online-connections';
import * as actionLog from './012-action-log';
import * as fileLog from './013-file-log';
import * as actionLogIndexes from './014-action-log-indexes';
import * as actionLogSearchText from './015-action-log-search-text';
import * as recordingInline from './016-recording-inline';
import * as connectionAgent from './017-connection-agent';
import * as connectionSafeMode from './018-connection-safe-mode';
import * as formerIdentity from './019-former-identity';
import * as wayTerminal from './020-way-terminal';
import * as resourceHostKey from './021-resource-host-key';
import * as resourceDbTls from './022-resource-db-tls';

export type Dialect = 'sqlite' | 'postgres';

export interface MigrationContext {
  dialect: Dialect;
  /** Column type of an auto-increment id. */
  id: ColumnDataType;
  /** Column type of epoch seconds (64-bit on PostgreSQL). */
  time: ColumnDataType;
  primaryId(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}

interface ContextMigration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped handle
  up(db: Kysely<any>, ctx: MigrationContext): Promise<void>;
}

const MIGRATIONS: Record<string, ContextMigration> = {
  '001-foundation': foundation,
  '002-team-and-events': teamAndEvents,
  '003-sso': sso,
  '004-clusters': clusters,
  '005-resources': resources,
  '006-autologin': autologin,
  '007-cluster-settings': clusterSettings,
  '008-database-security': databaseSecurity,
  '009-workgroups': workgroups,
  '010-recordings': recordings,
  '011-online-connections': onlineConnections,
  '012-action-log': actionLog,
  '013-file-log': fileLog,
  '014-action-log-indexes': actionLogIndexes,
  '015-action-log-search-text': actionLogSearchText,
  '016-recording-inline': recordingInline,
  '017-connection-agent': connectionAgent,
  '018-connection-safe-mode': connectionSafeMode,
  '019-former-identity': formerIdentity,
  '020-way-terminal': wayTerminal,
  '021-resource-host-key': resourceHostKey,
  '022-resource-db-tls': resourceDbTls,
};

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  const ctx: MigrationContext =
    dialect === 'sqlite'
      ? {
          dialect,
          id: 'integer',
          time: 'integer',
          primaryId: (c) => c.primaryKey().autoIncrement(),
        }
      : { dialect, id: 'serial', time: 'bigint', primaryId: (c) => c.primaryKey() };
  return Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db) => m.up(db, ctx) }]),
  );
}
