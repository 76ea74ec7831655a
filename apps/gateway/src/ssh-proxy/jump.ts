/**
 * The gateway as a jump host: `ssh -J CODE@gateway:9998 NAME` and
 * `ProxyCommand ssh -p 9998 -W %h:%p CODE@gateway` ask the code's connection for a
 * direct-tcpip channel to NAME and run the member's SSH inside it. The gateway forwards that
 * channel nowhere: it answers the SSH inside itself, with its own host key, and serves its
 * channels as the outer connection's, on the code's server with the code's login user, logged
 * and recorded as any session.
 *
 * The inner login asks again for what the outer one proved (the same key, or the code typed
 * again): a channel is no proof of who is at its far end. `ssh -L 2222:x:22 CODE@gateway` is
 * one too, and without this anyone able to reach the member's port 2222 would have had the
 * member's session for nothing. A temporary authorization (its one-time password cannot be
 * asked twice) does not jump.
 *
 * Only a channel to port 22 or to the server's own port is answered this way (the ports a
 * ProxyJump or `-W` names); any other (`ssh -L 8080:db:5432`) is a tunnel and stays refused.
 * At most {@link MAX_JUMPS} at once per connection, each logged in within the login grace.
 */
import type { Socket } from 'node:net';
import type { AuthContext, Connection, ServerChannel, TcpipRequestInfo } from 'ssh2';
import ssh2 from './ssh2';
import type { Logger } from '../core/logger';
import { offeredKey, sameText, type AcceptedSession, type LoginProof } from './auth';
import { socketOf } from './fair-read';

/** Serves the session channels of a connection (the outer one, or one inside it). */
export type ServeChannels = (connection: Connection) => void;

/** The default SSH port: a ProxyJump to a name without a port asks for it. */
const SSH_PORT = 22;
/** Jumps open at once on one connection (sshd's MaxSessions default). */
export const MAX_JUMPS = 10;
/** Failed inner logins before the jump's channel is closed. */
const MAX_TRIES = 3;

/** Whether a direct-tcpip request is a jump (the member's SSH) rather than a tunnel. */
export function isJump(
  info: Pick<TcpipRequestInfo, 'destPort'>,
  session: AcceptedSession,
): boolean {
  if (session.proof.kind === 'none') return false;
  return info.destPort === SSH_PORT || info.destPort === session.resolved.resource.port;
}

/**
 * One inner login attempt against the outer login's proof: the same key (asked about, or
 * signed), or the code as a password. True when it is accepted.
 */
function proves(ctx: AuthContext, proof: LoginProof): boolean {
  if (proof.kind === 'key' && ctx.method === 'publickey')
    return offeredKey(ctx)?.publicKey === proof.publicKey;
  if (proof.kind === 'code' && ctx.method === 'password') return sameText(ctx.password, proof.code);
  return false;
}

export interface JumpServer {
  /** Answers the SSH inside `channel` for the session `outer`, serving its channels with `serve`. */
  answer(channel: ServerChannel, outer: AcceptedSession, serve: ServeChannels): void;
}

/**
 * One SSH server, without a listener, for the connections that arrive inside jump channels;
 * each is served by its outer connection's own `serve` (found by its channel).
 */
export function createJumpServer(
  hostKey: Buffer | string,
  loginGraceMs: number,
  logger: Logger,
): JumpServer {
  const owners = new WeakMap<object, { outer: AcceptedSession; serve: ServeChannels }>();
  const server = new ssh2.Server({ hostKeys: [hostKey], ident: 'Portcullis' }, (inner) => {
    inner.on('error', (err) => logger.debug({ err: err.message }, 'ssh jump client error'));
    const channel = socketOf(inner) as object | undefined;
    const owner = channel && owners.get(channel);
    if (!owner) return void inner.end();
    const { outer, serve } = owner;
    const methods: AuthContext['method'][] =
      outer.proof.kind === 'key' ? ['publickey'] : ['keyboard-interactive', 'password'];
    const grace = setTimeout(() => inner.end(), loginGraceMs);
    inner.once('close', () => clearTimeout(grace));
    let failures = 0;
    const fail = (ctx: AuthContext): void => {
      if (ctx.method !== 'none' && ++failures >= MAX_TRIES) {
        logger.warn({ connection_id: outer.connectionId }, 'ssh jump: inner login failed');
        return void inner.end();
      }
      ctx.reject(methods);
    };
    inner.on('authentication', (ctx) => {
      if (ctx.method === 'keyboard-interactive' && outer.proof.kind === 'code') {
        const code = outer.proof.code;
        return ctx.prompt([{ prompt: 'Portcullis code: ', echo: false }], 'Portcullis', (a) =>
          !(a instanceof Error) && sameText((a[0] ?? '').trim(), code) ? ctx.accept() : fail(ctx),
        );
      }
      if (!proves(ctx, outer.proof)) return fail(ctx);
      ctx.accept();
    });
    inner.on('ready', () => {
      clearTimeout(grace);
      serve(inner);
    });
  });
  return {
    answer(channel, outer, serve) {
      owners.set(channel, { outer, serve });
      // ssh2 takes any duplex stream here ("as though it were a TCP socket connection"; it
      // calls setNoDelay only if there is one); @types/ssh2 asks for a net.Socket.
      server.injectSocket(channel as unknown as Socket);
    },
  };
}
