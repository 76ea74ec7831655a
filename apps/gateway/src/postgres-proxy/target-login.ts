/**
 * Logs the gateway in to the target PostgreSQL as the resource's connect account: a TCP
 * connection, TLS when the server offers it (an SSLRequest first, as libpq's default
 * sslmode=prefer does), a StartupMessage with the client's database and settings, and whichever
 * password method the server asks for (cleartext, MD5 or SCRAM-SHA-256). What the server
 * says after AuthenticationOk and before ReadyForQuery (ParameterStatus, BackendKeyData) is
 * handed back for the client. The password lives in this function's scope only.
 *
 * The resource's `tls` (core/db-tls.ts) says how far TLS is trusted. Absent, the server's
 * certificate is not verified and the gateway answers whichever method the far end asks for:
 * TLS keeps the password and the session from anyone reading the network, not from a host that
 * pretends to be the database (it can decline TLS and ask for the password in cleartext).
 * `require` refuses a server that declines TLS, and `verify` one whose certificate Node does not
 * accept, both before the StartupMessage (the user name) and any password are sent.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import {
  BodyReader,
  errorFields,
  message,
  MessageReader,
  PROTOCOL_3,
  SSL_REQUEST,
  startupPacket,
} from './messages';
import { saslprep } from './saslprep';
import {
  certificateRefused,
  isCertificateError,
  targetTlsOptions,
  TLS_NOT_OFFERED,
} from '../core/db-tls';
import type { DbTls } from '../control/protocol';

const LOGIN_TIMEOUT_MS = 15_000;
/** PostgreSQL's default is 4096; a target asking for more than this is refused. */
const SCRAM_MAX_ITERATIONS = 100_000;
const SERVER_MESSAGE_MAX = 1024 * 1024;

export interface TargetLogin {
  host: string;
  port: number;
  username: string;
  password: string;
  /** Start-up parameters from the client (database, application_name, client_encoding, …). */
  parameters: Map<string, string>;
  /** TLS towards the database; absent: prefer (see above). */
  tls?: DbTls;
  /** Gives the login up (its caller's deadline): the connection is destroyed at once. */
  signal?: AbortSignal;
}

export interface LoggedIn {
  socket: net.Socket;
  /** ParameterStatus messages, as the server sent them. */
  parameterStatus: Buffer[];
  /** The server's BackendKeyData (for cancel requests). */
  backendKey: { pid: number; secret: number } | undefined;
  /** The session's client encoding as the server reported it ('UTF8' when it did not). */
  clientEncoding: string;
  /** The transaction status of the first ReadyForQuery ('I'). */
  status: number;
  /** Bytes the server sent after ReadyForQuery (none, normally). */
  rest: Buffer;
}

export class TargetRefused extends Error {
  constructor(
    message: string,
    /** SQLSTATE when the server said; undefined when the target could not be reached. */
    readonly sqlState?: string,
    /** Node's own error when the socket failed (unreachable, reset, a TLS handshake error). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * The resource's TLS setting stopped the login (no TLS offered, a certificate refused): the
 * gateway's own words, which the member is told, unlike the database's.
 */
export class TargetTlsRefused extends TargetRefused {}

/**
 * The TLS handshake with the database failed for another reason than its certificate (no
 * common version, a client certificate demanded). Sessions treat it as the database not being
 * reachable (as before); the connectivity test calls it tls_failed.
 */
export class TargetTlsFailed extends TargetRefused {}

/**
 * The database asked for an authentication method (or offered SASL mechanisms) the gateway
 * does not speak: the login is refused before any password is sent (fail closed).
 */
export class TargetAuthUnsupported extends TargetRefused {}

/** A socket error's code (ECONNREFUSED, ECONNRESET…), or its message when it has none. */
const errorName = (err: Error): string => (err as NodeJS.ErrnoException).code ?? err.message;
const cannotReach = (err: Error): string => `the database cannot be reached (${errorName(err)})`;

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();
const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

/** SCRAM-SHA-256 (RFC 5802, RFC 7677) as the client, without channel binding. */
function scram(password: string) {
  const clientNonce = crypto.randomBytes(18).toString('base64');
  const clientFirstBare = `n=,r=${clientNonce}`;
  let serverSignature: Buffer | undefined;
  return {
    first: `n,,${clientFirstBare}`,
    final(serverFirst: string): string {
      const attrs = new Map(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
      const nonce = attrs.get('r') ?? '';
      const salt = Buffer.from(attrs.get('s') ?? '', 'base64');
      const iterations = Number(attrs.get('i'));
      // The target chooses the cost; past this a "database" is only making the gateway work.
      if (
        !nonce.startsWith(clientNonce) ||
        !Number.isInteger(iterations) ||
        iterations < 1 ||
        iterations > SCRAM_MAX_ITERATIONS
      ) {
        throw new TargetRefused('the server sent an invalid SCRAM challenge');
      }
      const salted = crypto.pbkdf2Sync(saslprep(password), salt, iterations, 32, 'sha256');
      const clientKey = hmac(salted, 'Client Key');
      const withoutProof = `c=biws,r=${nonce}`;
      const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
      const signature = hmac(sha256(clientKey), authMessage);
      const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!));
      serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
      return `${withoutProof},p=${proof.toString('base64')}`;
    },
    verify(serverFinal: string): boolean {
      const v = serverFinal.split(',').find((kv) => kv.startsWith('v='));
      if (!v || !serverSignature) return false;
      const got = Buffer.from(v.slice(2), 'base64');
      return got.length === serverSignature.length && crypto.timingSafeEqual(got, serverSignature);
    },
  };
}

/** The reason a login given up by its caller ends with (it is no longer waited for). */
const GIVEN_UP = 'the login was given up';

/** The server's one-byte answer to an SSLRequest. */
const TLS_YES = 0x53; // 'S'
const TLS_NO = 0x4e; // 'N'
const ERROR_RESPONSE = 0x45; // 'E'
/** Longest ErrorResponse read in answer to an SSLRequest. */
const ERROR_MAX = 16 * 1024;

/**
 * A connection to the target, in TLS when the server takes it: resolves once the startup
 * message can be sent (the TLS handshake done, or the server said it has no TLS and the
 * resource does not require it).
 */
function connectTarget(login: TargetLogin): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const raw = net.connect({ host: login.host, port: login.port });
    raw.setNoDelay(true);
    const timer = setTimeout(
      () => fail(new TargetRefused('the database did not answer in time')),
      LOGIN_TIMEOUT_MS,
    );
    const settle = (): void => {
      clearTimeout(timer);
      login.signal?.removeEventListener('abort', abandon);
    };
    const fail = (error: Error): void => {
      settle();
      raw.destroy();
      reject(error);
    };
    const abandon = (): void => fail(new TargetRefused(GIVEN_UP));
    login.signal?.addEventListener('abort', abandon, { once: true });
    const unreachable = (err: Error): void =>
      fail(new TargetRefused(cannotReach(err), undefined, err));
    raw.on('error', unreachable);
    raw.once('close', () => fail(new TargetRefused('the database closed the connection')));
    raw.once('connect', () => raw.write(startupPacket(SSL_REQUEST)));
    let answer: Buffer = Buffer.alloc(0);
    const onAnswer = (chunk: Buffer): void => {
      answer = answer.length === 0 ? chunk : Buffer.concat([answer, chunk]);
      // An ErrorResponse instead (too many clients, a failed fork): the server's own words and
      // SQLSTATE, as for an error at login, once the whole message is here.
      if (answer[0] === ERROR_RESPONSE) {
        if (answer.length < 5) return;
        const length = answer.readInt32BE(1);
        if (length < 4 || length > ERROR_MAX) {
          return fail(new TargetRefused('the database answered oddly to the TLS request'));
        }
        if (answer.length < 1 + length) return;
        const f = errorFields(answer.subarray(5, 1 + length));
        return fail(
          new TargetRefused(f.get('M') ?? 'the database refused the connection', f.get('C')),
        );
      }
      raw.removeListener('data', onAnswer);
      raw.removeAllListeners('close');
      // One byte, and nothing after it: bytes that came with it were not sent under TLS.
      if (answer.length !== 1 || (answer[0] !== TLS_YES && answer[0] !== TLS_NO)) {
        return fail(new TargetRefused('the database answered oddly to the TLS request'));
      }
      if (answer[0] === TLS_NO) {
        if (login.tls) return fail(new TargetTlsRefused(TLS_NOT_OFFERED));
        settle();
        raw.removeListener('error', unreachable);
        return resolve(raw);
      }
      const secure = tls.connect({ socket: raw, ...targetTlsOptions(login.host, login.tls) });
      const refused = (err: Error): void =>
        fail(
          isCertificateError(err)
            ? new TargetTlsRefused(certificateRefused(err), undefined, err)
            : new TargetTlsFailed(
                `TLS with the database failed (${errorName(err)})`,
                undefined,
                err,
              ),
        );
      secure.once('error', refused);
      secure.once('secureConnect', () => {
        settle();
        raw.removeListener('error', unreachable);
        secure.removeListener('error', refused);
        resolve(secure);
      });
    };
    raw.on('data', onAnswer);
    if (login.signal?.aborted) abandon();
  });
}

export async function loginToTarget(login: TargetLogin): Promise<LoggedIn> {
  return startSession(login, await connectTarget(login));
}

function startSession(login: TargetLogin, socket: net.Socket): Promise<LoggedIn> {
  return new Promise((resolve, reject) => {
    const reader = new MessageReader(SERVER_MESSAGE_MAX);
    const parameterStatus: Buffer[] = [];
    let backendKey: LoggedIn['backendKey'];
    let clientEncoding = 'UTF8';
    let sasl: ReturnType<typeof scram> | undefined;
    let settled = false;
    const timer = setTimeout(
      () => fail(new TargetRefused('the database did not answer in time')),
      LOGIN_TIMEOUT_MS,
    );
    const abandon = (): void => fail(new TargetRefused(GIVEN_UP));
    login.signal?.addEventListener('abort', abandon, { once: true });

    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      login.signal?.removeEventListener('abort', abandon);
      socket.destroy();
      reject(error);
    }
    const onError = (err: Error) => fail(new TargetRefused(cannotReach(err), undefined, err));
    socket.on('error', onError);
    socket.on('close', () => fail(new TargetRefused('the database closed the connection')));
    const params: string[] = ['user', login.username];
    for (const [k, v] of login.parameters) params.push(k, v);
    socket.write(startupPacket(PROTOCOL_3, ...params, Buffer.from([0])));
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      try {
        for (let m = reader.next(); m && !settled; m = reader.next()) handle(m.type, m.body, m.raw);
      } catch (err) {
        fail(
          err instanceof TargetRefused
            ? err
            : new TargetRefused(`the database answered oddly (${(err as Error).message})`),
        );
      }
    });
    if (login.signal?.aborted) abandon();

    function handle(type: number, body: Buffer, raw: Buffer): void {
      const t = String.fromCharCode(type);
      if (t === 'E') {
        const f = errorFields(body);
        throw new TargetRefused(f.get('M') ?? 'the database refused the login', f.get('C'));
      }
      if (t === 'S') {
        const r = new BodyReader(body);
        if (r.cstring() === 'client_encoding') clientEncoding = r.cstring().toUpperCase();
        return void parameterStatus.push(raw);
      }
      if (t === 'K') {
        const r = new BodyReader(body);
        backendKey = { pid: r.int32(), secret: r.int32() };
        return;
      }
      if (t === 'N') return;
      if (t === 'Z') {
        settled = true;
        clearTimeout(timer);
        login.signal?.removeEventListener('abort', abandon);
        socket.removeAllListeners('data');
        socket.removeListener('error', onError);
        socket.removeAllListeners('close');
        resolve({
          socket,
          parameterStatus,
          backendKey,
          clientEncoding,
          status: body[0] ?? 73,
          rest: reader.drain(),
        });
        return;
      }
      if (t !== 'R') throw new TargetRefused(`unexpected message ${t} during login`);
      const r = new BodyReader(body);
      const code = r.int32();
      if (code === 0) return;
      if (code === 3) return void socket.write(message('p', login.password));
      if (code === 5) {
        const salt = r.bytes(4);
        const inner = crypto
          .createHash('md5')
          .update(login.password + login.username)
          .digest('hex');
        const outer = crypto
          .createHash('md5')
          .update(Buffer.concat([Buffer.from(inner), salt]))
          .digest('hex');
        return void socket.write(message('p', `md5${outer}`));
      }
      if (code === 10) {
        const mechanisms: string[] = [];
        for (let m = r.cstring(); m !== ''; m = r.cstring()) mechanisms.push(m);
        if (!mechanisms.includes('SCRAM-SHA-256')) {
          throw new TargetAuthUnsupported(
            `the database offers no password method the gateway speaks (${mechanisms.join(', ')})`,
          );
        }
        sasl = scram(login.password);
        const first = Buffer.from(sasl.first);
        const len = Buffer.alloc(4);
        len.writeInt32BE(first.length, 0);
        return void socket.write(message('p', 'SCRAM-SHA-256', len, first));
      }
      if (code === 11 && sasl)
        return void socket.write(message('p', Buffer.from(sasl.final(r.rest().toString('utf8')))));
      if (code === 12 && sasl) {
        if (!sasl.verify(r.rest().toString('utf8')))
          throw new TargetRefused('the database failed to prove it knows the password');
        return;
      }
      throw new TargetAuthUnsupported(
        `the database asks for an authentication method the gateway does not speak (${code})`,
      );
    }
  });
}
