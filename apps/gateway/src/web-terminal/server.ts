/**
 * The gateway's web terminal (default port 8889): a WebSocket server at WEB_TERMINAL_PATH for
 * the console's xterm.js terminal. Each socket is one session (session.ts); the server's
 * session_cut ends it. Plain ws: TLS is for a reverse proxy in front of it, for now.
 */
import type { IncomingMessage } from 'node:http';
import { WEB_TERMINAL_PATH } from '@portcullis/contract';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SessionControlApi } from '../control/session-requests';
import type { Logger } from '../core/logger';
import type { Recordings } from '../recording';
import { handleTerminal } from './session';

/** Input frames are keystrokes and pastes; nothing legitimate comes near this. */
const MAX_FRAME_BYTES = 64 * 1024;
const CLOSE_GOING_AWAY = 1001;

export interface WebTerminalOptions {
  port: number;
  host?: string;
  control: SessionControlApi;
  logger: Logger;
  recordings?: Recordings;
  /** How often each browser is pinged (default {@link HEARTBEAT_MS}). */
  heartbeatMs?: number;
}

/**
 * Each browser is pinged this often, and one that has not answered the last ping is cut off: a
 * laptop that sleeps or loses its network sends no close, and its terminal (online, with the
 * target's shell open) would otherwise wait for ever. Browsers answer pings by themselves.
 */
export const HEARTBEAT_MS = 30_000;

export interface WebTerminal {
  readonly port: number;
  /** Stops listening and ends every open terminal. */
  close(): Promise<void>;
}

function clientIp(request: IncomingMessage): string {
  const address = request.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export async function startWebTerminal(options: WebTerminalOptions): Promise<WebTerminal> {
  const { control, logger } = options;
  const server = new WebSocketServer({
    port: options.port,
    host: options.host ?? '0.0.0.0',
    path: WEB_TERMINAL_PATH,
    maxPayload: MAX_FRAME_BYTES,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => logger.error({ err }, 'web terminal server error'));
  const answered = new WeakMap<WebSocket, boolean>();
  const heartbeat = setInterval(() => {
    for (const ws of server.clients) {
      if (answered.get(ws) === false) {
        ws.terminate();
        continue;
      }
      answered.set(ws, false);
      ws.ping();
    }
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  server.on('connection', (ws, request) => {
    ws.on('pong', () => answered.set(ws, true));
    handleTerminal(ws, clientIp(request), {
      control,
      logger,
      ...(options.recordings && { recordings: options.recordings }),
      // A cut that came before the terminal registered (with the start's answer) ends it now.
      register: (connectionId, cut) =>
        control.onCut(connectionId, (reason, code) => {
          logger.info({ connection_id: connectionId, reason }, 'web terminal cut by the server');
          cut(reason, code);
        }),
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port }, 'web terminal listening');
  return {
    port,
    close: async () => {
      clearInterval(heartbeat);
      for (const ws of server.clients) ws.close(CLOSE_GOING_AWAY, 'GatewayStopping');
      // A browser that never answers the close frame must not hold the gateway's exit.
      const force = setTimeout(() => {
        for (const ws of server.clients) ws.terminate();
      }, 1000);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(force);
    },
  };
}
