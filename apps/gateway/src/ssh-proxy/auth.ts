/**
 * Client authentication at the SSH proxy. The user name is the code, and the client proves it
 * may use it in one of three ways:
 * - publickey: a key from the code owner's personal SSH keys (the gateway checks the signature,
 *   the server checks the key belongs to the owner and records its use);
 * - password: a temporary authorization's one-time password (the code is its user name);
 * - keyboard-interactive: the gateway asks for the code (any user name).
 * The server answers every check (fail closed). Once it says yes, the gateway fetches this
 * session's credential and logs in to the target before accepting the client, so a target that
 * refuses is reported to the client like any other refusal: as an SSH banner, and logged.
 */
import type { AuthContext, Client, Connection } from 'ssh2';
import ssh2 from 'ssh2';
import type { SessionControlApi, Outcome } from '../control/session-requests';
import type { ResolvedCode, SessionRefusal } from '../control/protocol';
import type { CommandPolicy } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import { logFilterMatcher, type LogFilterMatcher } from '../recording';
import { sendBanner } from './banner';
import { connectUpstream, upstreamReason } from './upstream';

const METHODS: AuthContext['method'][] = ['publickey', 'keyboard-interactive', 'password'];
/** Refusals after which another key or method may still succeed: the client may go on. */
const RETRYABLE = new Set(['AccountPubKeyNotFound', 'AccountPubKeyError', 'PasswordError']);

export interface AcceptedSession {
  resolved: ResolvedCode;
  upstream: Client;
  connectionId: number;
  username: string;
  /** The commands security mode acts on; undefined when the session is not in security mode. */
  policy?: CommandPolicy;
  /** The cluster's log filters, read at session start; undefined when it has none. */
  logFilter?: LogFilterMatcher;
}

type Resolved = Outcome<{ resolved: ResolvedCode; grant: string }>;

export interface AuthDeps {
  client: Connection;
  clientIp: string;
  control: SessionControlApi;
  logger: Logger;
  onAccepted(session: AcceptedSession): void;
}

/** Handles the client's 'authentication' events until one is accepted. */
export function createAuthenticator(deps: AuthDeps): (ctx: AuthContext) => Promise<void> {
  const { client, clientIp, control, logger } = deps;
  let done = false;

  const refuse = (ctx: AuthContext, refusal: SessionRefusal): void => {
    // The code (the user name) is a secret: never logged, not even masked beyond its length.
    logger.warn({ ip: clientIp, method: ctx.method, code: refusal.code }, 'ssh login refused');
    sendBanner(client, `Portcullis: ${refusal.message} (${refusal.code})`, logger);
    if (RETRYABLE.has(refusal.code)) return void ctx.reject(METHODS);
    ctx.reject([]);
    done = true;
    // Let the failure and banner reach the client, then hang up: retrying cannot help.
    setTimeout(() => client.end(), 50);
  };

  const resolve = async (ctx: AuthContext): Promise<Resolved | null> => {
    switch (ctx.method) {
      case 'publickey': {
        const key = ssh2.utils.parseKey(ctx.key.data);
        if (key instanceof Error || Array.isArray(key)) {
          ctx.reject(METHODS);
          return null;
        }
        // Without a signature the client only asks whether the key would do: it may sign.
        if (!ctx.signature || !ctx.blob) {
          ctx.accept();
          return null;
        }
        if (key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) {
          ctx.reject(METHODS);
          return null;
        }
        const publicKey = `${key.type} ${key.getPublicSSH().toString('base64')}`;
        return control.resolve({ code: ctx.username, clientIp, publicKey });
      }
      case 'password':
        return control.resolve({ code: ctx.username, clientIp, password: ctx.password });
      case 'keyboard-interactive': {
        const answers = await new Promise<string[]>((done) =>
          ctx.prompt([{ prompt: 'Portcullis code: ', echo: false }], 'Portcullis', '', done),
        );
        return control.resolve({ code: (answers[0] ?? '').trim(), clientIp });
      }
      default:
        ctx.reject(METHODS);
        return null;
    }
  };

  return async (ctx) => {
    if (done) return void ctx.reject([]);
    const outcome = await resolve(ctx);
    if (!outcome) return;
    if (!outcome.ok) return refuse(ctx, outcome.refusal);
    const { resolved, grant } = outcome;
    if (ctx.method === 'password' && resolved.type !== 'tmp_share') {
      // A code's own login is a key or the keyboard prompt; a password here means nothing.
      return refuse(ctx, {
        code: 'PasswordError',
        message: 'A code logs in with your SSH key or keyboard-interactive',
      });
    }
    const username = resolved.login_users[0];
    if (!username) return refuse(ctx, { code: 'TunnelNotFound', message: 'No login user' });
    const credential = await control.credential(grant, username);
    if (!credential.ok) return refuse(ctx, credential.refusal);
    let upstream: Client;
    try {
      upstream = await connectUpstream(credential.credential);
    } catch (err) {
      const reason = upstreamReason(err);
      logger.warn(
        { ip: clientIp, resource_id: resolved.resource.id, reason },
        'target login failed',
      );
      return refuse(ctx, { code: 'InvalidResource', message: `The resource refused: ${reason}` });
    }
    const started = await control.start(grant, clientIp, 'ssh');
    if (!started.ok) {
      upstream.end();
      return refuse(ctx, started.refusal);
    }
    done = true;
    logger.info(
      {
        ip: clientIp,
        method: ctx.method,
        connection_id: started.connectionId,
        tunnel_id: resolved.tunnel_id,
        resource_id: resolved.resource.id,
        username,
      },
      'ssh session opened',
    );
    deps.onAccepted({
      resolved,
      upstream,
      connectionId: started.connectionId,
      username,
      ...(started.policy && { policy: started.policy }),
      logFilter: logFilterMatcher(started.logFilters),
    });
    ctx.accept();
  };
}
