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
 *
 * A login user set to "team account password" (auth_type 2) has no stored credential: the
 * member types the login user's password. After the code is proven the gateway answers with
 * partial success and keyboard-interactive, asks for the password (in the same exchange when
 * the code came by keyboard-interactive), and tries it on the target, {@link PASSWORD_TRIES}
 * times at most. The password is used for that login only, never logged or stored.
 */
import type { AuthContext, Client, Connection, KeyboardAuthContext } from 'ssh2';
import ssh2 from './ssh2';
import type { SessionControlApi, Outcome } from '../control/session-requests';
import type { ResolvedCode, SessionCredential, SessionRefusal } from '../control/protocol';
import type { CommandPolicy } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import { logFilterMatcher, type LogFilterMatcher } from '../recording';
import { sendBanner } from './banner';
import { connectUpstream, refusedCredential, upstreamReason } from './upstream';

const METHODS: AuthContext['method'][] = ['publickey', 'keyboard-interactive', 'password'];
/** Refusals after which another key or method may still succeed: the client may go on. */
const RETRYABLE = new Set(['AccountPubKeyNotFound', 'AccountPubKeyError', 'PasswordError']);
/** Wrong target passwords allowed before the connection is refused (as sshd's default). */
export const PASSWORD_TRIES = 3;
/**
 * Failed logins on one connection before it is closed, as sshd's MaxAuthTries: without a limit
 * one connection could try keys and codes (each a question to the server) for as long as the
 * login grace time let it.
 */
export const MAX_AUTH_FAILURES = 6;

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

/** A proven code whose target login waits for the member to type the login user's password. */
interface AwaitingPassword {
  resolved: ResolvedCode;
  grant: string;
  credential: SessionCredential;
  username: string;
  tries: number;
}

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
  let awaiting: AwaitingPassword | undefined;
  /**
   * The client hung up. The target login and the session's start are waited on (seconds, for a
   * slow target): a session opened after the client left would stay online with its target
   * connection open, and nothing would ever end it.
   */
  let clientGone = false;
  client.once('close', () => (clientGone = true));

  let failures = 0;
  /** Ends the login: the client is told no, and hung up on once the banner has gone. */
  const hangUp = (ctx: AuthContext): void => {
    ctx.reject([]);
    done = true;
    setTimeout(() => client.end(), 50);
  };
  /** A failed try after which another key or method may still succeed, up to the limit. */
  const tryAgain = (ctx: AuthContext): void => {
    if (++failures < MAX_AUTH_FAILURES) return void ctx.reject(METHODS);
    logger.warn({ ip: clientIp }, 'ssh login: too many failures');
    sendBanner(client, 'Portcullis: too many authentication failures', logger);
    hangUp(ctx);
  };
  const refuse = (ctx: AuthContext, refusal: SessionRefusal): void => {
    // The code (the user name) is a secret: never logged, not even masked beyond its length.
    logger.warn({ ip: clientIp, method: ctx.method, code: refusal.code }, 'ssh login refused');
    sendBanner(client, `Portcullis: ${refusal.message} (${refusal.code})`, logger);
    if (RETRYABLE.has(refusal.code)) return tryAgain(ctx);
    // Retrying cannot help.
    hangUp(ctx);
  };

  const resolve = async (ctx: AuthContext): Promise<Resolved | null> => {
    switch (ctx.method) {
      case 'publickey': {
        const key = ssh2.utils.parseKey(ctx.key.data);
        if (key instanceof Error || Array.isArray(key)) {
          tryAgain(ctx);
          return null;
        }
        // Without a signature the client only asks whether the key would do: it may sign.
        if (!ctx.signature || !ctx.blob) {
          ctx.accept();
          return null;
        }
        if (key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) {
          tryAgain(ctx);
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

  /** Logs in to the target; undefined after refusing (or inviting another password). */
  const loginTarget = async (
    ctx: AuthContext,
    resolved: ResolvedCode,
    credential: SessionCredential,
  ): Promise<Client | undefined> => {
    try {
      return await connectUpstream(credential);
    } catch (err) {
      const reason = upstreamReason(err);
      logger.warn(
        { ip: clientIp, resource_id: resolved.resource.id, reason },
        'target login failed',
      );
      if (awaiting && refusedCredential(err) && ++awaiting.tries < PASSWORD_TRIES) {
        sendBanner(client, 'Portcullis: the server refused the password; try again', logger);
        ctx.reject(['keyboard-interactive'], true);
        return undefined;
      }
      refuse(ctx, { code: 'InvalidResource', message: `The resource refused: ${reason}` });
      return undefined;
    }
  };

  /** Asks for the login user's password (keyboard-interactive) and logs in with it. */
  const askPassword = async (ctx: KeyboardAuthContext, wait: AwaitingPassword): Promise<void> => {
    const answers = await new Promise<string[] | Error>((answered) =>
      ctx.prompt(
        [{ prompt: `Password for ${wait.username}@${wait.resolved.resource.name}: `, echo: false }],
        'Portcullis',
        'The login user signs in with its own password.',
        answered,
      ),
    );
    if (answers instanceof Error || done) return;
    const password = answers[0] ?? '';
    const upstream = await loginTarget(ctx, wait.resolved, { ...wait.credential, password });
    if (!upstream) return;
    awaiting = undefined;
    await openSession(ctx, wait.resolved, wait.grant, wait.username, upstream);
  };

  const openSession = async (
    ctx: AuthContext,
    resolved: ResolvedCode,
    grant: string,
    username: string,
    upstream: Client,
  ): Promise<void> => {
    if (clientGone) return void upstream.end();
    const started = await control.start(grant, clientIp, 'ssh');
    if (!started.ok) {
      upstream.end();
      return refuse(ctx, started.refusal);
    }
    if (clientGone) {
      upstream.end();
      control.end(started.connectionId);
      return;
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

  return async (ctx) => {
    if (done) return void ctx.reject([]);
    if (awaiting) {
      // The code is proven: only the login user's password is missing.
      if (ctx.method !== 'keyboard-interactive')
        return void ctx.reject(['keyboard-interactive'], true);
      return askPassword(ctx, awaiting);
    }
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
    if (credential.credential.ask_password) {
      awaiting = { resolved, grant, credential: credential.credential, username, tries: 0 };
      if (ctx.method === 'keyboard-interactive') return askPassword(ctx, awaiting);
      return void ctx.reject(['keyboard-interactive'], true);
    }
    const upstream = await loginTarget(ctx, resolved, credential.credential);
    if (!upstream) return;
    await openSession(ctx, resolved, grant, username, upstream);
  };
}
