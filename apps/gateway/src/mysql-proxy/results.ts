/**
 * Follows the target's responses as their bytes stream by, without holding them: the relay
 * forwards every chunk to the client as it arrives and feeds it here too. The tracker frames
 * packets, keeps at most the first {@link PREFIX_MAX} bytes of each (a view when it lies in one
 * chunk), and walks the response grammar of the command in flight (dev.mysql.com "COM_QUERY
 * Response", "COM_STMT_PREPARE Response", "Binary Protocol Resultset"; classic EOF packets,
 * since DEPRECATE_EOF is never negotiated) to tell when the response is complete and what each
 * result was: affected rows (OK), returned rows (result set), or the error text (ERR).
 *
 * SERVER_MORE_RESULTS_EXISTS in an OK or EOF means another result follows (multi-statements,
 * stored procedures); the response ends with the first result without it, or with an ERR.
 */
import { HEADER, MAX_PAYLOAD, Malformed, Reader, STATUS, readErr } from './packets';

/** Enough for an OK's counters and status, an ERR's text, a PREPARE_OK, an EOF. */
const PREFIX_MAX = 1024;

/** What a command's response looks like. */
export type Expect =
  /** OK, ERR, or result sets (COM_QUERY, COM_STMT_EXECUTE, COM_PROCESS_INFO). */
  | 'results'
  /** PREPARE_OK and its parameter and column definitions, or ERR. */
  | 'prepare'
  /** Rows until EOF or ERR (COM_STMT_FETCH). */
  | 'rows'
  /** Column definitions until EOF, or ERR (COM_FIELD_LIST). */
  | 'fields'
  /** Exactly one packet of any kind (OK, ERR, EOF, COM_STATISTICS' text). */
  | 'single';

export type Result =
  | { kind: 'ok'; rows: number }
  | { kind: 'rows'; rows: number }
  | { kind: 'error'; message: string };

export interface ResponseEvents {
  onResult(result: Result): void;
  /** The whole response arrived; the next command may be sent. */
  onDone(): void;
  /** A COM_STMT_PREPARE response named its statement id. */
  onPrepared(statementId: number): void;
}

/** What follows a run of definitions and their EOF. */
type Then = 'rows' | 'done' | State;

type State =
  | { at: 'idle' }
  | { at: 'first'; single: boolean }
  | { at: 'columns'; left: number; then: Then }
  | { at: 'eof'; then: Then }
  | { at: 'rows'; count: number }
  | { at: 'fields' }
  | { at: 'prepare-first' };

// The states nothing mutates are made once ('columns' and 'rows' count, so each is new).
const IDLE: State = { at: 'idle' };
const FIRST_RESULT: State = { at: 'first', single: false };
const SINGLE: State = { at: 'first', single: true };
const FIELDS: State = { at: 'fields' };
const PREPARE_FIRST: State = { at: 'prepare-first' };

const isEof = (first: number, length: number): boolean => first === 0xfe && length < 9;

/** OK_Packet: 0x00 / int<lenenc> affected_rows / int<lenenc> last_insert_id / int<2> status. */
function readOk(prefix: Buffer): { rows: number; status: number } {
  const r = new Reader(prefix);
  r.skip(1);
  const rows = r.lenenc();
  r.lenenc();
  return { rows, status: r.u16() };
}

/** EOF_Packet: 0xfe / int<2> warnings / int<2> status, read where it lies (`buf[start, end)`). */
const eofStatus = (buf: Buffer, start: number, end: number): number =>
  end - start >= 5 ? buf.readUInt16LE(start + 3) : 0;

export class ResponseTracker {
  private state: State = IDLE;
  // Framing across chunks.
  private header = Buffer.alloc(HEADER);
  private headerHave = 0;
  private left = 0;
  private length = 0;
  private parts: Buffer[] = [];
  private have = 0;
  private continuing = false;

  /** `events` hear of every response this tracker follows (one sink: nothing made per command). */
  constructor(private readonly events: ResponseEvents) {}

  /** Starts following the response to a command that was just forwarded. */
  expect(expect: Expect): void {
    this.state =
      expect === 'results'
        ? FIRST_RESULT
        : expect === 'single'
          ? SINGLE
          : expect === 'rows'
            ? { at: 'rows', count: 0 }
            : expect === 'fields'
              ? FIELDS
              : PREPARE_FIRST;
  }

  get busy(): boolean {
    return this.state.at !== 'idle';
  }

  /** Reads one chunk of the target's bytes (the caller forwards them unchanged). */
  feed(chunk: Buffer): void {
    const size = chunk.length;
    let offset = 0;
    while (offset < size) {
      // The common case, read in place: a whole packet in this chunk (no copy, no view made).
      if (this.headerHave === 0 && size - offset >= HEADER) {
        const length =
          (chunk[offset] as number) |
          ((chunk[offset + 1] as number) << 8) |
          ((chunk[offset + 2] as number) << 16);
        const body = offset + HEADER;
        if (size - body >= length) {
          offset = body + length;
          this.length = length;
          this.complete(chunk, body, body + Math.min(length, PREFIX_MAX));
          continue;
        }
      }
      if (this.headerHave < HEADER) {
        const n = Math.min(HEADER - this.headerHave, size - offset);
        chunk.copy(this.header, this.headerHave, offset, offset + n);
        this.headerHave += n;
        offset += n;
        if (this.headerHave < HEADER) return;
        this.length = this.header.readUIntLE(0, 3);
        this.left = this.length;
        this.parts = [];
        this.have = 0;
        if (this.left === 0) this.completeParts();
        continue;
      }
      const n = Math.min(this.left, size - offset);
      if (this.have < PREFIX_MAX) {
        const keep = Math.min(n, PREFIX_MAX - this.have);
        this.parts.push(chunk.subarray(offset, offset + keep));
        this.have += keep;
      }
      offset += n;
      this.left -= n;
      if (this.left === 0) this.completeParts();
    }
  }

  /** A packet read across chunks: its kept parts make its prefix. */
  private completeParts(): void {
    this.headerHave = 0;
    const prefix = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
    this.parts = [];
    this.complete(prefix, 0, prefix.length);
  }

  /** A packet whose first bytes (at most PREFIX_MAX) are `buf[start, end)`. */
  private complete(buf: Buffer, start: number, end: number): void {
    const wasContinuing = this.continuing;
    this.continuing = this.length === MAX_PAYLOAD;
    // The tail of a 16 MiB payload is not a packet of its own.
    if (wasContinuing) return;
    this.packet(buf, start, end, this.length);
  }

  private result(result: Result): void {
    this.events.onResult(result);
  }

  private done(): void {
    this.state = IDLE;
    this.events.onDone();
  }

  /** After an OK or EOF: another result follows, or the response is complete. */
  private next(status: number): void {
    if (status & STATUS.MORE_RESULTS_EXISTS) this.state = FIRST_RESULT;
    else this.done();
  }

  /**
   * One packet of `length` bytes whose first ones are `buf[start, end)`. Only the packets that
   * say something (OK, ERR, EOF, a column count) are looked into; a row only counts. A view of
   * the bytes is made only for what is read through one (an OK, an ERR, a large count): a
   * result set's definitions and EOFs are read in place.
   */
  private packet(buf: Buffer, start: number, end: number, length: number): void {
    const first = start < end ? (buf[start] as number) : -1;
    const s = this.state;
    if (s.at === 'rows' && first !== 0xff && !isEof(first, length)) {
      s.count += 1;
      return;
    }
    switch (s.at) {
      case 'idle':
        // Unsolicited (a server shutting the connection down says why): forwarded, not logged.
        return;
      case 'first':
        if (s.single) {
          if (first === 0xff) return this.error(buf, start, end);
          this.done();
          return;
        }
        if (first === 0x00) {
          const ok = readOk(buf.subarray(start, end));
          this.result({ kind: 'ok', rows: ok.rows });
          this.next(ok.status);
        } else if (first === 0xff) {
          this.error(buf, start, end);
        } else if (first === 0xfb) {
          // LOCAL INFILE request: CLIENT_LOCAL_FILES is never requested, so a server asking
          // anyway is not one the gateway understands.
          throw new Malformed('the database asked for a local file');
        } else {
          // A column count under 251 is its own first byte (a length-encoded integer); an
          // empty packet goes to the reader, which refuses it.
          const count =
            first > 0 && first < 0xfb ? first : new Reader(buf.subarray(start, end)).lenenc();
          this.state = { at: 'columns', left: count, then: 'rows' };
          if (count === 0) throw new Malformed('a result set without columns');
        }
        return;
      case 'columns':
        if (first === 0xff) return this.error(buf, start, end);
        s.left -= 1;
        if (s.left === 0) this.state = { at: 'eof', then: s.then };
        return;
      case 'eof': {
        if (!isEof(first, length)) throw new Malformed('expected an EOF packet');
        if (s.then === 'done') return this.done();
        if (s.then !== 'rows') return void (this.state = s.then);
        // A cursor was opened (COM_STMT_EXECUTE with a cursor): rows come with COM_STMT_FETCH.
        if (eofStatus(buf, start, end) & STATUS.CURSOR_EXISTS) {
          this.result({ kind: 'rows', rows: 0 });
          return this.done();
        }
        this.state = { at: 'rows', count: 0 };
        return;
      }
      case 'rows':
        if (isEof(first, length)) {
          this.result({ kind: 'rows', rows: s.count });
          this.next(eofStatus(buf, start, end));
        } else if (first === 0xff) {
          this.error(buf, start, end);
        } else {
          s.count += 1;
        }
        return;
      case 'fields':
        if (first === 0xff) return this.error(buf, start, end);
        if (isEof(first, length)) this.done();
        return;
      case 'prepare-first': {
        if (first === 0xff) return this.error(buf, start, end);
        // COM_STMT_PREPARE_OK: 0x00 / int<4> statement id / int<2> columns / int<2> params.
        const r = new Reader(buf.subarray(start, end));
        r.skip(1);
        const id = r.u32();
        const columns = r.u16();
        const params = r.u16();
        this.events.onPrepared(id);
        this.result({ kind: 'ok', rows: 0 });
        // Parameter definitions and their EOF come first, then the columns and theirs.
        const columnDefs: Then =
          columns > 0 ? { at: 'columns', left: columns, then: 'done' } : 'done';
        if (params > 0) this.state = { at: 'columns', left: params, then: columnDefs };
        else if (columnDefs !== 'done') this.state = columnDefs;
        else this.done();
        return;
      }
    }
  }

  /** An ERR packet (`buf[start, end)`): its text is the result, and the response is over. */
  private error(buf: Buffer, start: number, end: number): void {
    this.result({ kind: 'error', message: readErr(buf.subarray(start, end)).message });
    this.done();
  }
}
