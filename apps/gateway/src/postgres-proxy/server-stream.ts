/**
 * The target's side of a PostgreSQL session, read as it passes: the bytes go on to the client
 * as they arrive (a result of any size streams, never held), while the message headers are
 * followed so the proxy knows what each reply answers. Only the small messages whose content
 * matters are held whole: ErrorResponse (which the proxy may replace), CommandComplete (the
 * row count), ReadyForQuery (the transaction status) and ParameterStatus (the client encoding). No copy is made of anything else.
 */
import { ProtocolError } from './messages';

/** Held whole: small, and their content matters. */
const HELD = new Set(['E', 'C', 'Z', 'S'].map((c) => c.charCodeAt(0)));
/** A held message larger than this is not one PostgreSQL sends. */
const HELD_MAX = 16 * 1024 * 1024;

export interface ServerStreamHandler {
  /** A message passed through; its body follows unchanged. */
  onPassed(type: number): void;
  /**
   * A held message arrived whole, as `buf[start, end)` (its type byte and length included; the
   * body from start + 5): returns what the client gets in its place, or undefined to pass it on
   * unchanged. Read in place: no view of it is made for a message that goes on as it is.
   */
  onHeld(type: number, buf: Buffer, start: number, end: number): Buffer | undefined;
}

export class ServerStream {
  private readonly header = Buffer.alloc(5);
  private headerLength = 0;
  /** Body bytes still to pass through of the current message. */
  private remaining = 0;
  private held: { type: number; raw: Buffer; filled: number } | undefined;

  constructor(private readonly handler: ServerStreamHandler) {}

  /** True between messages: the proxy may write a message of its own to the client. */
  get atBoundary(): boolean {
    return this.remaining === 0 && this.headerLength === 0 && this.held === undefined;
  }

  /**
   * Returns the pieces to write to the client, in order. Usually one: the chunk itself, when
   * every message it holds goes on unchanged (a held message lying whole in the chunk is read in
   * place, and passed on as it is unless the handler gives something else in its place).
   */
  feed(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    const size = chunk.length;
    let i = 0;
    /** Where bytes to pass unchanged begin in this chunk; -1 while bytes are being held. */
    let passFrom = this.held || this.headerLength > 0 ? -1 : 0;
    while (i < size) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, size - i);
        i += n;
        this.remaining -= n;
        continue;
      }
      if (this.held) {
        const h = this.held;
        const n = Math.min(h.raw.length - h.filled, size - i);
        chunk.copy(h.raw, h.filled, i, i + n);
        h.filled += n;
        i += n;
        if (h.filled === h.raw.length) {
          this.held = undefined;
          out.push(this.handler.onHeld(h.type, h.raw, 0, h.raw.length) ?? h.raw);
          passFrom = i;
        }
        continue;
      }
      const start = i;
      // A whole header here (the common case): read in place.
      if (this.headerLength === 0 && size - i >= 5) {
        const type = chunk[i] as number;
        const length = chunk.readInt32BE(i + 1);
        if (length < 4) throw new ProtocolError(`the database sent a message of ${length} bytes`);
        const end = i + 1 + length;
        if (!HELD.has(type)) {
          this.handler.onPassed(type);
          if (passFrom < 0) passFrom = start;
          i += 5;
          this.remaining = length - 4;
          continue;
        }
        if (length > HELD_MAX) throw new ProtocolError('the database sent an oversize message');
        if (end <= size) {
          // A held message whole in this chunk: no copy; it stays in the run unless replaced.
          const given = this.handler.onHeld(type, chunk, start, end);
          i = end;
          if (given === undefined) {
            if (passFrom < 0) passFrom = start;
          } else {
            if (passFrom >= 0 && start > passFrom) out.push(chunk.subarray(passFrom, start));
            out.push(given);
            passFrom = i;
          }
          continue;
        }
      }
      const startedHere = this.headerLength === 0;
      const n = Math.min(5 - this.headerLength, size - i);
      chunk.copy(this.header, this.headerLength, i, i + n);
      this.headerLength += n;
      i += n;
      if (this.headerLength < 5) {
        // A header cut by the chunk's end: held until the rest arrives.
        if (passFrom >= 0 && start > passFrom) out.push(chunk.subarray(passFrom, start));
        passFrom = -1;
        break;
      }
      this.headerLength = 0;
      const type = this.header[0]!;
      const length = this.header.readInt32BE(1);
      if (length < 4) throw new ProtocolError(`the database sent a message of ${length} bytes`);
      if (HELD.has(type)) {
        if (length > HELD_MAX) throw new ProtocolError('the database sent an oversize message');
        if (startedHere && passFrom >= 0 && start > passFrom) {
          out.push(chunk.subarray(passFrom, start));
        }
        passFrom = -1;
        const raw = Buffer.alloc(length + 1);
        this.header.copy(raw, 0);
        this.held = { type, raw, filled: 5 };
        if (length === 4) {
          this.held = undefined;
          out.push(this.handler.onHeld(type, raw, 0, raw.length) ?? raw);
          passFrom = i;
        }
        continue;
      }
      this.handler.onPassed(type);
      if (!startedHere) {
        // Its header began in the previous chunk and was held: it goes now.
        out.push(Buffer.from(this.header));
        passFrom = i;
      } else if (passFrom < 0) {
        passFrom = start;
      }
      this.remaining = length - 4;
    }
    if (passFrom >= 0 && size > passFrom) {
      // The whole chunk unchanged is passed as it is, not as a view of it.
      out.push(passFrom === 0 ? chunk : chunk.subarray(passFrom, size));
    }
    return out;
  }
}
