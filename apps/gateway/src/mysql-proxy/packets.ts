/**
 * MySQL wire framing shared by both sides of the proxy: the packet header, length-encoded
 * integers and strings, the handful of server packets the gateway writes itself (OK, ERR,
 * AuthSwitchRequest) and a promise-based reader for the login phase.
 *
 * Wire layout of every packet (dev.mysql.com "MySQL Packets"):
 *   int<3> payload_length / int<1> sequence_id / payload
 * A payload of exactly 0xffffff bytes continues in the next packet (16 MiB splitting).
 *
 * Limits: the login-phase reader refuses a logical payload over {@link LOGIN_PACKET_MAX}; the
 * command phase has its own incremental framing (relay.ts) because it must not wait for whole
 * result sets.
 */
import type { Duplex } from 'node:stream';

export const HEADER = 4;
/** A packet of this payload length is continued by the next one. */
export const MAX_PAYLOAD = 0xffffff;
/** Handshake and auth packets are small; anything bigger is garbage or an attack. */
export const LOGIN_PACKET_MAX = 64 * 1024;

/** Capability flags (dev.mysql.com "Capabilities Flags"). */
export const CAP = {
  LONG_PASSWORD: 1,
  FOUND_ROWS: 2,
  LONG_FLAG: 4,
  CONNECT_WITH_DB: 8,
  NO_SCHEMA: 16,
  COMPRESS: 32,
  ODBC: 64,
  LOCAL_FILES: 128,
  IGNORE_SPACE: 256,
  PROTOCOL_41: 512,
  INTERACTIVE: 1024,
  SSL: 2048,
  IGNORE_SIGPIPE: 4096,
  TRANSACTIONS: 8192,
  SECURE_CONNECTION: 32768,
  MULTI_STATEMENTS: 1 << 16,
  MULTI_RESULTS: 1 << 17,
  PS_MULTI_RESULTS: 1 << 18,
  PLUGIN_AUTH: 1 << 19,
  CONNECT_ATTRS: 1 << 20,
  PLUGIN_AUTH_LENENC_CLIENT_DATA: 1 << 21,
  DEPRECATE_EOF: 1 << 24,
} as const;

/** Server status flags carried by OK and EOF packets. */
export const STATUS = {
  AUTOCOMMIT: 0x0002,
  MORE_RESULTS_EXISTS: 0x0008,
  CURSOR_EXISTS: 0x0040,
} as const;

/** Error numbers and SQLSTATEs the gateway answers with (MySQL's own, so clients know them). */
export const ER = {
  ACCESS_DENIED: { errno: 1045, sqlState: '28000' },
  HANDSHAKE: { errno: 1043, sqlState: '08S01' },
  OUT_OF_ORDER: { errno: 1156, sqlState: '08S01' },
  TOO_LARGE: { errno: 1153, sqlState: '08S01' },
  READ_TIMEOUT: { errno: 1159, sqlState: '08S01' },
  TABLE_ACCESS_DENIED: { errno: 1142, sqlState: '42000' },
  DB_ACCESS_DENIED: { errno: 1044, sqlState: '42000' },
  NOT_SUPPORTED: { errno: 1235, sqlState: '42000' },
  UNKNOWN_COM: { errno: 1047, sqlState: '08S01' },
  KILL_DENIED: { errno: 1095, sqlState: 'HY000' },
  UNKNOWN: { errno: 1105, sqlState: 'HY000' },
} as const;
export type ErrorKind = (typeof ER)[keyof typeof ER];

/** Frames one payload into packets (splitting at 16 MiB), numbering from `seq`. */
export function frame(payload: Buffer, seq: number): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  let s = seq;
  for (;;) {
    const length = Math.min(MAX_PAYLOAD, payload.length - offset);
    const header = Buffer.alloc(HEADER);
    header.writeUIntLE(length, 0, 3);
    header[3] = s & 0xff;
    parts.push(header, payload.subarray(offset, offset + length));
    offset += length;
    s += 1;
    if (length < MAX_PAYLOAD) break;
  }
  return Buffer.concat(parts);
}

/** A cursor over one payload; every read throws {@link Malformed} past the end. */
export class Reader {
  offset = 0;
  constructor(readonly buf: Buffer) {}

  get left(): number {
    return this.buf.length - this.offset;
  }

  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new Malformed('truncated packet');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.offset++] as number;
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16LE(this.offset);
    this.offset += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }

  bytes(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }

  skip(n: number): void {
    this.bytes(n);
  }

  /** int<lenenc>: 0xfc + 2, 0xfd + 3, 0xfe + 8 bytes; 0xfb (NULL) and 0xff are not integers. */
  lenenc(): number {
    const first = this.u8();
    if (first < 0xfb) return first;
    if (first === 0xfc) return this.u16();
    if (first === 0xfd) return this.bytes(3).readUIntLE(0, 3);
    if (first === 0xfe) return Number(this.bytes(8).readBigUInt64LE(0));
    throw new Malformed('bad length-encoded integer');
  }

  /** string<NUL>; without a NUL the rest of the payload. */
  nulString(): Buffer {
    const end = this.buf.indexOf(0, this.offset);
    const stop = end === -1 ? this.buf.length : end;
    const v = this.buf.subarray(this.offset, stop);
    this.offset = end === -1 ? stop : stop + 1;
    return v;
  }

  rest(): Buffer {
    return this.bytes(this.left);
  }
}

/** A peer sent bytes that are not the protocol (the connection is closed). */
export class Malformed extends Error {
  constructor(
    message: string,
    readonly kind: ErrorKind = ER.HANDSHAKE,
  ) {
    super(message);
    this.name = 'Malformed';
  }
}

export function lenencInt(n: number): Buffer {
  if (n < 0xfb) return Buffer.from([n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = 0xfc;
    b.writeUInt16LE(n, 1);
    return b;
  }
  if (n < 0x1000000) {
    const b = Buffer.alloc(4);
    b[0] = 0xfd;
    b.writeUIntLE(n, 1, 3);
    return b;
  }
  const b = Buffer.alloc(9);
  b[0] = 0xfe;
  b.writeBigUInt64LE(BigInt(n), 1);
  return b;
}

/** ERR_Packet: 0xff / int<2> error_code / '#' / string[5] sql_state / string<EOF> message. */
export function errPayload(kind: ErrorKind, message: string): Buffer {
  const head = Buffer.alloc(9);
  head[0] = 0xff;
  head.writeUInt16LE(kind.errno, 1);
  head.write(`#${kind.sqlState}`, 3, 'latin1');
  return Buffer.concat([head, Buffer.from(message.slice(0, 1000), 'utf8')]);
}

/** OK_Packet: 0x00 / affected_rows / last_insert_id / int<2> status / int<2> warnings. */
export function okPayload(status = STATUS.AUTOCOMMIT): Buffer {
  return Buffer.from([0x00, 0, 0, status & 0xff, status >> 8, 0, 0]);
}

/** AuthSwitchRequest: 0xfe / string<NUL> plugin name / string<EOF> plugin data. */
export function authSwitchPayload(plugin: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0xfe]), Buffer.from(`${plugin}\0`, 'latin1'), data]);
}

/** What an ERR_Packet says: "#28000 Access denied…" (4.1 layout). */
export function readErr(payload: Buffer): { errno: number; message: string } {
  if (payload.length < 3) return { errno: 0, message: 'malformed error packet' };
  const errno = payload.readUInt16LE(1);
  const hasState = payload[3] === 0x23; // '#'
  return { errno, message: payload.subarray(hasState ? 9 : 3).toString('utf8') };
}

export interface Packet {
  seq: number;
  payload: Buffer;
}

/**
 * Reads whole packets from a socket during the login phase. detach() hands back what was read
 * past the last packet (a TLS ClientHello right behind an SSLRequest, or a first command).
 */
export class LoginReader {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (p: Packet) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;
  private readonly onData = (chunk: Buffer): void => {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    this.pump();
  };
  private readonly onEnd = (): void => this.fail(new Error('the peer closed the connection'));
  private readonly onError = (err: Error): void => this.fail(err);

  constructor(private readonly socket: Duplex) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
    socket.on('error', this.onError);
  }

  next(): Promise<Packet> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<Packet>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.pump();
    });
  }

  /** Stops reading; returns the bytes read past the last packet. */
  detach(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.off('error', this.onError);
    const rest = this.buffered;
    this.buffered = Buffer.alloc(0);
    return rest;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(err);
  }

  private pump(): void {
    if (!this.waiting) return;
    if (this.buffered.length < HEADER) return;
    const length = this.buffered.readUIntLE(0, 3);
    // A login payload never needs 16 MiB; 0xffffff here is garbage, not a continuation.
    if (length > LOGIN_PACKET_MAX) {
      this.fail(new Malformed('packet too large for the login phase', ER.TOO_LARGE));
      return;
    }
    if (this.buffered.length < HEADER + length) return;
    const packet = {
      seq: this.buffered[3] as number,
      payload: Buffer.from(this.buffered.subarray(HEADER, HEADER + length)),
    };
    this.buffered = this.buffered.subarray(HEADER + length);
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve(packet);
  }
}

/** Writes one payload as packet(s) numbered from `seq`. */
export function send(socket: Duplex, payload: Buffer, seq: number): void {
  if (!socket.destroyed) socket.write(frame(payload, seq));
}
