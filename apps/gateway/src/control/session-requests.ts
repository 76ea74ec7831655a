/**
 * The gateway's side of the session messages (contract control.ts, protocol 2): requests that
 * wait for the server's answer on the control channel, matched by request_id. While the channel
 * is down, or the server does not answer in time, a request is refused (fail closed): no code
 * is ever accepted without the server's word.
 */
import crypto from 'node:crypto';
import {
  formatError,
  type AlarmAction,
  type CommandPolicy,
  type FileOp,
  type FileWay,
  type SqlPolicy,
} from '@portcullis/contract';
import type { ReplyMessage } from './connection';
import { createCutBoard, type AnyCutListener, type CutListener } from './cut-board';
import {
  CONTROL_PROTOCOL,
  type GatewayMessage,
  type ResolvedCode,
  type SessionCredential,
  type SessionRefusal,
} from './protocol';

export type Outcome<T> = ({ ok: true } & T) | { ok: false; refusal: SessionRefusal };

export interface ResolveRequest {
  code: string;
  clientIp: string;
  password?: string;
  /** `type base64`, after the gateway verified the client's signature with it. */
  publicKey?: string;
  /** A database proxy: the connect account's credential comes with the answer. */
  credentialKind?: 'mysql' | 'postgresql';
  /**
   * A database proxy that holds a connection to the target for this login already: the
   * session starts with the answer (`started`), one round trip instead of two. The same kind
   * as credentialKind.
   */
  startWay?: 'mysql' | 'postgresql';
}

/** An online session, as the server opened it (session_start, or resolve with startWay). */
export interface StartedSession {
  connectionId: number;
  policy?: CommandPolicy;
  logFilters?: string[];
  sqlPolicy?: SqlPolicy;
}

export type SessionWay = Extract<GatewayMessage, { type: 'session_start' }>['way'];

export interface SessionControlApi {
  resolve(request: ResolveRequest): Promise<
    Outcome<{
      resolved: ResolvedCode;
      grant: string;
      /** Set when the request named a credentialKind. */
      credential?: SessionCredential;
      /** Set when the request named a startWay (and the server knows it). */
      started?: StartedSession;
    }>
  >;
  /** Spends a web terminal token (once) for the same grant a code gives. */
  redeem(
    token: string,
    clientIp: string,
  ): Promise<Outcome<{ resolved: ResolvedCode; grant: string }>>;
  credential(
    grant: string,
    username: string,
    /** What this proxy carries: the server refuses a resource of another kind. */
    kind?: 'linux' | 'mysql' | 'postgresql',
  ): Promise<Outcome<{ credential: SessionCredential }>>;
  start(
    grant: string,
    clientIp: string,
    way: SessionWay,
    /** The host key fingerprint an SSH target showed, for the server to pin. */
    hostKey?: string,
  ): Promise<Outcome<StartedSession>>;
  end(connectionId: number): void;
  /** Security mode acted on a command line or a statement (reported, not waited for). */
  alarm(connectionId: number, action: AlarmAction, command: string, rule: string): void;
  /** A file the session opened, for the file log (reported, not waited for). */
  fileTransfer(connectionId: number, way: FileWay, op: FileOp, filename: string): void;
  /**
   * Listens for the server's cut of the session `connectionId`; returns a function that stops
   * listening. A cut that came before (it can overtake the answer that started the session, or
   * come while the session is set up) is told at once, on the next microtask (cut-board.ts).
   */
  onCut(connectionId: number, listener: CutListener): () => void;
  /** Every cut, of any session (for passing them on: the SSH worker pool). */
  onAnyCut(listener: AnyCutListener): () => void;
}

/** A session as the server's answer (session_started, or code_resolved's started) gives it. */
function startedSession(wire: {
  connection_id: number;
  policy?: CommandPolicy;
  log_filters?: string[];
  sql_policy?: SqlPolicy;
}): StartedSession {
  return {
    connectionId: wire.connection_id,
    ...(wire.policy && { policy: wire.policy }),
    ...(wire.log_filters && { logFilters: wire.log_filters }),
    ...(wire.sql_policy && { sqlPolicy: wire.sql_policy }),
  };
}

/** No answer: the channel is down or the server did not reply in time. */
const UNREACHABLE: SessionRefusal = {
  code: 'AgentError',
  message: 'The gateway got no answer from the Portcullis server; try again later',
};

type Request = Extract<
  GatewayMessage,
  { type: 'resolve_code' | 'redeem_web_token' | 'session_credential' | 'session_start' }
>;
/** A request without the fields ask() fills in (distributed over the union). */
type Body = Request extends infer R
  ? R extends Request
    ? Omit<R, 'v' | 'request_id'>
    : never
  : never;

export interface SessionRequests extends SessionControlApi {
  /** Hands the client an answer from the server. */
  onReply(message: ReplyMessage): void;
  onCutMessage(connectionId: number, reason: string, code?: string): void;
  /**
   * The channel went down: fails every waiting request and cuts every session the server
   * started (see {@link CHANNEL_LOST}).
   */
  failAll(): void;
}

/**
 * Why open sessions end when the control channel goes down. The server ends their online rows
 * then, and could neither list nor cut them, nor hear their alarms and file logs: a bastion
 * does not keep sessions it cannot govern (a member disabled meanwhile kept a shell).
 */
export const CHANNEL_LOST = formatError('ControlChannelLost', 'en_US');

export function createSessionRequests(
  send: (message: GatewayMessage) => boolean,
  timeoutMs = 15_000,
): SessionRequests {
  const waiting = new Map<string, (reply: ReplyMessage | null) => void>();
  const cuts = createCutBoard();
  /**
   * Sessions the server started and has not been told the end of: from the moment the answer
   * is read, so that a channel lost before the session heard it still cuts it.
   */
  const live = new Set<number>();

  function ask(body: Body): Promise<ReplyMessage | null> {
    const requestId = crypto.randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), timeoutMs);
      const finish = (reply: ReplyMessage | null) => {
        clearTimeout(timer);
        waiting.delete(requestId);
        resolve(reply);
      };
      waiting.set(requestId, finish);
      const message: Request = { v: CONTROL_PROTOCOL, request_id: requestId, ...body };
      if (!send(message)) finish(null);
    });
  }

  const refusal = (reply: ReplyMessage | null): SessionRefusal =>
    reply && 'refusal' in reply && reply.refusal ? reply.refusal : UNREACHABLE;

  return {
    async resolve(request) {
      const reply = await ask({
        type: 'resolve_code',
        code: request.code,
        client_ip: request.clientIp,
        ...(request.password !== undefined && { password: request.password }),
        ...(request.publicKey !== undefined && { public_key: request.publicKey }),
        ...(request.credentialKind !== undefined && { credential_kind: request.credentialKind }),
        ...(request.startWay !== undefined && { start_way: request.startWay }),
      });
      if (reply?.type === 'code_resolved' && reply.resolved && reply.grant) {
        return {
          ok: true,
          resolved: reply.resolved,
          grant: reply.grant,
          ...(reply.credential && { credential: reply.credential }),
          ...(reply.started && { started: startedSession(reply.started) }),
        };
      }
      return { ok: false, refusal: refusal(reply) };
    },
    async redeem(token, clientIp) {
      const reply = await ask({ type: 'redeem_web_token', token, client_ip: clientIp });
      if (reply?.type === 'code_resolved' && reply.resolved && reply.grant) {
        return { ok: true, resolved: reply.resolved, grant: reply.grant };
      }
      return { ok: false, refusal: refusal(reply) };
    },
    async credential(grant, username, kind = 'linux') {
      const reply = await ask({
        type: 'session_credential',
        grant,
        username,
        kind,
      });
      if (reply?.type === 'session_credential_result' && reply.credential) {
        return { ok: true, credential: reply.credential };
      }
      return { ok: false, refusal: refusal(reply) };
    },
    async start(grant, clientIp, way, hostKey) {
      const reply = await ask({
        type: 'session_start',
        grant,
        client_ip: clientIp,
        way,
        ...(hostKey !== undefined && { host_key: hostKey }),
      });
      if (reply?.type === 'session_started' && reply.connection_id !== undefined) {
        return { ok: true, ...startedSession({ ...reply, connection_id: reply.connection_id }) };
      }
      return { ok: false, refusal: refusal(reply) };
    },
    end(connectionId) {
      live.delete(connectionId);
      // Lost while disconnected is fine: the server ends a gateway's sessions when it goes.
      send({ v: CONTROL_PROTOCOL, type: 'session_end', connection_id: connectionId });
    },
    alarm(connectionId, action, command, rule) {
      // Lost while disconnected: the block itself still happened at the gateway (fail closed).
      send({
        v: CONTROL_PROTOCOL,
        type: 'command_alarm',
        connection_id: connectionId,
        action,
        command,
        rule,
      });
    },
    fileTransfer(connectionId, way, op, filename) {
      send({
        v: CONTROL_PROTOCOL,
        type: 'file_transfer',
        connection_id: connectionId,
        way,
        op,
        filename,
      });
    },
    onCut: (connectionId, listener) => cuts.onCut(connectionId, listener),
    onAnyCut: (listener) => cuts.onAnyCut(listener),
    onReply(message) {
      const started =
        message.type === 'session_started'
          ? message.connection_id
          : message.type === 'code_resolved'
            ? message.started?.connection_id
            : undefined;
      const finish = waiting.get(message.request_id);
      if (!finish) {
        // The request timed out and was refused: a session it started is nobody's.
        if (started !== undefined) {
          send({ v: CONTROL_PROTOCOL, type: 'session_end', connection_id: started });
        }
        return;
      }
      if (started !== undefined) live.add(started);
      finish(message);
    },
    onCutMessage: (connectionId, reason, code) => cuts.cut(connectionId, reason, code),
    failAll() {
      for (const finish of [...waiting.values()]) finish(null);
      const lost = [...live];
      live.clear();
      for (const connectionId of lost) cuts.cut(connectionId, CHANNEL_LOST, 'ControlChannelLost');
    },
  };
}
