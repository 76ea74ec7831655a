/**
 * The life of one database session on the gateway, shared by the MySQL and PostgreSQL proxies.
 * authorize(): the code (the client's user name; a temporary authorization's one-time user
 * name, with its password) is checked by the server exactly as for SSH, the resource must be of
 * the proxy's kind and offer the database asked for, and the target credential is fetched for
 * this session only. The proxy then logs in to the target itself and calls begin(): the server
 * records the online connection and answers with the database's rules; from then on the
 * statement log is spooled and uploaded, alarms are reported, and a cut from the console
 * reaches the proxy. Nothing here is kept on disk but the statement log.
 */
import {
  formatError,
  type AlarmAction,
  type ResolvedCode,
  type SessionRefusal,
  type SqlPolicy,
} from '@portcullis/contract';
import type { DbTls } from '../control/protocol';
import type { Outcome, SessionControlApi, StartedSession } from '../control/session-requests';
import type { Logger } from '../core/logger';
import { logFilterMatcher, recordingSpool, type Recordings } from '../recording';
import {
  alarmText,
  createStatementLog,
  type StatementEntry,
  type StatementLog,
} from './statement-log';

export type DbKind = 'mysql' | 'postgresql';
export type { StatementEntry } from './statement-log';

/** Where and as whom the gateway logs in to the database (never written to disk). */
export interface DbTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  /** TLS on the gateway's own connection to the database (core/db-tls.ts); absent: prefer. */
  tls?: DbTls;
}

export interface DbLogin {
  /** The user name the client gave: the code (or a temporary authorization's user name). */
  code: string;
  /** Only a temporary authorization needs one. */
  password?: string;
  clientIp: string;
  /** The database the client asked for ('' or undefined: none). */
  database?: string;
}

export interface AuthorizedDb {
  resolved: ResolvedCode;
  target: DbTarget;
  /** Call once the target accepted the login: the session is then online and logged. */
  begin(): Promise<Outcome<{ session: DbSession }>>;
  /**
   * Call when begin() will not be (the target refused, the client left): a session the server
   * started with the answer (`startNow`) is ended at once. Idempotent; nothing after begin().
   */
  drop(): void;
}

export interface DbSession {
  connectionId: number;
  /** The database's rules; undefined when it has none. */
  policy: SqlPolicy | undefined;
  logStatement(entry: StatementEntry): void;
  /** A notice rule let a statement through, or a block rule refused it (alarm log row). */
  alarm(action: AlarmAction, statement: string, rule: string): void;
  /**
   * The server cut the session (an administrator, or the code or member was revoked), or its
   * statement log failed. A listener added after the cut hears it at once (on the next
   * microtask): a cut can come before the proxy's relay listens.
   */
  onCut(listener: (reason: string) => void): void;
  /** The client or the target went: closes the statement log and reports the end. Idempotent. */
  end(): Promise<void>;
}

export interface DbSessions {
  /**
   * `startNow`: the proxy holds a connection to the target for this login already (a kept
   * PostgreSQL connection), so the server starts the session with its answer: one round trip
   * to the server instead of two. begin() then only sets it up.
   */
  authorize(
    kind: DbKind,
    login: DbLogin,
    options?: { startNow?: boolean },
  ): Promise<Outcome<AuthorizedDb>>;
}

export interface DbSessionsOptions {
  control: SessionControlApi;
  logger: Logger;
  /** The gateway's data folder (the statement logs' spool) and its uploader. */
  dataDir: string;
  recordings: Pick<Recordings, 'track' | 'finish' | 'finishFromMemory' | 'finishWithTail'>;
}

const refusal = (
  code: 'WrongResourceKind' | 'DatabaseNotOffered' | 'AgentError',
): SessionRefusal => ({
  code,
  message: formatError(code, 'en_US'),
});

/** '' or '*' in the resource's list offers every database. */
function offers(resolved: ResolvedCode, database: string | undefined): boolean {
  const list = resolved.resource.databases.filter((d) => d !== '');
  if (!database || list.length === 0 || list.includes('*')) return true;
  return list.includes(database);
}

export function createDbSessions(options: DbSessionsOptions): DbSessions {
  const { control, logger } = options;
  const spool = recordingSpool(options.dataDir);

  async function begin(
    kind: DbKind,
    login: DbLogin,
    grant: string,
    startedWithAnswer: StartedSession | undefined,
  ): Promise<Outcome<{ session: DbSession }>> {
    let started = startedWithAnswer;
    if (!started) {
      const outcome = await control.start(grant, login.clientIp, kind);
      if (!outcome.ok) return outcome;
      started = outcome;
    }
    return { ok: true, session: open(kind, started) };
  }

  /** The statement log, alarms and cuts of a session the server started. */
  function open(kind: DbKind, started: StartedSession): DbSession {
    const { connectionId } = started;
    const logFilter = logFilterMatcher(started.logFilters);
    let ended: Promise<void> | undefined;
    const cutListeners: ((reason: string) => void)[] = [];
    /** Set once cut: the relay may listen only later (after the client's login is answered). */
    let cutReason: string | undefined;
    const cut = (reason: string): void => {
      if (cutReason !== undefined) return;
      cutReason = reason;
      for (const listener of cutListeners) listener(reason);
    };
    // A cut that came with the start's answer, or while the target was logged in to (a
    // session the code's answer started), is told now.
    const stopCuts = control.onCut(connectionId, (reason) => {
      logger.info({ connection_id: connectionId, reason }, 'database session cut by the server');
      cut(reason);
    });
    const session: DbSession = {
      connectionId,
      policy: started.sqlPolicy,
      logStatement: (entry) => log.write(entry),
      alarm(action, statement, rule) {
        // The alarm row and its notice mails: password literals masked as in the log.
        control.alarm(connectionId, action, alarmText(statement, logFilter, kind, 4000), rule);
      },
      onCut(listener) {
        cutListeners.push(listener);
        const earlier = cutReason;
        if (earlier !== undefined) queueMicrotask(() => listener(earlier));
      },
      end() {
        ended ??= (async () => {
          stopCuts();
          const unspooled = await log.close();
          if (unspooled && 'fileBytes' in unspooled) {
            options.recordings.finishWithTail(connectionId, unspooled.data, unspooled.fileBytes);
          } else if (unspooled) {
            options.recordings.finishFromMemory(connectionId, unspooled.data, unspooled.spoolBy);
          } else {
            options.recordings.finish(connectionId);
          }
          control.end(connectionId);
          logger.info({ connection_id: connectionId, way: kind }, 'database session closed');
        })();
        return ended;
      },
    };
    const log: StatementLog = createStatementLog({
      dir: spool,
      connectionId,
      logger,
      onFailure() {
        // A statement log that cannot be written ends the session (fail closed).
        cut('the statement log cannot be written');
      },
      onSpooled: () => options.recordings.track(connectionId),
      logFilter,
      dialect: kind,
    });
    logger.info({ connection_id: connectionId, way: kind }, 'database session started');
    return session;
  }

  return {
    async authorize(kind, login, authorizeOptions) {
      // The credential of the database's one connect account comes in the same answer.
      const resolved = await control.resolve({
        code: login.code,
        clientIp: login.clientIp,
        ...(login.password !== undefined && { password: login.password }),
        credentialKind: kind,
        ...(authorizeOptions?.startNow && { startWay: kind }),
      });
      if (!resolved.ok) return resolved;
      // Started with the answer and then not used: the server's online row ends at once.
      let unused = resolved.started;
      const drop = (): void => {
        if (unused) control.end(unused.connectionId);
        unused = undefined;
      };
      const refuse = (code: Parameters<typeof refusal>[0]): Outcome<AuthorizedDb> => {
        drop();
        return { ok: false, refusal: refusal(code) };
      };
      if (resolved.resolved.resource.os !== kind) return refuse('WrongResourceKind');
      if (!offers(resolved.resolved, login.database)) return refuse('DatabaseNotOffered');
      const c = resolved.credential;
      if (!c) return refuse('AgentError');
      return {
        ok: true,
        resolved: resolved.resolved,
        target: {
          host: c.host,
          port: c.port,
          username: c.username,
          password: c.password ?? '',
          ...(c.tls && { tls: c.tls }),
        },
        begin: () => {
          const started = unused;
          unused = undefined;
          return begin(kind, login, resolved.grant, started);
        },
        drop,
      };
    },
  };
}
