/**
 * The client side of the login: the gateway plays a MySQL server. It greets with a
 * HandshakeV10 (a fresh scramble, mysql_native_password), upgrades to TLS when the client sends
 * an SSLRequest and TLS is configured, and reads the HandshakeResponse41. The user name is the
 * code; the gateway does not check the password of a normal code (the code is the secret), so
 * whatever the client's auth plugin sent is ignored.
 *
 * A temporary authorization has a real password: server.ts then asks for it as a MySQL 8
 * server asks a caching_sha2_password account's (client-password.ts: an AuthSwitchRequest to
 * caching_sha2_password, then full authentication). Stock clients need no option: `mysql -u
 * USER -p` and the member types the one-time password; mysql2 with its defaults. Over TLS the
 * client sends the password as typed (inside TLS); without TLS it encrypts it with the
 * gateway's RSA public key, which it asks for. A client that names mysql_clear_password itself
 * is taken at its word over TLS only (`TlsRequired` otherwise, as for any password in clear).
 *
 * Limits: only 4.1 clients (CLIENT_PROTOCOL_41) are accepted; no compression. The connection
 * id in the greeting is the gateway's own (random, high), not the target's thread id, which is
 * not known yet: a client's Ctrl-C sends `KILL QUERY <id>` through a second connection, and the
 * relay turns that id into the target's thread id (server.ts, relay.ts).
 */
import crypto from 'node:crypto';
import type net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { CAP, ER, LoginReader, Malformed, Reader, STATUS, send, type Packet } from './packets';

export const SERVER_VERSION = '5.7.0-Portcullis';
/** utf8mb4_general_ci: what the greeting announces; the client's own choice is passed on. */
export const DEFAULT_COLLATION = 45;

/**
 * What the gateway offers a client. Not offered, on purpose: COMPRESS (not implemented),
 * LOCAL_FILES (LOAD DATA LOCAL would read the member's files into the target unseen),
 * DEPRECATE_EOF, SESSION_TRACK and QUERY_ATTRIBUTES (they change packet layouts the gateway
 * parses; both sides then speak classic EOF packets, relayed byte for byte).
 * LONG_PASSWORD also tells MariaDB clients that this is a MySQL-style server (no MariaDB
 * extended capabilities in the reserved bytes).
 */
export const OFFERED_CAPS =
  CAP.LONG_PASSWORD |
  CAP.FOUND_ROWS |
  CAP.LONG_FLAG |
  CAP.CONNECT_WITH_DB |
  CAP.NO_SCHEMA |
  CAP.ODBC |
  CAP.IGNORE_SPACE |
  CAP.PROTOCOL_41 |
  CAP.INTERACTIVE |
  CAP.IGNORE_SIGPIPE |
  CAP.TRANSACTIONS |
  CAP.SECURE_CONNECTION |
  CAP.MULTI_STATEMENTS |
  CAP.MULTI_RESULTS |
  CAP.PS_MULTI_RESULTS |
  CAP.PLUGIN_AUTH |
  CAP.CONNECT_ATTRS |
  CAP.PLUGIN_AUTH_LENENC_CLIENT_DATA;

export interface ClientLogin {
  /** The socket to go on with (a TLSSocket after an upgrade). */
  socket: Duplex;
  reader: LoginReader;
  /** Capabilities both sides have (the client's AND ours). */
  caps: number;
  maxPacket: number;
  collation: number;
  username: string;
  database: string;
  /** The sequence id of the client's last packet; the gateway answers with seq + 1. */
  seq: number;
  tls: boolean;
  /** The connection id the greeting gave the client (what its Ctrl-C will ask to kill). */
  connectionId: number;
  /** The greeting's 20-byte scramble (the nonce a first caching_sha2_password reply answers). */
  nonce: Buffer;
  /** The auth plugin the HandshakeResponse names ('' for none). */
  authPlugin: string;
  /**
   * What that plugin sent: a scramble, or with mysql_clear_password the password itself (a
   * secret: read by client-password.ts only, never logged).
   */
  authData: Buffer;
}

/** A scramble like a real server's: 20 printable bytes, never NUL (part 2 is NUL-terminated). */
export function scramble(): Buffer {
  const raw = crypto.randomBytes(20);
  for (let i = 0; i < raw.length; i++) raw[i] = 0x21 + ((raw[i] as number) % 94);
  return raw;
}

/**
 * HandshakeV10: int<1> 10 / string<NUL> server version / int<4> connection id /
 * string[8] scramble part 1 / int<1> 0 / int<2> capabilities (low) / int<1> collation /
 * int<2> status / int<2> capabilities (high) / int<1> scramble length / string[10] reserved /
 * string[13] scramble part 2 (12 + NUL) / string<NUL> auth plugin name.
 */
function greeting(salt: Buffer, caps: number, connectionId: number): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(connectionId, 0);
  const flags = Buffer.alloc(18);
  flags.writeUInt16LE(caps & 0xffff, 0);
  flags[2] = DEFAULT_COLLATION;
  flags.writeUInt16LE(STATUS.AUTOCOMMIT, 3);
  flags.writeUInt16LE(caps >>> 16, 5);
  flags[7] = 21;
  return Buffer.concat([
    Buffer.from([10]),
    Buffer.from(`${SERVER_VERSION}\0`, 'latin1'),
    head,
    salt.subarray(0, 8),
    Buffer.from([0]),
    flags,
    salt.subarray(8, 20),
    Buffer.from([0]),
    Buffer.from('mysql_native_password\0', 'latin1'),
  ]);
}

/** A connection id as the gateway greets with: random, and high, above most servers' own. */
export function randomConnectionId(): number {
  return 0xf0000000 + crypto.randomInt(0x0fffffff);
}

/** SSLRequest: the first 32 bytes of a HandshakeResponse41 with CLIENT_SSL set. */
const SSL_REQUEST_LENGTH = 32;

/**
 * HandshakeResponse41: int<4> capabilities / int<4> max packet / int<1> collation /
 * string[23] filler / string<NUL> user / auth response (lenenc, or int<1> length) /
 * string<NUL> database (CONNECT_WITH_DB) / string<NUL> plugin (PLUGIN_AUTH) / attributes.
 */
function parseResponse(payload: Buffer): {
  caps: number;
  maxPacket: number;
  collation: number;
  username: string;
  database: string;
  authPlugin: string;
  authData: Buffer;
} {
  const r = new Reader(payload);
  const caps = r.u32();
  if (!(caps & CAP.PROTOCOL_41)) throw new Malformed('the client is too old (no 4.1 protocol)');
  const maxPacket = r.u32();
  const collation = r.u8();
  r.skip(23);
  const username = r.nulString().toString('utf8');
  let authData: Buffer;
  if (caps & CAP.PLUGIN_AUTH_LENENC_CLIENT_DATA) authData = r.bytes(r.lenenc());
  else if (caps & CAP.SECURE_CONNECTION) authData = r.bytes(r.u8());
  else authData = r.nulString();
  const database = caps & CAP.CONNECT_WITH_DB && r.left > 0 ? r.nulString().toString('utf8') : '';
  const authPlugin = caps & CAP.PLUGIN_AUTH && r.left > 0 ? r.nulString().toString('latin1') : '';
  // Connection attributes are not needed.
  return { caps, maxPacket, collation, username, database, authPlugin, authData };
}

function expectSeq(packet: Packet, seq: number): void {
  if (packet.seq !== seq) throw new Malformed('packets out of order', ER.OUT_OF_ORDER);
}

/** Greets the client and reads its login (upgrading to TLS on an SSLRequest). */
export async function readClientLogin(
  socket: net.Socket,
  secureContext: tls.SecureContext | undefined,
  /** The connection id to greet with (server.ts keeps them unique among live connections). */
  connectionId = randomConnectionId(),
): Promise<ClientLogin> {
  const caps = OFFERED_CAPS | (secureContext ? CAP.SSL : 0);
  let reader = new LoginReader(socket);
  let stream: Duplex = socket;
  const nonce = scramble();
  send(socket, greeting(nonce, caps, connectionId), 0);
  let packet = await reader.next();
  expectSeq(packet, 1);
  let secure = false;
  if (packet.payload.length === SSL_REQUEST_LENGTH) {
    const flags = packet.payload.readUInt32LE(0);
    if (!(flags & CAP.SSL) || !secureContext) throw new Malformed('bad handshake response');
    // What came behind the SSLRequest (the ClientHello) goes back into the socket: TLSSocket
    // reads a net.Socket's buffered data before its own.
    socket.pause();
    const rest = reader.detach();
    if (rest.length > 0) socket.unshift(rest);
    const secured = new tls.TLSSocket(socket, { isServer: true, secureContext });
    await new Promise<void>((resolve, reject) => {
      secured.once('secure', resolve);
      secured.once('error', reject);
      secured.once('close', () => reject(new Error('closed during the TLS handshake')));
    });
    stream = secured;
    secure = true;
    reader = new LoginReader(secured);
    packet = await reader.next();
    expectSeq(packet, 2);
  }
  const response = parseResponse(packet.payload);
  return {
    socket: stream,
    reader,
    caps: response.caps & caps,
    maxPacket: response.maxPacket,
    collation: response.collation,
    username: response.username,
    database: response.database,
    seq: packet.seq,
    tls: secure,
    connectionId,
    nonce,
    authPlugin: response.authPlugin,
    authData: response.authData,
  };
}
