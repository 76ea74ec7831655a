/**
 * PostgreSQL wire protocol 3.0 framing (https://www.postgresql.org/docs/current/protocol.html):
 * a reader that cuts a byte stream into messages, and the few messages the proxy writes itself.
 * Every message after start-up is a type byte and an Int32 length that counts itself; start-up
 * packets (StartupMessage, SSLRequest, CancelRequest) have the length and no type.
 */
export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** Largest message the proxy reads whole from a client (a Bind with large values, a COPY row). */
export const CLIENT_MESSAGE_MAX = 64 * 1024 * 1024;
/** Start-up packets are small; PostgreSQL itself refuses those over 10,000 bytes. */
export const STARTUP_MAX = 10_000;

export class ProtocolError extends Error {}

/** One message: its type (0 for start-up packets) and its body without the header. */
export interface Message {
  type: number;
  body: Buffer;
  /** The whole message as it arrived (header and body), for forwarding unchanged. */
  raw: Buffer;
}

/** Collects chunks and hands out whole messages. */
export class MessageReader {
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(
    private readonly max: number,
    /** Start-up packets have no type byte. */
    public startup = false,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The next whole message, or undefined until more bytes arrive. */
  next(): Message | undefined {
    const head = this.startup ? 4 : 5;
    if (this.length < head) return undefined;
    // The size is read from the header alone; the chunks are joined only once the whole
    // message is here (joining on every chunk would cost the square of a large message).
    const header = this.peek(head);
    const size = this.startup ? header.readInt32BE(0) : header.readInt32BE(1);
    if (size < 4 || size > this.max) throw new ProtocolError(`a message of ${size} bytes`);
    const total = this.startup ? size : size + 1;
    if (this.length < total) return undefined;
    const buffer = this.flatten();
    // Usually the message is all the chunk holds: it is passed on as that chunk, no view made.
    const whole = total === buffer.length;
    const raw = whole ? buffer : buffer.subarray(0, total);
    this.chunks = whole ? [] : [buffer.subarray(total)];
    this.length -= total;
    return { type: this.startup ? 0 : raw[0]!, body: raw.subarray(head), raw };
  }

  /** The first `n` bytes (n ≤ length), copied out of the chunks only when the first is short. */
  private peek(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= n) return first;
    const out = Buffer.alloc(n);
    let filled = 0;
    for (const chunk of this.chunks) {
      filled += chunk.copy(out, filled, 0, Math.min(chunk.length, n - filled));
      if (filled === n) break;
    }
    return out;
  }

  /** How many bytes are received and not yet handed out as messages. */
  get buffered(): number {
    return this.length;
  }

  /** Bytes received and not yet handed out as messages. */
  drain(): Buffer {
    const buffer = this.flatten();
    this.chunks = [];
    this.length = 0;
    return buffer;
  }

  private flatten(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.length)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }
}

/** Reads NUL-terminated strings and integers from a message body. */
export class BodyReader {
  private at = 0;
  constructor(private readonly body: Buffer) {}

  cstring(): string {
    const end = this.body.indexOf(0, this.at);
    if (end < 0) throw new ProtocolError('a string without its end');
    const text = this.body.toString('utf8', this.at, end);
    this.at = end + 1;
    return text;
  }
  int32(): number {
    if (this.at + 4 > this.body.length) throw new ProtocolError('a message cut short');
    const value = this.body.readInt32BE(this.at);
    this.at += 4;
    return value;
  }
  int16(): number {
    if (this.at + 2 > this.body.length) throw new ProtocolError('a message cut short');
    const value = this.body.readInt16BE(this.at);
    this.at += 2;
    return value;
  }
  bytes(n: number): Buffer {
    if (n < 0 || this.at + n > this.body.length) throw new ProtocolError('a message cut short');
    const value = this.body.subarray(this.at, this.at + n);
    this.at += n;
    return value;
  }
  rest(): Buffer {
    const value = this.body.subarray(this.at);
    this.at = this.body.length;
    return value;
  }
  get done(): boolean {
    return this.at >= this.body.length;
  }
}

export function message(type: string, ...parts: (Buffer | string | number)[]): Buffer {
  const body = Buffer.concat(parts.map(encodePart));
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/** A start-up packet (no type byte). */
export function startupPacket(...parts: (Buffer | string | number)[]): Buffer {
  const body = Buffer.concat(parts.map(encodePart));
  const header = Buffer.alloc(4);
  header.writeInt32BE(body.length + 4, 0);
  return Buffer.concat([header, body]);
}

/** Strings become C strings, numbers Int32. */
function encodePart(part: Buffer | string | number): Buffer {
  if (Buffer.isBuffer(part)) return part;
  if (typeof part === 'string') return Buffer.from(`${part}\0`, 'utf8');
  const b = Buffer.alloc(4);
  b.writeInt32BE(part, 0);
  return b;
}

export interface ErrorFields {
  severity: 'ERROR' | 'FATAL';
  /** SQLSTATE. */
  code: string;
  message: string;
  hint?: string;
}

export function errorResponse(e: ErrorFields): Buffer {
  const field = (t: string, v: string) => Buffer.from(`${t}${v}\0`, 'utf8');
  return message(
    'E',
    field('S', e.severity),
    field('V', e.severity),
    field('C', e.code),
    field('M', e.message),
    ...(e.hint ? [field('H', e.hint)] : []),
    Buffer.from([0]),
  );
}

/** The fields of an ErrorResponse or NoticeResponse body, by field type letter. */
export function errorFields(body: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    if (end < 0) break;
    fields.set(String.fromCharCode(body[at]!), body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return fields;
}

export const authenticationOk = (): Buffer => message('R', 0);
export const authenticationCleartext = (): Buffer => message('R', 3);
export const readyForQuery = (status: number): Buffer => message('Z', Buffer.from([status]));
export function backendKeyData(pid: number, secret: number): Buffer {
  return message('K', pid, secret);
}
