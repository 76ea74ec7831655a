/**
 * One web terminal over one WebSocket: the browser's first text frame carries the token and
 * the terminal size; the gateway redeems the token with the server (the same grant, credential
 * and session_start as an SSH proxy login, way `wetty`), opens a shell with a pty on the
 * target, records it (the cluster's log filters apply to the recording and alarm commands),
 * and relays: binary frames are terminal bytes both ways, text frames are JSON (resize from
 * the browser; ready and closed from the gateway).
 *
 * A "team account password" login user (auth_type 2) has no stored credential: the gateway
 * asks for the login user's password in the terminal itself (not echoed, not recorded: the
 * recording starts after the login), {@link PASSWORD_TRIES} tries, as the SSH proxy does.
 *
 * Flow control: output is read from the target only while the WebSocket's send buffer is
 * below HIGH_WATER and, for a browser that acknowledges what its terminal drew (the console
 * does), while less than WEB_TERMINAL_WINDOW_BYTES of it is undrawn; so a flood
 * (`cat /dev/urandom`) slows the target instead of filling the gateway's memory or the
 * browser's queue. Input pauses the socket while the target's window is full.
 */
import {
  formatError,
  LOG_FILTER_HIDDEN,
  WEB_TERMINAL_WINDOW_BYTES,
  WebTerminalClientMessageSchema,
  type WebTerminalClientMessage,
  type WebTerminalServerMessage,
} from '@portcullis/contract';
import type { Client, ClientChannel } from 'ssh2';
import { WebSocket, type RawData } from 'ws';
import type { SessionControlApi } from '../control/session-requests';
import type { Logger } from '../core/logger';
import {
  hideMatch,
  logFilterMatcher,
  type ChannelTap,
  type Recordings,
  type SessionRecorder,
} from '../recording';
import { blockedNotice, CommandFilter } from '../ssh-proxy/security-mode/command-filter';
import { scrubCommandSecrets } from '../ssh-proxy/security-mode/command-secrets';
import { PASSWORD_TRIES } from '../ssh-proxy/auth';
import {
  connectUpstream,
  logTargetLoginFailed,
  refusedCredential,
  seenHostKey,
  upstreamRefusal,
} from '../ssh-proxy/upstream';
import type { SessionCredential } from '../control/protocol';
import { createPasswordPrompt, type PasswordPrompt } from './password-prompt';

const AUTH_TIMEOUT_MS = 10_000;
/** The server's grant lives 60 s: a password typed later could not start the session. */
const PASSWORD_TIMEOUT_MS = 55_000;
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
/** Output resumes once the browser has drawn all but this much. */
const UNDRAWN_LOW = WEB_TERMINAL_WINDOW_BYTES / 2;
const TERM = 'xterm-256color';

/** WebSocket close codes (the JSON `closed` frame before them says why in words). */
const CLOSE_ENDED = 1000;
const CLOSE_FAILED = 1011;
const CLOSE_CUT = 4001;
const CLOSE_REFUSED = 4403;

export interface TerminalDeps {
  control: SessionControlApi;
  logger: Logger;
  recordings?: Recordings;
  /**
   * Lets the server's session_cut reach this terminal (its reason in English, and as a
   * catalogue code when the server gave one); returns the unregister function.
   */
  register(connectionId: number, cut: (reason: string, code?: string) => void): () => void;
}

type AuthMessage = Extract<WebTerminalClientMessage, { type: 'auth' }>;

function parse(data: RawData): WebTerminalClientMessage | null {
  try {
    const parsed = WebTerminalClientMessageSchema.safeParse(JSON.parse(data.toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function bytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

export function handleTerminal(ws: WebSocket, clientIp: string, deps: TerminalDeps): void {
  const { control, logger } = deps;
  let state: 'auth' | 'opening' | 'password' | 'open' | 'closed' = 'auth';
  /** While state is 'password': the prompt reading the login user's password. */
  let prompt: PasswordPrompt | undefined;
  let upstream: Client | undefined;
  let channel: ClientChannel | undefined;
  let recorder: SessionRecorder | undefined;
  let tap: ChannelTap | undefined;
  /** Security mode, the same line filter as the SSH proxy's pty shells. */
  let filter: CommandFilter | undefined;
  let connectionId: number | undefined;
  let unregister: (() => void) | undefined;
  /** Whether the browser acknowledges drawn output, and how much it has not drawn yet. */
  let acks = false;
  let undrawn = 0;
  /** Called when the browser has drawn more or the socket drained (set by relay()). */
  let roomMade = (): void => undefined;

  const sendJson = (message: WebTerminalServerMessage): void => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  // Idempotent: runs when either side ends, and again if the browser left mid-opening.
  const release = (): void => {
    tap?.end();
    tap = undefined;
    channel?.close();
    upstream?.end();
    void recorder?.close();
    recorder = undefined;
    unregister?.();
    unregister = undefined;
    if (connectionId !== undefined) {
      control.end(connectionId);
      logger.info({ connection_id: connectionId }, 'web terminal closed');
      connectionId = undefined;
    }
  };
  /** `reason`: the catalogue code of a cut's reason, for the console to translate. */
  const finish = (code: string, message: string, wsCode: number, reason?: string): void => {
    if (state === 'closed') return;
    state = 'closed';
    clearTimeout(authTimer);
    prompt?.cancel();
    sendJson({ type: 'closed', code, message, ...(reason && { reason }) });
    // The close reason is limited to 123 bytes: the code only; the text went in the frame.
    ws.close(wsCode, code);
    release();
  };
  const refuse = (code: string, message: string): void => {
    // The token is a secret: never logged.
    logger.warn({ ip: clientIp, code }, 'web terminal refused');
    finish(code, message, CLOSE_REFUSED);
  };
  const authTimer = setTimeout(
    () => refuse('TunnelNotFound', 'No token arrived in time'),
    AUTH_TIMEOUT_MS,
  );

  const relay = (opened: ClientChannel): void => {
    let paused = false;
    const full = (): boolean =>
      ws.bufferedAmount > HIGH_WATER || (acks && undrawn > WEB_TERMINAL_WINDOW_BYTES);
    roomMade = (): void => {
      if (paused && ws.bufferedAmount < LOW_WATER && (!acks || undrawn <= UNDRAWN_LOW)) {
        paused = false;
        opened.resume();
      }
    };
    // The bytes go to the browser first; the recording and the filter look at them after.
    const forward = (data: Buffer): void => {
      if (ws.readyState === WebSocket.OPEN) {
        undrawn += data.length;
        ws.send(data, { binary: true }, () => roomMade());
        if (!paused && full()) {
          paused = true;
          opened.pause();
        }
      }
      tap?.output(data);
      filter?.output(data);
    };
    opened.on('data', forward);
    opened.stderr.on('data', forward);
    opened.on('close', () =>
      finish('SessionEnded', formatError('SessionEnded', 'en_US'), CLOSE_ENDED),
    );
  };

  const sendText = (text: string): void => {
    if (ws.readyState === WebSocket.OPEN) ws.send(Buffer.from(text), { binary: true });
  };
  /** Shows `label`, reads a line of input without echo; undefined when cancelled or late. */
  const askPassword = (label: string): Promise<string | undefined> =>
    new Promise((resolve) => {
      state = 'password';
      sendText(label);
      const timer = setTimeout(() => {
        prompt?.cancel();
        refuse('InvalidResource', 'No password arrived in time');
      }, PASSWORD_TIMEOUT_MS);
      prompt = createPasswordPrompt((password) => {
        clearTimeout(timer);
        prompt = undefined;
        if (password === undefined) {
          refuse('InvalidResource', 'The password prompt was cancelled');
          return resolve(undefined);
        }
        if (state === 'password') state = 'opening';
        sendText('\r\n');
        resolve(password);
      });
    });

  // A function, not a comparison: TypeScript would keep its narrowing across the awaits.
  const gone = (): boolean => state === 'closed';
  const open = async (auth: AuthMessage): Promise<void> => {
    const resolved = await control.redeem(auth.token, clientIp);
    if (gone()) return;
    if (!resolved.ok) return refuse(resolved.refusal.code, resolved.refusal.message);
    const username = resolved.resolved.login_users[0];
    if (!username) return refuse('TunnelNotFound', 'No login user');
    const credential = await control.credential(resolved.grant, username);
    if (gone()) return;
    if (!credential.ok) return refuse(credential.refusal.code, credential.refusal.message);
    const login = async (with_: SessionCredential): Promise<Client | 'refused' | 'again'> => {
      try {
        return await connectUpstream(with_);
      } catch (err) {
        logTargetLoginFailed(logger, clientIp, resolved.resolved.resource.id, err);
        const typed = with_.password !== undefined && credential.credential.ask_password;
        if (typed && refusedCredential(err)) return 'again';
        const refusal = upstreamRefusal(err);
        refuse(refusal.code, refusal.message);
        return 'refused';
      }
    };
    let connected: Client | 'refused' | 'again' = 'again';
    if (!credential.credential.ask_password) connected = await login(credential.credential);
    else {
      const label = `${username}@${resolved.resolved.resource.name}`;
      for (let tries = 0; connected === 'again'; tries++) {
        if (tries === PASSWORD_TRIES) {
          return refuse(
            'InvalidResource',
            'The resource refused: the server refused the login credential',
          );
        }
        if (tries > 0) sendText('Portcullis: the server refused the password; try again\r\n');
        const password = await askPassword(`Password for ${label}: `);
        if (password === undefined || gone()) return;
        connected = await login({ ...credential.credential, password });
        // Gone while it logged in: the connection it made is ended below, not left open.
        if (gone()) break;
      }
    }
    if (connected === 'refused' || connected === 'again') return;
    upstream = connected;
    if (gone()) return release();
    upstream.on('close', () =>
      finish('SessionEnded', formatError('SessionEnded', 'en_US'), CLOSE_ENDED),
    );
    upstream.on('error', (err) => logger.debug({ err: err.message }, 'target connection error'));
    const started = await control.start(resolved.grant, clientIp, 'wetty', seenHostKey(upstream));
    if (!started.ok) return refuse(started.refusal.code, started.refusal.message);
    connectionId = started.connectionId;
    if (gone()) return release();
    const logFilter = logFilterMatcher(started.logFilters);
    if (started.policy) {
      const id = connectionId;
      filter = new CommandFilter(started.policy, 'terminal', (action, command, rule) => {
        logger.info({ connection_id: id, action, rule }, 'security mode acted on a command');
        // The log filter reads what was typed; a password typed as an argument is masked.
        const shown = scrubCommandSecrets(hideMatch(logFilter, command, LOG_FILTER_HIDDEN.command));
        control.alarm(id, action, shown, rule);
      });
    }
    unregister = deps.register(connectionId, (reason, code) =>
      finish(
        'SessionCut',
        `${formatError('SessionCut', 'en_US')}${reason ? `: ${reason}` : ''}`,
        CLOSE_CUT,
        code,
      ),
    );
    if (deps.recordings) {
      recorder = deps.recordings.open(
        connectionId,
        () => finish('RecordingFailed', formatError('RecordingFailed', 'en_US'), CLOSE_FAILED),
        logFilter,
      );
      tap = recorder.channel({ cols: auth.cols, rows: auth.rows, term: TERM }, { input: true });
    }
    upstream.shell({ term: TERM, cols: auth.cols, rows: auth.rows }, (err, opened) => {
      if (err)
        return finish(
          'InvalidResource',
          `The server refused a shell: ${err.message}`,
          CLOSE_FAILED,
        );
      if (gone()) return void opened.close();
      channel = opened;
      state = 'open';
      relay(opened);
      logger.info(
        {
          ip: clientIp,
          connection_id: connectionId,
          tunnel_id: resolved.resolved.tunnel_id,
          username,
        },
        'web terminal opened',
      );
      sendJson({ type: 'ready', connection_id: started.connectionId, username });
    });
  };

  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (state === 'auth') {
      const message = isBinary ? null : parse(data);
      if (message?.type !== 'auth')
        return refuse('InvalidParameter', 'The first message must carry the token');
      state = 'opening';
      clearTimeout(authTimer);
      acks = message.ack === true;
      open(message).catch((err: unknown) => {
        logger.error({ err }, 'web terminal failed unexpectedly');
        finish('UnknowError', 'The terminal could not be opened', CLOSE_FAILED);
      });
      return;
    }
    if (state === 'password') {
      if (isBinary) prompt?.push(bytes(data));
      return;
    }
    if (state !== 'open' || !channel) return;
    if (isBinary) {
      const input = bytes(data);
      const checked = filter?.input(input) ?? { forward: input, blocked: null };
      // Forwarded first; recorded after (the input, then the notice the member saw).
      const full = !channel.write(checked.forward);
      const notice = checked.blocked && Buffer.from(blockedNotice(checked.blocked));
      if (notice) ws.send(notice, { binary: true });
      tap?.input(input);
      if (notice) tap?.output(notice);
      if (full) {
        ws.pause();
        channel.once('drain', () => ws.resume());
      }
      return;
    }
    const message = parse(data);
    if (message?.type === 'ack') {
      // Prompts and notices the gateway wrote itself are drawn too: never below nothing.
      undrawn = Math.max(0, undrawn - message.bytes);
      roomMade();
    } else if (message?.type === 'resize') {
      channel.setWindow(message.rows, message.cols, 0, 0);
      tap?.resize(message.cols, message.rows);
    }
  });
  ws.on('close', () => {
    clearTimeout(authTimer);
    state = 'closed';
    release();
  });
  ws.on('error', (err) => logger.debug({ err: err.message }, 'web terminal socket error'));
}
