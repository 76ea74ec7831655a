/**
 * A small control-channel server for the gateway's tests: a peer that speaks the contract
 * (ServerMessageSchema out, GatewayMessageSchema in), not a copy of the real server. Each
 * accepted connection records what the gateway sent; the test decides what to answer.
 */
import http from 'node:http';
import type net from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  CONTROL_PATH,
  CONTROL_PROTOCOL,
  GatewayMessageSchema,
  ServerMessageSchema,
  type GatewayMessage,
  type ServerMessage,
} from '../control/protocol';
import { waitFor } from './net';
import { GATEWAY_VERSION } from '../core/version';

export interface PeerConnection {
  ws: WebSocket;
  authorization: string | undefined;
  messages: GatewayMessage[];
  /** Binary frames, as they came (recording chunks when welcome said binary_chunks). */
  frames: Buffer[];
  /** Frames that did not match GatewayMessageSchema (there should be none). */
  invalid: unknown[];
  closed: { code: number } | undefined;
  send(message: ServerMessage): void;
  /** Sends raw text, bypassing the schema (for malformed-message tests). */
  sendRaw(data: string | Buffer): void;
  welcome(heartbeatSeconds?: number): void;
  next<T extends GatewayMessage['type']>(
    type: T,
    ms?: number,
    where?: (m: Extract<GatewayMessage, { type: T }>) => boolean,
  ): Promise<Extract<GatewayMessage, { type: T }>>;
}

export interface ControlPeerOptions {
  /** The cluster key this peer accepts. */
  key: string;
  port?: number;
  /**
   * How a wrong key is refused: a 401 on upgrade, or an accepted socket closed with this code
   * (the server's hub uses 4401; default 'http401').
   */
  refuse?: 'http401' | number;
  /** Answer every upgrade with this HTTP status instead (e.g. 503 while "deploying"). */
  upgradeStatus?: number;
  /** Send welcome as soon as hello arrives (default true). */
  autoWelcome?: boolean;
  heartbeatSeconds?: number;
  /** Welcome says binary_chunks (as the server does); default false, an older server. */
  binaryChunks?: boolean;
  /** Welcome says terminal_way (as the server does); default false, an older server. */
  terminalWay?: boolean;
}

export interface ControlPeer {
  url: string;
  port: number;
  connections: PeerConnection[];
  options: ControlPeerOptions;
  nextConnection(ms?: number): Promise<PeerConnection>;
  close(): Promise<void>;
}

export async function startControlPeer(options: ControlPeerOptions): Promise<ControlPeer> {
  const connections: PeerConnection[] = [];
  let taken = 0;
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.on('upgrade', (req, socket, head) => {
    const reject = (status: number): void => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
    };
    if (options.upgradeStatus !== undefined) return reject(options.upgradeStatus);
    if (req.url !== CONTROL_PATH) return reject(404);
    const keyOk = req.headers.authorization === `Bearer ${options.key}`;
    const refuse = options.refuse ?? 'http401';
    if (!keyOk && refuse === 'http401') return reject(401);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: PeerConnection = {
        ws,
        authorization: req.headers.authorization,
        messages: [],
        frames: [],
        invalid: [],
        closed: undefined,
        send: (message) => ws.send(JSON.stringify(ServerMessageSchema.parse(message))),
        sendRaw: (data) => ws.send(data),
        welcome: (heartbeatSeconds = options.heartbeatSeconds ?? 10) =>
          conn.send({
            v: CONTROL_PROTOCOL,
            type: 'welcome',
            cluster_id: 7,
            heartbeat_seconds: heartbeatSeconds,
            latest_version: GATEWAY_VERSION,
            ...(options.binaryChunks && { binary_chunks: true }),
            ...(options.terminalWay && { terminal_way: true }),
          }),
        next: async (type, ms = 10_000, where = () => true) => {
          let found: GatewayMessage | undefined;
          await waitFor(
            () => {
              found = conn.messages.find((m) => m.type === type && where(m as never));
              return found !== undefined;
            },
            ms,
            `a ${type} message`,
          );
          conn.messages.splice(conn.messages.indexOf(found as GatewayMessage), 1);
          return found as never;
        },
      };
      connections.push(conn);
      ws.on('close', (code) => {
        conn.closed = { code };
      });
      if (!keyOk) {
        ws.close(refuse as number, 'bad key');
        return;
      }
      ws.on('message', (data, isBinary) => {
        if (isBinary) return void conn.frames.push(data as Buffer);
        let parsed: ReturnType<typeof GatewayMessageSchema.safeParse>;
        try {
          parsed = GatewayMessageSchema.safeParse(JSON.parse(data.toString()));
        } catch {
          conn.invalid.push(data.toString());
          return;
        }
        if (!parsed.success) {
          conn.invalid.push(data.toString());
          return;
        }
        conn.messages.push(parsed.data);
        if (parsed.data.type === 'hello' && options.autoWelcome !== false) conn.welcome();
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections,
    options,
    nextConnection: async (ms = 10_000) => {
      await waitFor(() => connections.length > taken, ms, 'a gateway connection');
      return connections[taken++] as PeerConnection;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        for (const socket of sockets) socket.destroy();
        wss.close();
        server.close(() => resolve());
      }),
  };
}
