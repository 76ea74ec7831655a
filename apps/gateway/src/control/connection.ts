/**
 * One WebSocket connection of the control channel, from dial to close: sends hello, keeps the
 * heartbeat once welcomed, watches the server's liveness, validates every incoming message
 * against the contract and hands the good ones to the client. It never reconnects itself: it
 * ends with a {@link ConnectionEnd} saying why, and the client decides what comes next.
 *
 * Incoming frames that are not JSON or do not match ServerMessageSchema are dropped and
 * logged by their schema issue paths only (their content may carry a credential).
 */
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import type { Logger } from '../core/logger';
import { corkAWhile, corkForTick } from './tick-cork';
import {
  CONTROL_PROTOCOL,
  encodeRecordingFrame,
  GatewayMessageSchema,
  HEARTBEAT_GRACE_SECONDS,
  HEARTBEAT_SECONDS,
  RECORDING_CHUNK_BYTES,
  ServerMessageSchema,
  type GatewayMessage,
  type RecordingChunk,
  type ServerMessage,
} from './protocol';

/**
 * Close codes that end the gateway instead of a reconnect. The server's hub (apps/server
 * features/clusters/hub.ts) closes with 4401 for a bad or missing key and 4426 for a protocol
 * too old; 1008 (RFC 6455 policy violation) is taken as a refused key too. Any other code,
 * including 4400 (the server could not read our hello), is retried with backoff.
 */
export const CLOSE_KEY_REJECTED = new Set([1008, 4401]);
export const CLOSE_UPDATE_REQUIRED = 4426;
export const CLOSE_BAD_HELLO = 4400;
/** HTTP statuses of a refused upgrade that mean the key is wrong, not that the server is down. */
const KEY_REJECTED_STATUSES = new Set([401, 403]);
/**
 * How long a message the server need not hurry on (a session's end, a recording's short chunk)
 * may wait for company: the next request takes it along sooner.
 */
const CAN_WAIT_MS = 20;
/** Largest frame the gateway accepts from the server. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;

export type ConnectionEnd =
  | { kind: 'closed'; welcomed: boolean; code?: number; status?: number; error?: unknown }
  | { kind: 'key_rejected'; code?: number; status?: number }
  | { kind: 'update_required'; latestVersion: string; minProtocol: number };

type Welcome = Extract<ServerMessage, { type: 'welcome' }>;
type TaskMessage = Extract<ServerMessage, { type: 'task' }>;
/** The server's answers to the gateway's session requests (matched by request_id). */
export type ReplyMessage = Extract<
  ServerMessage,
  { type: 'code_resolved' | 'session_credential_result' | 'session_started' }
>;
type CutMessage = Extract<ServerMessage, { type: 'session_cut' }>;
type RecordingAckMessage = Extract<ServerMessage, { type: 'recording_ack' }>;

export interface ConnectionParams {
  url: URL;
  key: string;
  hello: Extract<GatewayMessage, { type: 'hello' }>;
  logger: Logger;
  /** How long to wait for the handshake and then for welcome, in milliseconds. */
  welcomeTimeoutMs: number;
  /** TLS trust for an https server with a private CA. */
  ca?: string | Buffer;
  onWelcome(message: Welcome): void;
  onTask(message: TaskMessage): void;
  onReply(message: ReplyMessage): void;
  onCut(message: CutMessage): void;
  onRecordingAck(message: RecordingAckMessage): void;
}

export interface Connection {
  /** Sends a message if the socket is open and the message is valid; false otherwise. */
  send(message: GatewayMessage): boolean;
  /**
   * Sends a recording chunk: a binary frame to a server that reads them (its welcome said
   * binary_chunks), else a recording_chunk message. False as for send.
   */
  sendChunk(chunk: RecordingChunk): boolean;
  close(code?: number, reason?: string): void;
  readonly ended: Promise<ConnectionEnd>;
}

/** The heartbeat period from welcome, clamped to something sane. */
function heartbeatMs(seconds: number): number {
  return Math.min(Math.max(seconds || HEARTBEAT_SECONDS, 1), 300) * 1000;
}

export function openConnection(params: ConnectionParams): Connection {
  const { logger } = params;
  const ws = new WebSocket(params.url, {
    headers: { authorization: `Bearer ${params.key}` },
    handshakeTimeout: params.welcomeTimeoutMs,
    maxPayload: MAX_PAYLOAD_BYTES,
    perMessageDeflate: false,
    followRedirects: false,
    // No masking (an all-zero key, which ws then skips on both ends). Masking keeps bytes a
    // browser page chose from reading as an HTTP request to a proxy on the way (RFC 6455
    // §10.3). What this socket carries the gateway writes itself: JSON messages, and JSON
    // lines (statement logs, asciicast) whose every line starts with `{` or `[` and whose
    // text has its control characters escaped, so no line can read as a request line; and
    // masking every byte of every statement log cost the gateway and the server more than
    // their JSON did.
    generateMask: (mask: Buffer) => void mask.fill(0),
    ...(params.ca !== undefined ? { ca: params.ca } : {}),
  });

  let welcomed = false;
  let upgradeStatus: number | undefined;
  let lastError: unknown;
  let fatal: ConnectionEnd | undefined;
  let lastSeen = Date.now();
  let heartbeat: NodeJS.Timeout | undefined;
  let welcomeTimer: NodeJS.Timeout | undefined;
  /** The server reads recording chunks as binary frames. */
  let binaryChunks = false;
  /** The server knows way `terminal` (an older one calls a terminal session `ssh`). */
  let terminalWay = false;
  /** The TCP (or TLS) socket under the WebSocket, once upgraded. */
  let rawSocket: Duplex | undefined;

  /** Holds the socket's writes for the tick, or a while for what the server need not hurry. */
  const hold = (canWait: boolean): void => {
    if (!rawSocket) return;
    if (canWait) corkAWhile(rawSocket, CAN_WAIT_MS);
    else corkForTick(rawSocket);
  };

  const send = (message: GatewayMessage): boolean => {
    if (ws.readyState !== WebSocket.OPEN) return false;
    const checked = GatewayMessageSchema.safeParse(message);
    if (!checked.success) {
      logger.error({ type: message.type }, 'refusing to send a message the contract rejects');
      return false;
    }
    hold(message.type === 'session_end');
    const data =
      checked.data.type === 'session_start' && checked.data.way === 'terminal' && !terminalWay
        ? { ...checked.data, way: 'ssh' }
        : checked.data;
    ws.send(JSON.stringify(data));
    return true;
  };

  const sendChunk = (chunk: RecordingChunk): boolean => {
    if (!binaryChunks) {
      const { connection_id, offset, data } = chunk;
      const base64 = Buffer.from(data.buffer, data.byteOffset, data.length).toString('base64');
      return send({
        v: CONTROL_PROTOCOL,
        type: 'recording_chunk',
        connection_id,
        offset,
        data: base64,
      });
    }
    if (ws.readyState !== WebSocket.OPEN) return false;
    // A short chunk is a session's last (or a live one's, the next a second away): the session
    // is over, nobody waits on it. A full one has more behind it, which waits for its ack.
    hold(chunk.data.length < RECORDING_CHUNK_BYTES);
    ws.send(encodeRecordingFrame(chunk, CONTROL_PROTOCOL), { binary: true });
    return true;
  };

  const startHeartbeat = (seconds: number): void => {
    const period = heartbeatMs(seconds);
    // The server may go silent without closing (a dead NAT entry, a frozen host): after the
    // contract's grace, scaled to the period the server chose, the socket is given up.
    const grace = (period * HEARTBEAT_GRACE_SECONDS) / HEARTBEAT_SECONDS;
    clearInterval(heartbeat);
    heartbeat = setInterval(() => {
      if (Date.now() - lastSeen > grace) {
        logger.warn({ silent_ms: Date.now() - lastSeen }, 'server went silent; reconnecting');
        ws.terminate();
        return;
      }
      send({ v: CONTROL_PROTOCOL, type: 'heartbeat' });
      ws.ping();
    }, period);
  };

  const handlers: {
    [T in ServerMessage['type']]: (m: Extract<ServerMessage, { type: T }>) => void;
  } = {
    welcome: (message) => {
      clearTimeout(welcomeTimer);
      welcomed = true;
      binaryChunks = message.binary_chunks === true;
      terminalWay = message.terminal_way === true;
      startHeartbeat(message.heartbeat_seconds);
      params.onWelcome(message);
    },
    update_required: (message) => {
      fatal = {
        kind: 'update_required',
        latestVersion: message.latest_version,
        minProtocol: message.min_protocol,
      };
      ws.close(1000, 'update required');
    },
    task: (message) => params.onTask(message),
    code_resolved: (message) => params.onReply(message),
    session_credential_result: (message) => params.onReply(message),
    session_started: (message) => params.onReply(message),
    session_cut: (message) => params.onCut(message),
    recording_ack: (message) => params.onRecordingAck(message),
  };

  const onMessage = (data: WebSocket.RawData, isBinary: boolean): void => {
    lastSeen = Date.now();
    let json: unknown;
    try {
      if (isBinary) throw new TypeError('binary frame');
      json = JSON.parse(data.toString());
    } catch {
      logger.warn({ reason: 'not_json' }, 'dropped a control message');
      return;
    }
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((i) => ({ path: i.path.join('.'), code: i.code }));
      logger.warn({ reason: 'schema', issues }, 'dropped a control message');
      return;
    }
    const message = parsed.data;
    (handlers[message.type] as (m: ServerMessage) => void)(message);
  };

  ws.on('open', () => {
    logger.info({ url: params.url.origin }, 'control channel open; saying hello');
    lastSeen = Date.now();
    send(params.hello);
    welcomeTimer = setTimeout(() => {
      logger.warn('no welcome from the server in time; reconnecting');
      ws.terminate();
    }, params.welcomeTimeoutMs);
  });
  ws.on('upgrade', (res) => {
    rawSocket = res.socket;
  });
  ws.on('message', onMessage);
  ws.on('pong', () => {
    lastSeen = Date.now();
  });
  ws.on('unexpected-response', (_req, res) => {
    upgradeStatus = res.statusCode;
    res.resume();
    ws.terminate();
  });
  ws.on('error', (err) => {
    lastError = err;
  });

  const ended = new Promise<ConnectionEnd>((resolve) => {
    ws.on('close', (code) => {
      clearInterval(heartbeat);
      clearTimeout(welcomeTimer);
      if (fatal) resolve(fatal);
      else if (CLOSE_KEY_REJECTED.has(code)) resolve({ kind: 'key_rejected', code });
      else if (code === CLOSE_UPDATE_REQUIRED) {
        // The update_required message normally comes first; the code alone means the same.
        resolve({ kind: 'update_required', latestVersion: '', minProtocol: 0 });
      } else if (upgradeStatus !== undefined && KEY_REJECTED_STATUSES.has(upgradeStatus)) {
        resolve({ kind: 'key_rejected', status: upgradeStatus });
      } else {
        resolve({ kind: 'closed', welcomed, code, status: upgradeStatus, error: lastError });
      }
    });
  });

  return {
    send,
    sendChunk,
    close: (code = 1000, reason = '') => {
      if (ws.readyState === WebSocket.CONNECTING) {
        ws.terminate();
        return;
      }
      ws.close(code, reason);
      // A server that does not answer the close frame is not waited for (ws would wait 30 s).
      setTimeout(() => ws.terminate(), 2000).unref();
    },
    ended,
  };
}
