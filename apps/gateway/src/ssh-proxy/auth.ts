/**
 * Client authentication at the SSH proxy. The user name is the code, and the client proves it
 * may use it in one of three ways:
 * - publickey: a key from the code owner's personal SSH keys (the gateway checks the signature,
 *   the server checks the key belongs to the owner and records its use);
 * - password: a temporary authorization's one-time password (the code is its user name);
 * - keyboard-interactive: the gateway asks for the code (any user name); when the user name is
 *   a temporary authorization's, it asks for its one-time password instead ("Password:"), so
 *   `ssh -p 9998 USER@gateway` works with OpenSSH's default order (keyboard-interactive comes
 *   before password there).
 * The server answers every check (fail closed). Once it says yes, the gateway fetches this
 * session's credential and logs in to the target before accepting the client, so a target that
 * refuses is reported to the client like any other refusal: as an SSH banner, and logged.
 * A refusal no other try can change (an unknown or expired code, a client address not
 * allowed) ends the connection after its banner with SSH_MSG_DISCONNECT: a failure reply would
 * send OpenSSH through its other methods (an empty list of methods means "any" to it), asking
 * for a password that can only fail. A wrong key or password may be tried again, as with sshd.
 *
 * A login user set to "team account password" (auth_type 2) has no stored credential: the
 * member types the login user's password. After the code is proven the gateway answers with
 * partial success and keyboard-interactive, asks for the password (in the same exchange when
 * the code came by keyboard-interactive), and tries it on the target, {@link PASSWORD_TRIES}
 * times at most. The password is used for that login only, never logged or stored.
 */
import crypto from 'node:crypto';
import type {
  AuthContext,
  Client,
  Connection,
  KeyboardAuthContext,
  PublicKeyAuthContext,
} from 'ssh2';
import { CODE_PATTERN, type CommandPolicy } from '@portcullis/contract';
import ssh2 from './ssh2';
import type { SessionControlApi, Outcome } from '../control/session-requests';
import type { ResolvedCode, SessionCredential, SessionRefusal } from '../control/protocol';
import type { Logger } from '../core/logger';
import { logFilterMatcher, type LogFilterMatcher } from '../recording';
import { disconnectWith, DISCONNECT_NO_MORE_AUTH_METHODS, sendBanner } from './banner';
import {
  connectUpstream,
  logTargetLoginFailed,
  refusedCredential,
  seenHostKey,
  upstreamRefusal,
} from './upstream';
import { refusalText } from '../core/session-ended';

const METHODS: AuthContext['method'][] = ['publickey', 'keyboard-interactive', 'password'];
/** Refusals after which another key or method may still succeed: the client may go on. */
const RETRYABLE = new Set(['AccountPubKeyNotFound', 'AccountPubKeyError', 'PasswordError']);
/** What a wrong temporary-authorization password is told (PasswordError). */
const WRONG_ONE_TIME_PASSWORD = 'The one-time password is wrong';
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
  /** What the member proved at this login, asked for again by a jump's inner login (jump.ts). */
  proof: LoginProof;
}

/**
 * The member's key (OpenSSH's `type base64`), or the code they typed; `none` for a temporary
 * authorization, whose one-time password cannot be asked twice (it cannot jump).
 */
export type LoginProof =
  { kind: 'key'; publicKey: string } | { kind: 'code'; code: string } | { kind: 'none' };

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

/** Compares two secrets in constant time (a code typed against the user name). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * The key of a publickey attempt as OpenSSH writes it (`type base64`), `signed` once its
 * signature checks; unsigned, the client only asks whether the key would do (it may sign).
 * Null for a key that does not parse or a signature that does not verify.
 */
export function offeredKey(
  ctx: PublicKeyAuthContext,
): { publicKey: string; signed: boolean } | null {
  const key = ssh2.utils.parseKey(ctx.key.data);
  if (key instanceof Error || Array.isArray(key)) return null;
  const publicKey = `${key.type} ${key.getPublicSSH().toString('base64')}`;
  if (!ctx.signature || !ctx.blob) return { publicKey, signed: false };
  if (key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return null;
  return { publicKey, signed: true };
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
  /** What the attempt being resolved proves (see LoginProof). */
  let proof: LoginProof = { kind: 'none' };
  /**
   * Ends the login after the banner that said why: a disconnect, not a failure reply (see the
   * module comment). `why` is the disconnect's description (OpenSSH prints it).
   */
  const hangUp = (why: string): void => {
    done = true;
    disconnectWith(client, DISCONNECT_NO_MORE_AUTH_METHODS, why, logger);
  };
  /** A failed try after which another key or method may still succeed, up to the limit. */
  const tryAgain = (ctx: AuthContext): void => {
    if (++failures < MAX_AUTH_FAILURES) return void ctx.reject(METHODS);
    logger.warn({ ip: clientIp }, 'ssh login: too many failures');
    sendBanner(client, 'Portcullis: too many authentication failures', logger);
    hangUp('Portcullis: too many authentication failures');
  };
  const refuse = (ctx: AuthContext, refusal: SessionRefusal): void => {
    // The code (the user name) is a secret: never logged, not even masked beyond its length.
    logger.warn({ ip: clientIp, method: ctx.method, code: refusal.code }, 'ssh login refused');
    sendBanner(client, refusalText(refusal), logger);
    if (RETRYABLE.has(refusal.code)) return tryAgain(ctx);
    // Retrying cannot help.
    hangUp(`Portcullis: login refused (${refusal.code})`);
  };

  /** The server's answer to a temporary authorization's password: its own words for a wrong one. */
  const withPassword = async (code: string, password: string): Promise<Resolved> => {
    const outcome = await control.resolve({ code, clientIp, password });
    if (outcome.ok || outcome.refusal.code !== 'PasswordError') return outcome;
    // The catalogue's text speaks of a team ID and an account: not what was typed here.
    return { ok: false, refusal: { code: 'PasswordError', message: WRONG_ONE_TIME_PASSWORD } };
  };

  /** One keyboard-interactive question; null when the client gave up on it. */
  const ask = (
    ctx: KeyboardAuthContext,
    prompt: string,
    title = 'Portcullis',
    instructions = '',
  ): Promise<string | null> =>
    new Promise((answered) =>
      ctx.prompt([{ prompt, echo: false }], title, instructions, (answers) =>
        answered(answers instanceof Error ? null : (answers[0] ?? '')),
      ),
    );

  /**
   * keyboard-interactive: the code is the user name when it has a code's form, else it is
   * asked for. A code that needs a password (a temporary authorization, whose user name is its
   * code) is then asked for its one-time password. A code the user name names is asked for
   * again as before (a code's login stays "the code typed"), and its first answer is reused.
   */
  const resolveTyped = async (ctx: KeyboardAuthContext): Promise<Resolved | null> => {
    let code = ctx.username;
    let known: Resolved | undefined;
    if (CODE_PATTERN.test(code)) {
      known = await control.resolve({ code, clientIp });
      // Unknown, expired, another address: no answer to any question can change that.
      if (!known.ok && known.refusal.code !== 'PasswordError') return known;
    }
    if (!known || known.ok) {
      const typed = await ask(ctx, 'Portcullis code: ');
      if (typed === null) return null;
      if (known?.ok && sameText(typed.trim(), code)) {
        proof = { kind: 'code', code };
        return known;
      }
      code = typed.trim();
      known = await control.resolve({ code, clientIp });
      proof = { kind: 'code', code };
      if (known.ok || known.refusal.code !== 'PasswordError') return known;
    }
    proof = { kind: 'none' };
    // As sshd asks: OpenSSH prints a title or instructions on lines of their own.
    const password = await ask(ctx, 'Password: ', '', '');
    if (password === null) return null;
    return withPassword(code, password);
  };

  const resolve = async (ctx: AuthContext): Promise<Resolved | null> => {
    switch (ctx.method) {
      case 'publickey': {
        // A key proves its owner holds a code named as the user name; any other user name
        // (`ssh anyone@gateway`, the code typed later) leaves it nothing to prove.
        if (!CODE_PATTERN.test(ctx.username)) {
          tryAgain(ctx);
          return null;
        }
        const offered = offeredKey(ctx);
        if (!offered) {
          tryAgain(ctx);
          return null;
        }
        if (!offered.signed) {
          ctx.accept();
          return null;
        }
        const { publicKey } = offered;
        proof = { kind: 'key', publicKey };
        const outcome = await control.resolve({ code: ctx.username, clientIp, publicKey });
        // A temporary authorization (it needs its password): the client's keys are tried
        // first by OpenSSH, and the password comes next. Nothing to say yet.
        if (!outcome.ok && outcome.refusal.code === 'PasswordError') {
          tryAgain(ctx);
          return null;
        }
        return outcome;
      }
      case 'password':
        proof = { kind: 'none' };
        return withPassword(ctx.username, ctx.password);
      case 'keyboard-interactive':
        return resolveTyped(ctx);
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
      logTargetLoginFailed(logger, clientIp, resolved.resource.id, err);
      if (awaiting && refusedCredential(err) && ++awaiting.tries < PASSWORD_TRIES) {
        sendBanner(client, 'Portcullis: the server refused the password; try again', logger);
        ctx.reject(['keyboard-interactive'], true);
        return undefined;
      }
      refuse(ctx, upstreamRefusal(err));
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
    const started = await control.start(grant, clientIp, 'terminal', seenHostKey(upstream));
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
      // A temporary authorization's is its password whatever way it came (see LoginProof).
      proof: resolved.type === 'tmp_share' ? { kind: 'none' } : proof,
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
