/**
 * The session half of the control channel, on the server (contract control.ts, protocol 2):
 * a gateway resolves a code (getting a single-use grant), fetches the credential for that one
 * session, reports its start (an online connection row) and end, and is told to cut it.
 * The hub (features/clusters/hub.ts) hands it every session message of a greeted gateway.
 *
 * Refusals carry the catalogue code and its English text; nothing secret (a code, a password,
 * a key) is logged here or anywhere in the reply but the credential itself.
 */
import {
  CONTROL_PROTOCOL,
  createKeptCuts,
  formatError,
  RECORDING_CHUNK_BYTES,
  type ErrorCode,
  type GatewayMessage,
  type RecordingChunk,
  type ResolvedCode,
  type ServerMessage,
  type SessionCredential,
  type SessionRefusal,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { resolveCodeWithRows } from '../codes/resolve';
import type { LoginRow, ResourceRow } from '../resources/service';
import { unhonouredField } from './credential-features';
import { ingestChunk } from '../recordings/ingest';
import { redeemWebTerminalToken } from '../web-terminal/service';
import { isDatabaseWay, recordAlarm, sessionPolicy } from './alarms';
import { endConnections, openConnection } from './connections';
import { ExplainedRefusal, sessionCredential } from './credential';
import { pinHostKey } from './host-key';
import { recordFileTransfer } from './file-log';
import { createGrantStore } from './grants';
import { sessionLogFilters } from './log-filters';
import { checkMemberKey } from './pubkey';
import { revocationLookupCount, revokedReason } from './revoke-sessions';
import { sessionSqlPolicy } from './sql-policy';

/** One greeted gateway connection, as the hub knows it. */
export interface GatewayLink {
  networkId: number;
  /** The agent row of this control channel (the gateway connection its sessions name). */
  agentId?: number;
  /** What the gateway said it can do (hello's features). */
  features?: readonly string[];
  /** `canWait`: the gateway does not wait on it; it may leave with the next message. */
  send(message: ServerMessage, canWait?: boolean): void;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

type SessionMessage = Extract<
  GatewayMessage,
  {
    type:
      | 'resolve_code'
      | 'redeem_web_token'
      | 'session_credential'
      | 'session_start'
      | 'session_end'
      | 'recording_chunk'
      | 'command_alarm'
      | 'file_transfer';
  }
>;

export const SESSION_MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'resolve_code',
  'redeem_web_token',
  'session_credential',
  'session_start',
  'session_end',
  'recording_chunk',
  'command_alarm',
  'file_transfer',
]);

export function isSessionMessage(message: GatewayMessage): message is SessionMessage {
  return SESSION_MESSAGE_TYPES.has(message.type);
}

/** The session messages a gateway waits on the answer to; the others are reports. */
const WAITED_ON_TYPES: ReadonlySet<string> = new Set([
  'resolve_code',
  'redeem_web_token',
  'session_credential',
  'session_start',
]);

export function isWaitedOn(message: SessionMessage): boolean {
  return WAITED_ON_TYPES.has(message.type);
}

export interface SessionControl {
  onMessage(link: GatewayLink, message: SessionMessage): Promise<void>;
  /** A recording chunk that came as a binary frame (contract recording-frame.ts). */
  onRecordingChunk(link: GatewayLink, chunk: RecordingChunk): Promise<void>;
  /** The gateway went away: its sessions are over. */
  onGatewayClosed(link: GatewayLink): Promise<void>;
  /**
   * Tells the gateway carrying this session to end it, saying why (English text, and the
   * catalogue code for clients that translate); false when no gateway here has it.
   */
  cut(connectionId: number, reason?: string, reasonCode?: ErrorCode): boolean;
}

type SessionWay = Extract<SessionMessage, { type: 'session_start' }>['way'];
type SessionStarted = Extract<ServerMessage, { type: 'session_started' }>;
/** What session_started carries: the session, or why it did not start. */
type StartOutcome =
  | { refusal: SessionRefusal }
  | (Required<Pick<SessionStarted, 'connection_id'>> &
      Pick<SessionStarted, 'policy' | 'log_filters' | 'sql_policy'>);

function refusalOf(error: unknown): SessionRefusal {
  if (error instanceof ExplainedRefusal) {
    return {
      code: error.code,
      message: `${formatError(error.code, 'en_US')}: ${error.explanation}`,
    };
  }
  if (error instanceof AppError) {
    return { code: error.code, message: formatError(error.code, 'en_US', error.params) };
  }
  return { code: 'UnknowError', message: formatError('UnknowError', 'en_US') };
}

/** One login user's credential, for a proxy of `kind`: a resource of another is refused. */
async function credentialFor(
  ctx: AppContext,
  link: GatewayLink,
  resolved: ResolvedCode,
  kind: ResolvedCode['resource']['os'],
  username: string,
  read: { logins?: LoginRow[]; resource?: ResourceRow } = {},
): Promise<SessionCredential> {
  if (resolved.resource.os !== kind) throw new AppError('WrongResourceKind');
  const credential = await sessionCredential(ctx, resolved, username, read.logins, read.resource);
  const unhonoured = unhonouredField(credential, (f) => link.features?.includes(f) ?? false);
  if (unhonoured) throw new ExplainedRefusal('GatewayUpdateRequired', unhonoured.explanation);
  return credential;
}

export function createSessionControl(getCtx: () => AppContext): SessionControl {
  const grants = createGrantStore();
  /** Open sessions by connection id, with the gateway link carrying them. */
  const open = new Map<number, GatewayLink>();
  /**
   * Cuts of sessions not (yet) open here, oldest first: a row is online from its insert, and an
   * administrator can cut it before its start is answered (it was sent nowhere and only its row
   * ended, while the gateway went on with the session). Others are another replica's sessions.
   */
  const earlyCuts = createKeptCuts<{ reason: string; reasonCode?: ErrorCode }>();
  /** Links whose gateway went: a session a late start opens on one is ended at once. */
  const closedLinks = new WeakSet<GatewayLink>();
  const v = CONTROL_PROTOCOL;

  /**
   * Opens the session a grant allows (an online connection row) and spends the grant: what
   * session_started carries, or the refusal. resolve_code runs it too, when asked to start.
   */
  async function startSession(
    link: GatewayLink,
    token: string,
    way: SessionWay,
    clientIp: string,
  ): Promise<StartOutcome> {
    const grant = grants.get(link, token);
    grants.spend(token);
    if (!grant || grant.username === null) {
      return { refusal: refusalOf(new AppError('TunnelNotFound')) };
    }
    const ctx = getCtx();
    const kind = isDatabaseWay(way) ? way : 'linux';
    if (grant.resolved.resource.os !== kind) {
      return { refusal: refusalOf(new AppError('WrongResourceKind')) };
    }
    const policy = kind === 'linux' ? await sessionPolicy(ctx, grant.resolved) : undefined;
    const sqlPolicy =
      kind === 'linux'
        ? undefined
        : await sessionSqlPolicy(ctx, grant.resolved.resource.id, grant.resource);
    const logFilters = await sessionLogFilters(ctx, grant.resolved.resource.network_id);
    if (logFilters.truncated) {
      link.log.warn(
        { network_id: grant.resolved.resource.network_id },
        'the cluster has more log filters than a session carries; the newest do not apply',
      );
    }
    const id = await openConnection(ctx, grant, {
      way,
      clientIp,
      agentId: link.agentId,
      safeMode: policy !== undefined,
    });
    if (closedLinks.has(link)) {
      // The gateway went while the row was written (its close already ended its sessions'
      // rows): it will never hear of this one, so the row ends now rather than stay online.
      await endConnections(ctx, [id]);
      return { refusal: refusalOf(new AppError('AgentError')) };
    }
    // A revocation (a code deleted, a member disabled) looked while this session was being
    // checked and started, and may have missed its row: the row is checked itself, again as
    // long as another look-up began meanwhile (it may have missed the row as this check read).
    for (let seen = grant.lookupsBefore; revocationLookupCount() !== seen;) {
      seen = revocationLookupCount();
      const revoked = await revokedReason(ctx, id);
      if (revoked) {
        await endConnections(ctx, [id]);
        return { refusal: refusalOf(new AppError(revoked)) };
      }
    }
    open.set(id, link);
    link.log.info(
      { connection_id: id, tunnel_id: grant.resolved.tunnel_id, way },
      'session started',
    );
    const early = earlyCuts.get(id);
    if (early) {
      earlyCuts.delete(id);
      // Cut while it was being started: the cut follows the answer (the gateway keeps a cut
      // that overtakes it too), and the member hears the reason as for any cut.
      setImmediate(() => cut(id, early.reason, early.reasonCode));
    }
    return {
      connection_id: id,
      ...(policy && { policy }),
      ...(logFilters.conditions.length > 0 && { log_filters: logFilters.conditions }),
      ...(sqlPolicy && { sql_policy: sqlPolicy }),
    };
  }

  function cut(connectionId: number, reason = '', reasonCode?: ErrorCode): boolean {
    const link = open.get(connectionId);
    if (!link) {
      earlyCuts.keep(connectionId, { reason, ...(reasonCode && { reasonCode }) });
      return false;
    }
    link.send({
      v,
      type: 'session_cut',
      connection_id: connectionId,
      reason,
      ...(reasonCode && { reason_code: reasonCode }),
    });
    return true;
  }

  const handlers: {
    [T in SessionMessage['type']]: (
      link: GatewayLink,
      m: Extract<SessionMessage, { type: T }>,
    ) => Promise<void>;
  } = {
    async resolve_code(link, m) {
      const ctx = getCtx();
      const lookupsBefore = revocationLookupCount();
      try {
        const { resolved, resource, logins } = await resolveCodeWithRows(ctx, {
          networkId: link.networkId,
          code: m.code,
          clientIp: m.client_ip,
          password: m.password,
        });
        if (m.public_key !== undefined) await checkMemberKey(ctx, resolved, m.public_key);
        let credential: SessionCredential | undefined;
        let username: string | null = null;
        if (m.credential_kind !== undefined) {
          // A database proxy: the resource's one connect account (login_users is empty).
          username = resolved.login_users[0] ?? '';
          credential = await credentialFor(ctx, link, resolved, m.credential_kind, username, {
            logins,
            resource,
          });
        }
        const grant = grants.issue(link, { resolved, username, resource, lookupsBefore });
        link.log.info(
          { tunnel_id: resolved.tunnel_id, account_id: resolved.account.id, ip: m.client_ip },
          'code resolved for a gateway',
        );
        // A database proxy holding a connection to the target: the session starts now.
        // (A database session has no command policy: the outcome is what `started` holds.)
        let started: Exclude<StartOutcome, { refusal: SessionRefusal }> | undefined;
        if (m.start_way !== undefined && m.start_way === m.credential_kind) {
          const outcome = await startSession(link, grant, m.start_way, m.client_ip);
          if ('refusal' in outcome) {
            const { refusal } = outcome;
            link.send({ v, type: 'code_resolved', request_id: m.request_id, refusal });
            return;
          }
          started = outcome;
        }
        link.send({
          v,
          type: 'code_resolved',
          request_id: m.request_id,
          resolved,
          grant,
          ...(credential && { credential }),
          ...(started && { started }),
        });
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal.code === 'UnknowError') link.log.error({ err: error }, 'resolve_code failed');
        link.log.warn({ code: refusal.code, ip: m.client_ip }, 'code refused for a gateway');
        link.send({ v, type: 'code_resolved', request_id: m.request_id, refusal });
      }
    },
    async redeem_web_token(link, m) {
      // The web terminal's way to a grant: the same grant resolve_code gives the SSH proxy.
      const lookupsBefore = revocationLookupCount();
      try {
        const resolved = await redeemWebTerminalToken(
          getCtx(),
          link.networkId,
          m.token,
          m.client_ip,
        );
        const grant = grants.issue(link, { resolved, lookupsBefore });
        link.log.info(
          { tunnel_id: resolved.tunnel_id, account_id: resolved.account.id, ip: m.client_ip },
          'web terminal token redeemed',
        );
        link.send({ v, type: 'code_resolved', request_id: m.request_id, resolved, grant });
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal.code === 'UnknowError') link.log.error({ err: error }, 'redeem failed');
        link.log.warn({ code: refusal.code, ip: m.client_ip }, 'web terminal token refused');
        link.send({ v, type: 'code_resolved', request_id: m.request_id, refusal });
      }
    },
    async session_credential(link, m) {
      const grant = grants.get(link, m.grant);
      try {
        if (!grant || grant.username !== null) throw new AppError('TunnelNotFound');
        grant.username = m.username;
        const credential = await credentialFor(getCtx(), link, grant.resolved, m.kind, m.username, {
          ...(grant.resource && { resource: grant.resource }),
        });
        link.send({ v, type: 'session_credential_result', request_id: m.request_id, credential });
      } catch (error) {
        if (grant) grants.spend(m.grant);
        const refusal = refusalOf(error);
        if (refusal.code === 'UnknowError') link.log.error({ err: error }, 'credential failed');
        link.send({ v, type: 'session_credential_result', request_id: m.request_id, refusal });
      }
    },
    async session_start(link, m) {
      // Read before the start spends the grant.
      const resource = grants.get(link, m.grant)?.resolved.resource;
      const outcome = await startSession(link, m.grant, m.way, m.client_ip);
      link.send({ v, type: 'session_started', request_id: m.request_id, ...outcome });
      if (m.host_key && resource?.os === 'linux' && !('refusal' in outcome)) {
        // Not awaited: a link's messages are handled in order, and this session's end (or the
        // next one's start) must not wait on the write.
        const hostKey = m.host_key;
        void pinHostKey(getCtx(), resource, hostKey).then(
          (pinned) => {
            if (pinned)
              link.log.info({ resource_id: resource.id, host_key: hostKey }, 'host key pinned');
          },
          (err: unknown) => link.log.warn({ err, resource_id: resource.id }, 'host key not pinned'),
        );
      }
    },
    async session_end(link, m) {
      // Only the gateway carrying a session may end it.
      if (open.get(m.connection_id) !== link) return;
      open.delete(m.connection_id);
      await endConnections(getCtx(), [m.connection_id]);
      link.log.info({ connection_id: m.connection_id }, 'session ended');
    },
    async command_alarm(link, m) {
      // Only the gateway carrying a session reports on it.
      if (open.get(m.connection_id) !== link) return;
      const written = await recordAlarm(
        getCtx(),
        { connectionId: m.connection_id, action: m.action, command: m.command, rule: m.rule },
        (err) => link.log.warn({ err, connection_id: m.connection_id }, 'alarm mail failed'),
      );
      // The command is the member's own text: logged in the alarm row, not in the server log.
      if (written) link.log.info({ connection_id: m.connection_id, action: m.action }, 'alarm');
    },
    async file_transfer(link, m) {
      if (open.get(m.connection_id) !== link) return;
      await recordFileTransfer(getCtx(), {
        connectionId: m.connection_id,
        way: m.way,
        op: m.op,
        filename: m.filename,
      });
    },
    async recording_chunk(link, m) {
      const data = Buffer.from(m.data, 'base64');
      await recordingChunk(link, { connection_id: m.connection_id, offset: m.offset, data });
    },
  };

  /** A chunk as a message or as a binary frame: stored, and acknowledged with the size held. */
  const recordingChunk = async (link: GatewayLink, chunk: RecordingChunk): Promise<void> => {
    const outcome = await ingestChunk(getCtx(), link.networkId, chunk);
    if (outcome.refused) {
      link.log.warn({ connection_id: chunk.connection_id }, 'recording chunk refused');
    }
    // After a short chunk (a session's last, or a live one's, whose next is a second away) the
    // gateway sends nothing more of this recording until it is acknowledged, so it is in no
    // hurry; after a full one more waits behind the acknowledgement.
    link.send(
      { v, type: 'recording_ack', connection_id: chunk.connection_id, ...outcome },
      chunk.data.length < RECORDING_CHUNK_BYTES,
    );
  };

  return {
    async onMessage(link, message) {
      await (handlers[message.type] as (l: GatewayLink, m: SessionMessage) => Promise<void>)(
        link,
        message,
      );
    },
    onRecordingChunk: recordingChunk,
    async onGatewayClosed(link) {
      closedLinks.add(link);
      const ids = [...open].filter(([, l]) => l === link).map(([id]) => id);
      for (const id of ids) open.delete(id);
      await endConnections(getCtx(), ids);
    },
    cut,
  };
}
