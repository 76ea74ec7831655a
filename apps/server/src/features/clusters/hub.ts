/**
 * The gateway hub: the server's end of the control channel (contract control.ts). A gateway
 * dials in with its cluster key; the hub checks the key, records the connection as an agent of
 * that cluster, keeps its heartbeat, hands it tasks and stores their results.
 *
 * Close codes: 4401 bad or missing key, 4400 unreadable handshake, 4426 protocol too old.
 * Limits: this hub knows the sockets of this server replica only; with several replicas,
 * tasks for a gateway connected elsewhere travel over Redis (a later step).
 */
import crypto from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
// The websocket route option and handler signature come from this plugin's types.
import type {} from '@fastify/websocket';
import {
  CONTROL_PATH,
  CONTROL_PROTOCOL,
  CONTROL_PROTOCOL_MIN,
  decodeRecordingFrame,
  GatewayMessageSchema,
  HEARTBEAT_SECONDS,
  type ErrorCode,
  type ServerMessage,
  type Task,
  type TaskResult,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { sha256Hex } from '../../lib/crypto';
import { corkAWhile, corkForTick } from '../../lib/tick-cork';
import { nowSeconds } from '../../lib/time';
import {
  createSessionControl,
  isSessionMessage,
  isWaitedOn,
  type GatewayLink,
} from '../sessions/control';
import { PUBLISHED_GATEWAY_VERSION } from './gateway-version';

export const CLOSE_BAD_KEY = 4401;
export const CLOSE_BAD_HELLO = 4400;
export const CLOSE_UPDATE_REQUIRED = 4426;
const HELLO_TIMEOUT_MS = 10_000;

interface Connection {
  networkId: number;
  agentId: number;
  socket: WebSocket;
  /** The same connection as the sessions feature sees it. */
  link: GatewayLink;
}

export interface GatewayHub {
  attach(app: FastifyInstance): void;
  /** Sends a task to a connected gateway of the cluster; AgentError when none is connected. */
  dispatch(companyId: number, networkId: number, task: Task, subjectId?: number): Promise<string>;
  connectedCount(networkId: number): number;
  /** Tells the gateway carrying an online connection to cut it; false when none here has it. */
  cutSession(connectionId: number, reason?: string, reasonCode?: ErrorCode): boolean;
  /** Disconnects every gateway of the cluster (after its key changed, they cannot come back). */
  detach(networkId: number): void;
  /** Closes every gateway connection and waits for their bookkeeping to finish. */
  close(): Promise<void>;
}

/**
 * Resolves at the event loop's next turn. A gateway's reports (a session's end, an alarm, a
 * file-log entry, a recording chunk) often come in the same read as a question it waits on (a
 * code to check, for the next client): run after it, the answer goes out first, and a client
 * that connects per query does not wait for the last one's bookkeeping.
 */
const afterAnswers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How long a message the gateway does not wait on may wait for company. */
const CAN_WAIT_MS = 20;

function send(socket: WebSocket, message: ServerMessage, raw?: Duplex, canWait = false): void {
  if (raw) {
    if (canWait) corkAWhile(raw, CAN_WAIT_MS);
    else corkForTick(raw);
  }
  socket.send(JSON.stringify(message));
}

/** A binary message's bytes as one Buffer, whatever form ws handed them in. */
function frameBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

function bearer(request: FastifyRequest): string | null {
  const header = String(request.headers.authorization ?? '');
  const match = /^Bearer\s+(\S+)$/.exec(header);
  return match?.[1] ?? null;
}

export function createGatewayHub(getCtx: () => AppContext): GatewayHub {
  const connections = new Map<number, Set<Connection>>();
  /** Every socket's message chain, so closing can wait for the last database write. */
  const chains = new Set<Promise<void>>();
  /** Every open socket, greeted or not. */
  const sockets = new Set<WebSocket>();
  let ctx: AppContext;
  const sessions = createSessionControl(() => ctx);

  async function onResult(
    conn: Connection,
    taskId: string,
    result: TaskResult | undefined,
    error: string | undefined,
  ) {
    await ctx.db
      .updateTable('task')
      .set({
        status: error || !result ? 'failed' : 'done',
        result: JSON.stringify(error || !result ? { error: error ?? 'no result' } : result),
        finished_at: nowSeconds(),
      })
      .where('id', '=', taskId)
      .where('network_id', '=', conn.networkId)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Registers the control channel's WebSocket route (after @fastify/websocket). */
  function attach(app: FastifyInstance): void {
    ctx = getCtx();
    app.get(CONTROL_PATH, { websocket: true }, (socket, request) => {
      let conn: Connection | null = null;
      sockets.add(socket);
      /** Messages (text) and recording frames (binary) that came before the key was checked. */
      const queue: (string | Buffer)[] = [];
      let ready = false;
      const helloTimer = setTimeout(
        () => socket.close(CLOSE_BAD_HELLO, 'no hello'),
        HELLO_TIMEOUT_MS,
      );
      // A gateway that has said nothing (no heartbeat, message or pong) for the configured time
      // (GATEWAY_SILENCE_SECONDS) is cut off, as the gateway gives up on a silent server: a
      // half-open socket (a NAT entry dropped, a host powered off) kept its sessions online,
      // its cuts "sent" into nothing and tasks dispatched to it.
      const silenceMs = ctx.config.gatewaySilenceSeconds * 1000;
      let heardAt = Date.now();
      const heard = (): void => void (heardAt = Date.now());
      socket.on('pong', heard);
      const watchdog = setInterval(
        () => {
          if (Date.now() - heardAt <= silenceMs) return void socket.ping();
          request.log.warn({ networkId: conn?.networkId }, 'gateway silent; cutting it off');
          socket.terminate();
        },
        Math.max(50, silenceMs / 3),
      );
      watchdog.unref();

      /** A binary frame: a recording chunk (contract recording-frame.ts), the only kind. */
      const handleFrame = (frame: Buffer): void => {
        const chunk = conn ? decodeRecordingFrame(frame) : undefined;
        if (!conn || !chunk) {
          request.log.warn({ networkId: conn?.networkId }, 'unreadable gateway frame');
          if (!conn) socket.close(CLOSE_BAD_HELLO, 'unreadable hello');
          return;
        }
        // Off the ordered chain, as the session messages below, and after their answers.
        const { link } = conn;
        const work = afterAnswers()
          .then(() => sessions.onRecordingChunk(link, chunk))
          .catch((error: unknown) => request.log.error({ err: error }, 'recording chunk failed'));
        chains.add(work);
        void work.finally(() => chains.delete(work));
      };

      const handle = async (raw: string | Buffer) => {
        if (typeof raw !== 'string') return handleFrame(raw);
        let parsed;
        try {
          parsed = GatewayMessageSchema.safeParse(JSON.parse(raw));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) {
          request.log.warn({ networkId: conn?.networkId }, 'unreadable gateway message');
          if (!conn) socket.close(CLOSE_BAD_HELLO, 'unreadable hello');
          return;
        }
        const message = parsed.data;
        if (!conn) {
          if (message.type !== 'hello') return void socket.close(CLOSE_BAD_HELLO, 'hello expected');
          clearTimeout(helloTimer);
          if (message.v < CONTROL_PROTOCOL_MIN) {
            send(socket, {
              v: CONTROL_PROTOCOL,
              type: 'update_required',
              min_protocol: CONTROL_PROTOCOL_MIN,
              latest_version: PUBLISHED_GATEWAY_VERSION,
            });
            return void socket.close(CLOSE_UPDATE_REQUIRED, 'update required');
          }
          conn = await register(message);
          return;
        }
        if (message.type === 'heartbeat') {
          await ctx.db
            .updateTable('agent')
            .set({ last_seen_at: nowSeconds() })
            .where('id', '=', conn.agentId)
            .execute();
        } else if (message.type === 'task_result') {
          await onResult(conn, message.task_id, message.result, message.error);
        } else if (isSessionMessage(message)) {
          // Not on the ordered chain: a slow check (a temporary password's hash) must not hold
          // up heartbeats or other sessions. close() still waits for it. A report waits for
          // the answers read with it (afterAnswers).
          const { link } = conn;
          const run = (): Promise<void> => sessions.onMessage(link, message);
          const work = (isWaitedOn(message) ? run() : afterAnswers().then(run)).catch(
            (error: unknown) => request.log.error({ err: error }, 'session message failed'),
          );
          chains.add(work);
          void work.finally(() => chains.delete(work));
        }
      };

      let networkId: number | null = null;
      const register = async (
        hello: Extract<ReturnType<typeof GatewayMessageSchema.parse>, { type: 'hello' }>,
      ) => {
        const now = nowSeconds();
        const agent = await ctx.db
          .insertInto('agent')
          .values({
            network_id: networkId!,
            instance: crypto.randomUUID(),
            version: hello.version,
            host: hello.host,
            ports: JSON.stringify(hello.ports),
            features: JSON.stringify(hello.features),
            remote_ip: request.ip,
            connected_at: now,
            last_seen_at: now,
            disconnected_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const c: Connection = {
          networkId: networkId!,
          agentId: agent.id,
          socket,
          link: {
            networkId: networkId!,
            agentId: agent.id,
            features: hello.features,
            send: (message, canWait) => {
              if (socket.readyState === socket.OPEN) {
                send(socket, message, request.raw.socket, canWait);
              }
            },
            log: request.log,
          },
        };
        let set = connections.get(c.networkId);
        if (!set) connections.set(c.networkId, (set = new Set()));
        set.add(c);
        send(socket, {
          v: CONTROL_PROTOCOL,
          type: 'welcome',
          cluster_id: c.networkId,
          heartbeat_seconds: HEARTBEAT_SECONDS,
          latest_version: PUBLISHED_GATEWAY_VERSION,
          binary_chunks: true,
          terminal_way: true,
        });
        request.log.info({ networkId: c.networkId, version: hello.version }, 'gateway connected');
        return c;
      };

      // Messages are handled strictly in order; attach the listener before any await.
      let chain = Promise.resolve();
      // A message that fails (a database error, input the database refuses) is logged; unheard,
      // its rejection would end the server's process.
      const enqueue = (raw: string | Buffer): void => {
        chain = chain
          .then(() => handle(raw))
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'gateway message failed');
            // A hello that failed leaves a gateway nobody knows of: it is told to dial again.
            if (!conn) socket.close(1011, 'server error');
          });
      };
      socket.on('message', (data, isBinary) => {
        heard();
        const raw = isBinary ? frameBytes(data) : data.toString();
        if (!ready) return void queue.push(raw);
        enqueue(raw);
      });
      socket.on('close', () => {
        clearTimeout(helloTimer);
        clearInterval(watchdog);
        sockets.delete(socket);
        const last = (chain = chain
          .then(async () => {
            if (!conn) return;
            connections.get(conn.networkId)?.delete(conn);
            await sessions.onGatewayClosed(conn.link);
            await ctx.db
              .updateTable('agent')
              .set({ disconnected_at: nowSeconds() })
              .where('id', '=', conn.agentId)
              .execute();
            request.log.info({ networkId: conn.networkId }, 'gateway disconnected');
          })
          .catch((error: unknown) => request.log.error({ err: error }, 'gateway close failed')));
        chains.add(last);
        void last.finally(() => chains.delete(last));
      });

      const key = bearer(request);
      void (async () => {
        const network = key
          ? await ctx.db
              .selectFrom('network')
              .select('id')
              .where('key_hash', '=', sha256Hex(key))
              .executeTakeFirst()
          : undefined;
        if (!network) {
          socket.close(CLOSE_BAD_KEY, 'bad key');
          return;
        }
        networkId = network.id;
        ready = true;
        for (const raw of queue.splice(0)) enqueue(raw);
      })().catch((error: unknown) => {
        request.log.error({ err: error }, 'gateway handshake failed');
        socket.close(1011, 'server error');
      });
    });
  }

  return {
    attach,
    async dispatch(companyId, networkId, task, subjectId) {
      const live = [...(connections.get(networkId) ?? [])].filter(
        (c) => c.socket.readyState === c.socket.OPEN,
      );
      const target = live[Math.floor(Math.random() * live.length)];
      if (!target) throw new AppError('AgentError');
      const id = crypto.randomUUID();
      await ctx.db
        .insertInto('task')
        .values({
          id,
          company_id: companyId,
          network_id: networkId,
          kind: task.kind,
          subject_id: subjectId ?? null,
          status: 'pending',
          result: '',
          created_at: nowSeconds(),
          finished_at: null,
        })
        .execute();
      send(target.socket, { v: CONTROL_PROTOCOL, type: 'task', task_id: id, task });
      return id;
    },
    cutSession(connectionId, reason, reasonCode) {
      return sessions.cut(connectionId, reason, reasonCode);
    },
    connectedCount(networkId) {
      return connections.get(networkId)?.size ?? 0;
    },
    detach(networkId) {
      for (const c of connections.get(networkId) ?? []) c.socket.close(CLOSE_BAD_KEY, 'detached');
    },
    async close() {
      await Promise.all(
        [...sockets].map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === socket.CLOSED) return resolve();
              socket.once('close', () => resolve());
              socket.close(1001, 'server stopping');
            }),
        ),
      );
      await Promise.allSettled([...chains]);
    },
  };
}
