/**
 * The gateway as a jump host: `ssh -J CODE@gateway:9998 NAME` and
 * `ProxyCommand ssh -p 9998 -W %h:%p CODE@gateway` ask the code's connection for a
 * direct-tcpip channel to NAME and run the member's SSH inside it. The gateway forwards that
 * channel nowhere: it answers the SSH inside itself, with its own host key, and serves its
 * channels as the outer connection's, on the code's server with the code's login user, logged
 * and recorded as any session. The member is already authenticated (by the code, on the
 * connection the channel came through), so the inner login takes any method, `none` included.
 *
 * Only a channel to port 22 or to the server's own port is answered this way (the ports a
 * ProxyJump or `-W` names); any other (`ssh -L 8080:db:5432`) is a tunnel and stays refused.
 */
import type { Socket } from 'node:net';
import type { Connection, ServerChannel, TcpipRequestInfo } from 'ssh2';
import ssh2 from './ssh2';
import type { Logger } from '../core/logger';
import type { AcceptedSession } from './auth';
import { socketOf } from './fair-read';

/** Serves the session channels of a connection (the outer one, or one inside it). */
export type ServeChannels = (connection: Connection) => void;

/** The default SSH port: a ProxyJump to a name without a port asks for it. */
const SSH_PORT = 22;

/** Whether a direct-tcpip request is a jump (the member's SSH) rather than a tunnel. */
export function isJump(
  info: Pick<TcpipRequestInfo, 'destPort'>,
  session: AcceptedSession,
): boolean {
  return info.destPort === SSH_PORT || info.destPort === session.resolved.resource.port;
}

/**
 * One SSH server, without a listener, for the connections that arrive inside jump channels;
 * each is served by the outer connection's own `serve` (found by its channel).
 */
export function createJumpServer(hostKey: Buffer | string, logger: Logger) {
  const owners = new WeakMap<object, ServeChannels>();
  const server = new ssh2.Server({ hostKeys: [hostKey], ident: 'Portcullis' }, (inner) => {
    const channel = socketOf(inner) as object | undefined;
    const serve = channel && owners.get(channel);
    if (!serve) return void inner.end();
    inner.on('authentication', (ctx) => ctx.accept());
    inner.on('ready', () => serve(inner));
    inner.on('error', (err) => logger.debug({ err: err.message }, 'ssh jump client error'));
  });
  return {
    /** Answers the SSH inside `channel`, serving its session channels with `serve`. */
    answer(channel: ServerChannel, serve: ServeChannels): void {
      owners.set(channel, serve);
      // ssh2 takes any duplex stream here ("as though it were a TCP socket connection"; it
      // calls setNoDelay only if there is one); @types/ssh2 asks for a net.Socket.
      server.injectSocket(channel as unknown as Socket);
    },
  };
}
