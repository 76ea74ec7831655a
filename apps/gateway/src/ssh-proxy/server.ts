/**
 * The gateway's SSH proxy (default port 9998): `ssh -p 9998 CODE@gateway` reaches the code's
 * server as its login user. Authentication is in auth.ts, the channel bridge in channels.ts.
 * Port forwarding of every kind is refused: the gateway carries logged sessions, not tunnels.
 * A jump (`ssh -J CODE@gateway NAME`) is answered by the gateway itself (jump.ts).
 * The cluster's log filters apply to what the session stores: its recording, the command of
 * an alarm and the name in a file-log entry (a match stores a placeholder).
 */
import { LOG_FILTER_HIDDEN } from '@portcullis/contract';
import type { Connection, Server, ServerChannel } from 'ssh2';
import ssh2 from './ssh2';
import type { SessionControlApi } from '../control/session-requests';
import type { Logger } from '../core/logger';
import { sessionEndedText } from '../core/session-ended';
import { hideMatch, type Recordings, type SessionRecorder } from '../recording';
import { createAuthenticator, type AcceptedSession } from './auth';
import { disconnectWith, DISCONNECT_BY_APPLICATION, refuseChannelOpen } from './banner';
import { bridgeSession, type BridgeEvents } from './channels';
import { shareTheLoop, socketOf } from './fair-read';
import { loadHostKey } from './host-key';
import { createJumpServer, isJump, MAX_JUMPS } from './jump';
import { scrubCommandSecrets } from './security-mode/command-secrets';

export interface SshSessionOptions {
  /** Where the host key is kept. */
  dataDir: string;
  control: SessionControlApi;
  logger: Logger;
  /** Records terminal channels (asciicast v2); without it nothing is recorded. */
  recordings?: Pick<Recordings, 'open'>;
  /** A client connection closed (a worker reports its load at once, see pool/worker.ts). */
  onSessionClosed?: () => void;
  /** How long a connection may take to log in (default {@link LOGIN_GRACE_MS}). */
  loginGraceMs?: number;
}

/**
 * As sshd's LoginGraceTime (its default): a connection that has not logged in by then is closed.
 * ssh2 has no such limit: a scanner's half-done handshake or a prompt nobody answers held its
 * socket for good, and enough of them would use up the gateway's file descriptors.
 */
export const LOGIN_GRACE_MS = 120_000;

/** What a forward's refusal says (CHANNEL_OPEN_FAILURE, administratively prohibited). */
/** Between a cut's line on the channels and the disconnect (see endWith). */
const LAST_WORDS_MS = 100;
export const FORWARD_REFUSED = 'Portcullis: port forwarding is not allowed through the gateway';

export interface SshProxyOptions extends SshSessionOptions {
  port: number;
  /** Address to listen on (default all addresses). */
  host?: string;
}

/** The SSH sessions of one process, fed connections by a listener or by the worker pool. */
export interface SshSessionServer {
  readonly server: Server;
  /** Open client connections. */
  sessions(): number;
  /**
   * Bytes the client connections carried since the last call: those still open, and those
   * that closed meanwhile (whose share of the busy time is not load any more).
   */
  traffic(): SessionTraffic;
  /** Ends every open session (each stops listening for its cut as it closes). */
  close(): void;
}

export interface SessionTraffic {
  open: number;
  closed: number;
}

export interface SshProxy {
  readonly port: number;
  /** Stops listening and ends every open session. */
  close(): Promise<void>;
}

export function createSshSessionServer(options: SshSessionOptions): SshSessionServer {
  const { control, logger } = options;
  /** Open client connections, with their socket's byte count at the last traffic(). */
  const clients = new Map<Connection, number>();
  let closedBytes = 0;
  const bytesOf = (client: Connection): number => {
    const socket = socketOf(client);
    return socket ? socket.bytesRead + socket.bytesWritten : 0;
  };

  const hostKey = loadHostKey(options.dataDir);
  const loginGraceMs = options.loginGraceMs ?? LOGIN_GRACE_MS;
  const jumps = createJumpServer(hostKey, loginGraceMs, logger);
  const server = new ssh2.Server({ hostKeys: [hostKey], ident: 'Portcullis' }, (client, info) => {
    clients.set(client, bytesOf(client));
    const grace = setTimeout(() => {
      logger.info({ ip: info.ip }, 'ssh login took too long; closing the connection');
      socketOf(client)?.destroy();
    }, loginGraceMs);
    client.once('ready', () => clearTimeout(grace));
    client.once('close', () => clearTimeout(grace));
    // Interactive traffic: a keystroke goes out at once, not behind Nagle (ssh2 leaves it on).
    // The server side's connection has setNoDelay as the client does; @types/ssh2 omits it.
    (client as Connection & { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    let session: AcceptedSession | undefined;
    let stopCut: (() => void) | undefined;
    // Opened lazily, so an SFTP-only session leaves no empty file.
    let recorder: SessionRecorder | undefined;
    /** The client's open session channels: a cut says why on each before hanging up. */
    const channels = new Set<ServerChannel>();
    /**
     * Ends the session telling the member why: a line on each open channel's stderr (the
     * terminal shows it), and the same text as the disconnect's description. The disconnect
     * waits a moment: OpenSSH exits on a disconnect without writing out channel data it read
     * in the same go, so the line was lost whenever the two arrived together.
     */
    let ending = false;
    const endWith = (text: string): void => {
      if (ending) return;
      ending = true;
      for (const channel of channels) channel.stderr.write(`\r\n${text}\r\n`);
      const disconnect = () => disconnectWith(client, DISCONNECT_BY_APPLICATION, text, logger);
      if (channels.size === 0) disconnect();
      else setTimeout(disconnect, LAST_WORDS_MS);
    };
    const onAuthenticate = createAuthenticator({
      client,
      clientIp: info.ip,
      control,
      logger,
      onAccepted: (accepted) => {
        session = accepted;
        // A cut that came before this (with the start's answer, or ahead of it) ends it now.
        stopCut = control.onCut(accepted.connectionId, (reason) => {
          logger.info(
            { connection_id: accepted.connectionId, reason },
            'session cut by the server',
          );
          endWith(sessionEndedText(reason));
        });
        accepted.upstream.on('close', () => client.end());
        accepted.upstream.on('error', (err) =>
          logger.info(
            { connection_id: accepted.connectionId, err: err.message },
            'the target connection failed; ending the session',
          ),
        );
      },
    });
    // Opened at the first terminal channel; a spool that fails ends the session.
    const recordings = options.recordings;
    const onRecord: NonNullable<BridgeEvents['onRecord']> = (size, tapOptions) => {
      recorder ??= recordings!.open(
        session!.connectionId,
        () => {
          logger.warn({ connection_id: session?.connectionId }, 'recording failed; ending session');
          endWith(sessionEndedText('the recording could not be written'));
        },
        session!.logFilter,
      );
      return recorder.channel(size, tapOptions);
    };
    client.on('authentication', (ctx) => {
      onAuthenticate(ctx).catch((err: unknown) => {
        logger.error({ err }, 'ssh authentication failed unexpectedly');
        client.end();
      });
    });
    /** Serves the session channels of this connection, or of one inside it (a jump). */
    const serve = (connection: Connection): void => {
      const accepted = session;
      if (!accepted) return void connection.end();
      connection.on('session', (accept) =>
        bridgeSession(accept(), accepted.upstream, logger, {
          onStart: (kind) =>
            logger.info({ connection_id: accepted.connectionId, kind }, 'ssh channel opened'),
          ...(recordings && { onRecord }),
          onChannel: (channel) => {
            channels.add(channel);
            channel.once('close', () => channels.delete(channel));
          },
          ...(accepted.policy && { policy: accepted.policy }),
          onAlarm: (action, command, rule) =>
            control.alarm(
              accepted.connectionId,
              action,
              // The log filter reads what was typed; a password typed as an argument is
              // masked (the recording keeps it as typed).
              scrubCommandSecrets(
                hideMatch(accepted.logFilter, command, LOG_FILTER_HIDDEN.command),
              ),
              rule,
            ),
          onFile: (way, op, filename) =>
            control.fileTransfer(
              accepted.connectionId,
              way,
              op,
              hideMatch(accepted.logFilter, filename, LOG_FILTER_HIDDEN.file),
            ),
        }),
      );
    };
    /**
     * Port forwarding, every kind: refused, saying so (`ssh -L`, `-R`, `-D`). With `jump`, a
     * channel that is a jump (jump.ts) is answered instead, up to MAX_JUMPS at once.
     */
    let openJumps = 0;
    const refuseForwards = (
      connection: Connection,
      jump?: (channel: ServerChannel, outer: AcceptedSession) => void,
    ): void => {
      connection.on('tcpip', (accept, reject, info) => {
        if (jump && session && isJump(info, session) && openJumps < MAX_JUMPS) {
          const channel = accept();
          openJumps++;
          channel.once('close', () => openJumps--);
          logger.info(
            { connection_id: session.connectionId, port: info.destPort },
            'ssh jump: answering the SSH inside the channel',
          );
          return jump(channel, session);
        }
        refuseChannelOpen(connection, reject, FORWARD_REFUSED, logger);
      });
      connection.on('openssh.streamlocal', (_accept, reject) =>
        refuseChannelOpen(connection, reject, FORWARD_REFUSED, logger),
      );
      connection.on('request', (_accept, reject, name) => {
        logger.info({ connection_id: session?.connectionId, request: name }, 'refused a forward');
        reject?.();
      });
    };
    client.on('ready', () => {
      if (!session) return void client.end();
      const socket = socketOf(client);
      if (socket) shareTheLoop(socket);
      serve(client);
    });
    // A jump's inner connection gets sessions only: no forwards, no jump within the jump.
    refuseForwards(client, (channel, outer) =>
      jumps.answer(channel, outer, (inner) => {
        refuseForwards(inner);
        serve(inner);
      }),
    );
    client.on('error', (err) => logger.debug({ err: err.message }, 'ssh client error'));
    client.on('close', () => {
      closedBytes += bytesOf(client) - (clients.get(client) ?? 0);
      clients.delete(client);
      options.onSessionClosed?.();
      if (!session) return;
      stopCut?.();
      session.upstream.end();
      void recorder?.close();
      control.end(session.connectionId);
      logger.info({ connection_id: session.connectionId }, 'ssh session closed');
    });
  });

  return {
    server,
    sessions: () => clients.size,
    traffic: () => {
      let open = 0;
      for (const [client, before] of clients) {
        const now = bytesOf(client);
        open += now - before;
        clients.set(client, now);
      }
      const closed = closedBytes;
      closedBytes = 0;
      return { open, closed };
    },
    close: () => {
      for (const client of clients.keys()) client.end();
    },
  };
}

export async function startSshProxy(options: SshProxyOptions): Promise<SshProxy> {
  const { logger } = options;
  const sessions = createSshSessionServer(options);
  const { server } = sessions;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port }, 'ssh proxy listening');

  return {
    port,
    close: async () => {
      sessions.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
