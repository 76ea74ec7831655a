/**
 * The target side of the login: the gateway plays a MySQL client with the stored credential.
 * It reads the target's HandshakeV10 and answers with a HandshakeResponse41 that requests the
 * capabilities the member's client negotiated with the gateway (so that every later packet
 * means the same to both and is relayed byte for byte), the client's collation and database.
 *
 * TLS when the target offers it (CLIENT_SSL in its greeting: an SSLRequest, the handshake, and
 * the login inside it), as MySQL's own client does by default. Unless the resource's `tls`
 * says otherwise (core/db-tls.ts) the certificate is not verified: TLS keeps the login and the
 * session from anyone reading the network, not from a host that pretends to be the database.
 * `require` refuses a greeting without CLIENT_SSL, and `verify` a certificate Node does not
 * accept, both before the HandshakeResponse (user name and scramble) is sent.
 *
 * Auth plugins: mysql_native_password (SHA1 scramble) and caching_sha2_password (fast path;
 * full auth sends the password inside TLS, or, on a target without TLS, encrypted with the
 * server's RSA public key taken from the network as MySQL's own `--get-server-public-key`
 * does); mysql_clear_password, client_ed25519, sha256_password and dialog are refused (fail
 * closed).
 */
import crypto from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { CAP, LoginReader, Malformed, Reader, readErr, send, type Packet } from './packets';
import type { DbTarget } from '../db-proxy/session';
import {
  certificateRefused,
  isCertificateError,
  targetTlsOptions,
  TLS_NOT_OFFERED,
} from '../core/db-tls';

const CONNECT_TIMEOUT_MS = 10_000;

/** Capabilities always requested from the target, whatever the client asked. */
const REQUIRED = CAP.LONG_PASSWORD | CAP.PROTOCOL_41 | CAP.SECURE_CONNECTION | CAP.PLUGIN_AUTH;
/**
 * Never requested: they change what the relay would have to translate (see handshake.ts).
 * CLIENT_SSL is the client's own business with the gateway; towards the target it is set
 * when the target offers TLS.
 */
const NEVER = CAP.SSL | CAP.COMPRESS | CAP.LOCAL_FILES | CAP.CONNECT_ATTRS | CAP.DEPRECATE_EOF;

export interface TargetLogin {
  socket: net.Socket;
  /** The target's final OK_Packet payload (its status flags are passed to the client). */
  ok: Buffer;
  /** Bytes read past the OK packet (normally none). */
  rest: Buffer;
  serverVersion: string;
  /** The target's id for this connection (its thread id, as KILL takes it). */
  threadId: number;
}

/**
 * What stopped a target login, for a caller that tells failures apart (the connectivity test
 * turns it into a reason word); sessions go by `refused` and the message alone.
 */
export type TargetLoginKind =
  /** The database answered with an ERR_Packet, at the greeting or the login: see `errno`. */
  | 'server'
  /**
   * TLS stopped it: none offered under the resource's require or verify, the certificate
   * refused, or the handshake failed (`cause`).
   */
  | 'tls'
  /** The database asked for an auth plugin the gateway refuses (fail closed). */
  | 'auth_plugin'
  /** Connecting failed: see `cause`. */
  | 'network'
  /** The database did not accept the connection in time, or the caller gave the login up. */
  | 'timeout'
  /**
   * Not a MySQL 4.1+ server, a packet the login cannot use, or the connection lost during the
   * login (`cause` holds Node's error when there is one).
   */
  | 'protocol';

export interface TargetLoginErrorDetails {
  kind: TargetLoginKind;
  /** The ERR_Packet's error number (kind 'server'). */
  errno?: number;
  /** Node's own error, for a failure at the socket or in TLS. */
  cause?: unknown;
}

/** The target refused the credential or spoke nonsense; `refused` for an ERR at login. */
export class TargetLoginError extends Error {
  readonly kind: TargetLoginKind;
  readonly errno: number | undefined;

  constructor(
    message: string,
    readonly refused: boolean,
    details: TargetLoginErrorDetails = { kind: 'protocol' },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TargetLoginError';
    this.kind = details.kind;
    this.errno = details.errno;
  }
}

/** A TargetLoginError for an ERR_Packet the database sent. */
function serverError(payload: Buffer, refused: boolean): TargetLoginError {
  const { errno, message } = readErr(payload);
  return new TargetLoginError(message, refused, { kind: 'server', errno });
}

const sha1 = (...parts: Buffer[]): Buffer => {
  const h = crypto.createHash('sha1');
  for (const p of parts) h.update(p);
  return h.digest();
};
const sha256 = (...parts: Buffer[]): Buffer => {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const xor = (a: Buffer, b: Buffer): Buffer => Buffer.from(a.map((v, i) => v ^ (b[i] as number)));

/** SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password))); empty for an empty password. */
export function nativeScramble(password: string, salt: Buffer): Buffer {
  if (password === '') return Buffer.alloc(0);
  const stage1 = sha1(Buffer.from(password, 'utf8'));
  return xor(stage1, sha1(salt, sha1(stage1)));
}

/** XOR(SHA256(password), SHA256(SHA256(SHA256(password)), nonce)); empty for empty. */
export function cachingSha2Scramble(password: string, nonce: Buffer): Buffer {
  if (password === '') return Buffer.alloc(0);
  const p1 = sha256(Buffer.from(password, 'utf8'));
  return xor(p1, sha256(sha256(p1), nonce));
}

/** The password (NUL-terminated) XOR the scramble, RSA-OAEP encrypted with the server key. */
function rsaPassword(password: string, nonce: Buffer, pem: Buffer): Buffer {
  const plain = Buffer.from(`${password}\0`, 'utf8');
  const mixed = Buffer.from(plain.map((v, i) => v ^ (nonce[i % nonce.length] as number)));
  return crypto.publicEncrypt(
    { key: pem, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING },
    mixed,
  );
}

function authResponse(plugin: string, password: string, salt: Buffer): Buffer {
  if (plugin === 'mysql_native_password') return nativeScramble(password, salt);
  if (plugin === 'caching_sha2_password') return cachingSha2Scramble(password, salt);
  throw new TargetLoginError(`the database asks for the unsupported auth plugin ${plugin}`, false, {
    kind: 'auth_plugin',
  });
}

interface Greeting {
  caps: number;
  salt: Buffer;
  plugin: string;
  serverVersion: string;
  threadId: number;
}

/** HandshakeV10 (layout in handshake.ts); an ERR here is the server refusing this host. */
function parseGreeting(packet: Packet): Greeting {
  if (packet.payload[0] === 0xff) throw serverError(packet.payload, false);
  const r = new Reader(packet.payload);
  if (r.u8() !== 10) throw new TargetLoginError('the target is not a MySQL 4.1+ server', false);
  const serverVersion = r.nulString().toString('latin1');
  const threadId = r.u32();
  const part1 = r.bytes(8);
  r.skip(1);
  let caps = r.u16();
  r.skip(3);
  caps |= r.u16() << 16;
  const saltLength = r.u8();
  r.skip(10);
  const part2 = r.bytes(Math.max(13, saltLength - 8));
  const plugin = caps & CAP.PLUGIN_AUTH ? r.nulString().toString('latin1') : '';
  // Part 2 ends with a NUL that is not part of the 20-byte scramble.
  const salt = Buffer.concat([part1, part2.subarray(0, 12)]);
  return {
    caps: caps >>> 0,
    salt,
    plugin: plugin || 'mysql_native_password',
    serverVersion,
    threadId,
  };
}

function connect(target: DbTarget, signal: AbortSignal | undefined): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abandon);
    };
    const abandon = (): void => {
      settle();
      socket.destroy();
      reject(new TargetLoginError('the login was given up', false, { kind: 'timeout' }));
    };
    const timer = setTimeout(() => {
      settle();
      socket.destroy();
      reject(
        new TargetLoginError('the database did not answer in time', false, { kind: 'timeout' }),
      );
    }, CONNECT_TIMEOUT_MS);
    signal?.addEventListener('abort', abandon, { once: true });
    socket.once('connect', () => {
      settle();
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      settle();
      const why =
        err.code === 'ECONNREFUSED'
          ? 'the database refused the connection'
          : 'the database could not be reached';
      reject(new TargetLoginError(why, false, { kind: 'network', cause: err }));
    });
    if (signal?.aborted) abandon();
  });
}

export interface TargetLoginRequest {
  target: DbTarget;
  /** The capabilities negotiated with the client. */
  clientCaps: number;
  maxPacket: number;
  collation: number;
  database: string;
  /** Gives the login up (its caller's deadline): the connection is destroyed at once. */
  signal?: AbortSignal;
}

/**
 * Turns the connection into TLS after the greeting: the SSLRequest (the handshake response's
 * fixed 32 bytes with CLIENT_SSL, sequence 1), then the TLS handshake on the same socket.
 */
function startTls(raw: net.Socket, head: Buffer, target: DbTarget): Promise<tls.TLSSocket> {
  send(raw, head, 1);
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ socket: raw, ...targetTlsOptions(target.host, target.tls) });
    const failed = (err: Error): void =>
      reject(
        isCertificateError(err)
          ? new TargetLoginError(certificateRefused(err), false, { kind: 'tls', cause: err })
          : new TargetLoginError(`the database's TLS failed (${err.message})`, false, {
              kind: 'tls',
              cause: err,
            }),
      );
    // The login's timer destroys the connection mid-handshake, and a database may hang up:
    // either ends the TLS socket with 'close' alone, no 'error'.
    const closed = (): void =>
      reject(new TargetLoginError('the database closed the connection during TLS', false));
    secure.once('error', failed);
    secure.once('close', closed);
    secure.once('secureConnect', () => {
      secure.removeListener('error', failed);
      secure.removeListener('close', closed);
      resolve(secure);
    });
  });
}

/** Connects and logs in to the target; rejects with {@link TargetLoginError}. */
export async function loginTarget(request: TargetLoginRequest): Promise<TargetLogin> {
  const { target, signal } = request;
  let socket: net.Socket = await connect(target, signal);
  let reader = new LoginReader(socket);
  const timer = setTimeout(() => socket.destroy(), CONNECT_TIMEOUT_MS);
  // The socket in use when the caller gives up (the raw one until TLS is up).
  const abandon = (): void => void socket.destroy();
  signal?.addEventListener('abort', abandon, { once: true });
  if (signal?.aborted) abandon();
  try {
    const greeting = parseGreeting(await reader.next());
    for (const cap of [CAP.PROTOCOL_41, CAP.SECURE_CONNECTION]) {
      if (!(greeting.caps & cap)) {
        throw new TargetLoginError('the database does not speak the 4.1 protocol', false);
      }
    }
    let caps = ((request.clientCaps & ~NEVER) | REQUIRED) & greeting.caps;
    if (request.database) caps |= CAP.CONNECT_WITH_DB & greeting.caps;
    else caps &= ~CAP.CONNECT_WITH_DB;
    // TLS decrypts at the socket: the relay reads the same packets either way.
    const secure = (greeting.caps & CAP.SSL) !== 0;
    if (!secure && target.tls) throw new TargetLoginError(TLS_NOT_OFFERED, false, { kind: 'tls' });
    if (secure) caps |= CAP.SSL;
    let plugin = greeting.plugin;
    if (plugin !== 'caching_sha2_password') plugin = 'mysql_native_password';
    let salt = greeting.salt;
    const auth = authResponse(plugin, target.password, salt);
    const head = Buffer.alloc(32);
    head.writeUInt32LE(caps >>> 0, 0);
    head.writeUInt32LE(request.maxPacket || 0x1000000, 4);
    head[8] = request.collation;
    if (secure) {
      reader.detach();
      socket = await startTls(socket, head, target);
      reader = new LoginReader(socket);
    }
    send(
      socket,
      Buffer.concat([
        head,
        Buffer.from(`${target.username}\0`, 'utf8'),
        Buffer.from([auth.length]),
        auth,
        caps & CAP.CONNECT_WITH_DB ? Buffer.from(`${request.database}\0`, 'utf8') : Buffer.alloc(0),
        Buffer.from(`${plugin}\0`, 'latin1'),
      ]),
      secure ? 2 : 1,
    );
    for (;;) {
      const packet = await reader.next();
      const p = packet.payload;
      const reply = (payload: Buffer): void => send(socket, payload, packet.seq + 1);
      if (p[0] === 0x00) {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abandon);
        return {
          socket,
          ok: p,
          rest: reader.detach(),
          serverVersion: greeting.serverVersion,
          threadId: greeting.threadId,
        };
      }
      if (p[0] === 0xff) throw serverError(p, true);
      if (p[0] === 0xfe) {
        // AuthSwitchRequest: string<NUL> plugin / string<EOF> data (the new scramble + NUL).
        const r = new Reader(p);
        r.skip(1);
        plugin = r.nulString().toString('latin1');
        const data = r.rest();
        salt = data.length > 20 ? data.subarray(0, 20) : data;
        reply(authResponse(plugin, target.password, salt));
      } else if (p[0] === 0x01 && plugin === 'caching_sha2_password') {
        // AuthMoreData: 0x03 fast auth done (an OK follows), 0x04 full auth wanted, or the PEM.
        if (p[1] === 0x03 && p.length === 2) continue;
        // Full auth inside TLS: the password itself, as MySQL's client sends it there.
        if (p[1] === 0x04 && p.length === 2 && secure) {
          reply(Buffer.from(`${target.password}\0`, 'utf8'));
        } else if (p[1] === 0x04 && p.length === 2) reply(Buffer.from([0x02]));
        else reply(rsaPassword(target.password, salt, p.subarray(1)));
      } else {
        throw new TargetLoginError('the database sent an unexpected login packet', false);
      }
    }
  } catch (err) {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abandon);
    reader.detach();
    socket.destroy();
    // Given up by the caller: whatever the destroyed socket made of it.
    if (signal?.aborted) {
      throw new TargetLoginError('the login was given up', false, { kind: 'timeout', cause: err });
    }
    if (err instanceof TargetLoginError) throw err;
    if (err instanceof Malformed) throw new TargetLoginError(err.message, false);
    throw new TargetLoginError('the database closed the connection during login', false, {
      kind: 'protocol',
      cause: err,
    });
  }
}
