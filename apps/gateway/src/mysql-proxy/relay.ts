/**
 * The command phase: the client's commands are read whole (a COM_QUERY must be judged before a
 * byte of it reaches the target), checked, and forwarded one at a time; the target's responses
 * stream back to the client chunk by chunk as they arrive, never held whole, with backpressure
 * both ways (a side that cannot keep up pauses the other). results.ts follows each response to
 * log its outcome.
 *
 * Commands dispatch through {@link COMMANDS}. Relayed: text queries and prepared statements
 * (judged at prepare time; COM_STMT_EXECUTE logs the prepared text with the notice rules it
 * matched, and a prepare the target refuses is logged with its error, as the PostgreSQL proxy
 * logs a failed Parse; a statement a rule refuses is logged with the refusal's text as its
 * error), COM_INIT_DB (the database
 * must be one the resource offers), COM_PING, COM_FIELD_LIST, COM_SET_OPTION, COM_STATISTICS,
 * COM_PROCESS_INFO/KILL (the same as SHOW PROCESSLIST / KILL in SQL; a KILL of a connection id
 * the gateway greeted becomes the target's thread id, see translatedKill), COM_RESET_CONNECTION.
 * Refused (fail closed): COM_CHANGE_USER (it would log in as someone else), and every other
 * command (COM_CREATE_DB/COM_DROP_DB would bypass the rules; replication and
 * COM_SHUTDOWN/COM_DEBUG have no place behind a bastion; MariaDB's bulk execute is not
 * negotiated).
 *
 * One class (about 400 lines) because the client framing, the command queue, the response in
 * flight and the backpressure share their state; the command table keeps each handler short.
 *
 * Limits: texts are decoded as UTF-8 for judging and logging whatever the connection's
 * character set; a command is at most {@link COMMAND_MAX} bytes.
 */
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import { formatError } from '@portcullis/contract';
import type { DbSession, StatementEntry } from '../db-proxy/session';
import type { Logger } from '../core/logger';
import { sessionEndedText } from '../core/session-ended';
import { ER, HEADER, MAX_PAYLOAD, Malformed, errPayload, frame, type ErrorKind } from './packets';
import { ResponseTracker, type Expect } from './results';
import {
  decide,
  pairResults,
  type Decision,
  type Judged,
  type JudgedStatement,
  type TimedResult,
} from './statements';

/** The largest command the gateway reads (a big INSERT fits; a flood does not). */
export const COMMAND_MAX = 64 * 1024 * 1024;
const KILL = /^\s*KILL\s+(?:(QUERY|CONNECTION)\s+)?(\d{1,10})\s*;?\s*$/i;
/** Statement texts remembered per connection (a client that never closes them is cut off). */
const PREPARED_MAX = 10_000;

interface Command {
  payload: Buffer;
  /** Sequence id of its last packet: a refusal answers with the next one. */
  lastSeq: number;
  /** The client's own bytes of it, when they are one packet numbered 0: forwarded as they are. */
  packet?: Buffer;
}

export interface RelayOptions {
  client: Duplex;
  target: net.Socket;
  /** Bytes already read from each side past the login. */
  clientRest: Buffer;
  targetRest: Buffer;
  session: DbSession;
  database: string;
  offered: (database: string) => boolean;
  /**
   * The target's thread id behind a connection id the gateway greeted a client with, when that
   * connection came in by the same code (a Ctrl-C's `KILL QUERY <id>`).
   */
  targetThreadOf(connectionId: number): number | undefined;
  logger: Logger;
  /** Both sockets are gone. */
  onClosed(): void;
}

type Handler = (relay: Relay, command: Command) => void;

/**
 * What the relay does once the response in flight is complete, or cut short by a close: log
 * the statements it carried (and follow a `USE`), remember a prepared statement's text (and log
 * a prepare the target refused), or switch to the database a COM_INIT_DB named. Kept as data on
 * the relay rather than as a callback made per command: the command path runs for every query.
 */
type After =
  | {
      kind: 'log';
      judged: Judged;
      database: string;
      sentAt: { epoch: number; perf: number };
    }
  | {
      kind: 'prepare';
      text: string;
      /** The notice rules it matched (its alarm was raised when it was judged). */
      notice: string | undefined;
      database: string;
      sentAt: { epoch: number; perf: number };
    }
  | { kind: 'init-db'; database: string };

/** A command's payload as one packet numbered 0 (a payload of 16 MiB or more as several). */
function commandPacket(payload: Buffer): Buffer {
  if (payload.length >= MAX_PAYLOAD) return frame(payload, 0);
  const packet = Buffer.allocUnsafe(HEADER + payload.length);
  packet.writeUIntLE(payload.length, 0, 3);
  packet[3] = 0;
  payload.copy(packet, HEADER);
  return packet;
}

/**
 * The notice rules of a text's statements, each once; undefined when none matched (the common
 * case, which then allocates nothing: this runs for every query).
 */
function noticesIn(statements: Judged['statements']): string[] | undefined {
  let notices: string[] | undefined;
  for (const { notice } of statements) {
    if (notice && !notices?.includes(notice)) (notices ??= []).push(notice);
  }
  return notices;
}

/** The int<4> after the command byte: a statement id, or the connection id of a process kill. */
const idIn = (command: Command): number =>
  command.payload.length >= 5 ? command.payload.readUInt32LE(1) : -1;

const forwardAs =
  (expect: Expect | 'none'): Handler =>
  (relay, command) =>
    relay.forward(command, expect);

const COMMANDS: Record<number, Handler> = {
  0x01: (relay) => relay.quit(),
  0x02: (relay, command) => relay.initDb(command),
  0x03: (relay, command) => relay.query(command),
  0x04: forwardAs('fields'),
  0x09: forwardAs('single'),
  0x0a: forwardAs('results'),
  0x0c: (relay, command) => relay.processKill(command),
  0x0e: forwardAs('single'),
  0x11: (relay, command) =>
    relay.refuse(
      command,
      ER.NOT_SUPPORTED,
      'Portcullis: changing the user is not allowed through the gateway; connect with another code',
    ),
  0x16: (relay, command) => relay.prepare(command),
  0x17: (relay, command) => relay.execute(command),
  0x18: forwardAs('none'),
  0x19: (relay, command) => relay.closeStatement(command),
  0x1a: forwardAs('single'),
  0x1b: forwardAs('single'),
  0x1c: forwardAs('rows'),
  0x1f: (relay, command) => relay.resetConnection(command),
};

export class Relay {
  private readonly client: Duplex;
  private readonly target: net.Socket;
  private readonly tracker = new ResponseTracker({
    onResult: (result) => this.results.push({ result, endedAt: performance.now() }),
    onPrepared: (id) => {
      const after = this.after;
      if (after?.kind === 'prepare') {
        this.prepared.set(id, {
          text: after.text,
          ...(after.notice !== undefined && { notice: after.notice }),
        });
      }
    },
    onDone: () => this.responseDone(false),
  });
  /** The results of the response in flight. */
  private results: TimedResult[] = [];
  /** Its follow-up (see {@link After}). */
  private after: After | undefined;
  /** A response is expected for the command in flight. */
  private awaiting = false;
  private readonly queue: Command[] = [];
  /** Prepared statements by id: the text, and the notice rules it matched (logged per run). */
  private readonly prepared = new Map<number, JudgedStatement>();
  private database: string;
  /** A command is being judged or its response is on its way. */
  private busy = false;
  private closed = false;
  // Client framing: the packets of the command being read.
  private inHeader = Buffer.alloc(HEADER);
  private inHeaderHave = 0;
  private inLeft = 0;
  private inParts: Buffer[] = [];
  private inTotal = 0;
  private inSeq = -1;
  private inLastLength = 0;

  constructor(private readonly options: RelayOptions) {
    this.client = options.client;
    this.target = options.target;
    this.database = options.database;
    this.client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    this.target.on('data', (chunk: Buffer) => this.fromTarget(chunk));
    for (const socket of [this.client, this.target]) {
      socket.on('error', () => this.close());
      socket.on('close', () => this.close());
      socket.on('end', () => this.close());
    }
    options.session.onCut((reason) => this.cut(reason));
    if (options.targetRest.length > 0) this.fromTarget(options.targetRest);
    if (options.clientRest.length > 0) this.fromClient(options.clientRest);
    this.client.resume();
    this.target.resume();
  }

  // ---- reading the client ----

  private fromClient(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.frameClient(chunk);
    } catch (err) {
      const e = err instanceof Malformed ? err : new Malformed('bad packet');
      this.fatal(e.kind, `Portcullis: ${e.message}`, this.inSeq + 1);
      return;
    }
    this.pump();
    // Commands wait their turn; while one is waiting, the client is not read further. (Paused
    // only when one waits: pausing and resuming for every command costs a tick each.)
    if (this.queue.length > 0) this.client.pause();
  }

  /** 3-byte length + seq; a payload of exactly 0xffffff continues in the next packet. */
  private frameClient(chunk: Buffer): void {
    const size = chunk.length;
    let offset = 0;
    while (offset < size) {
      // The common case, read in place: a whole one-packet command in this chunk.
      if (
        this.inHeaderHave === 0 &&
        this.inParts.length === 0 &&
        this.inLastLength !== MAX_PAYLOAD &&
        size - offset >= HEADER
      ) {
        const length =
          (chunk[offset] as number) |
          ((chunk[offset + 1] as number) << 8) |
          ((chunk[offset + 2] as number) << 16);
        const end = offset + HEADER + length;
        // Anything else (empty, numbered wrong, 16 MiB, cut) goes the long way, which judges it.
        if (chunk[offset + 3] === 0 && length > 0 && length < MAX_PAYLOAD && end <= size) {
          this.queue.push({
            payload: chunk.subarray(offset + HEADER, end),
            lastSeq: 0,
            packet: chunk.subarray(offset, end),
          });
          this.inLastLength = length;
          offset = end;
          continue;
        }
      }
      if (this.inHeaderHave < HEADER) {
        const n = Math.min(HEADER - this.inHeaderHave, size - offset);
        chunk.copy(this.inHeader, this.inHeaderHave, offset, offset + n);
        this.inHeaderHave += n;
        offset += n;
        if (this.inHeaderHave < HEADER) return;
        const length = this.inHeader.readUIntLE(0, 3);
        const seq = this.inHeader[3] as number;
        const expected =
          this.inParts.length === 0 && this.inLastLength !== MAX_PAYLOAD
            ? 0
            : (this.inSeq + 1) & 0xff;
        if (seq !== expected) throw new Malformed('packets out of order', ER.OUT_OF_ORDER);
        this.inSeq = seq;
        this.inLastLength = length;
        this.inTotal += length;
        if (this.inTotal > COMMAND_MAX) {
          throw new Malformed('the command is larger than the gateway reads', ER.TOO_LARGE);
        }
        this.inLeft = length;
        if (length === 0) this.packetDone();
        continue;
      }
      const n = Math.min(this.inLeft, size - offset);
      this.inParts.push(chunk.subarray(offset, offset + n));
      offset += n;
      this.inLeft -= n;
      if (this.inLeft === 0) this.packetDone();
    }
  }

  private packetDone(): void {
    this.inHeaderHave = 0;
    if (this.inLastLength === MAX_PAYLOAD) return;
    const payload =
      this.inParts.length === 1 ? (this.inParts[0] as Buffer) : Buffer.concat(this.inParts);
    this.inParts = [];
    this.inTotal = 0;
    if (payload.length === 0) throw new Malformed('an empty command');
    this.queue.push({ payload, lastSeq: this.inSeq });
    this.inSeq = -1;
  }

  private pump(): void {
    while (!this.busy && !this.closed) {
      const command = this.queue.shift();
      if (!command) {
        if (this.client.isPaused()) this.client.resume();
        return;
      }
      this.busy = true;
      const handler = COMMANDS[command.payload[0] as number];
      try {
        if (handler) handler(this, command);
        else {
          const code = (command.payload[0] as number).toString(16);
          this.refuse(command, ER.UNKNOWN_COM, `Portcullis: command 0x${code} is not relayed`);
        }
      } catch (err) {
        this.failedOn(command, err);
      }
    }
  }

  /** The gateway itself failed on a command: the connection ends with an error. */
  private failedOn(command: Command, err: unknown): void {
    this.options.logger.error({ err }, 'mysql command failed');
    this.fatal(ER.UNKNOWN, 'Portcullis: the gateway failed on this command', command.lastSeq + 1);
  }

  /**
   * The command is finished (answered, or no answer expected): take the next, in a microtask
   * (the target's chunk that finished it is still being read). With none waiting and the client
   * being read, there is nothing to take: the next command's bytes start it.
   */
  private next(): void {
    this.busy = false;
    if (this.queue.length === 0 && !this.client.isPaused()) return;
    queueMicrotask(() => this.pump());
  }

  // ---- commands ----

  /** Sends the command to the target and follows its response; `after` runs at its end. */
  forward(command: Command, expect: Expect | 'none', after?: After): void {
    if (this.closed) return;
    if (expect === 'none') {
      this.writeTarget(command.packet ?? commandPacket(command.payload));
      this.next();
      return;
    }
    this.results = [];
    this.after = after;
    this.awaiting = true;
    this.tracker.expect(expect);
    this.writeTarget(command.packet ?? commandPacket(command.payload));
  }

  /** The response is complete, or the connection closed before it was (`interrupted`). */
  private responseDone(interrupted: boolean): void {
    if (!this.awaiting) return;
    this.awaiting = false;
    const after = this.after;
    this.after = undefined;
    const results = this.results;
    if (after?.kind === 'log') {
      const { judged, database, sentAt } = after;
      const paired = pairResults(judged.statements, results, database, sentAt, interrupted);
      for (const entry of paired.entries) this.options.session.logStatement(entry);
      this.database = paired.database;
    } else if (after?.kind === 'prepare') {
      this.preparedFailed(after, results);
    } else if (after?.kind === 'init-db') {
      // Its answer is one packet: an OK (no result is recorded for it) or an ERR.
      if (!interrupted && results.every((r) => r.result.kind !== 'error')) {
        this.database = after.database;
      }
    }
    if (!interrupted) this.next();
  }

  /**
   * A COM_STMT_PREPARE the target refused (a syntax error, an unknown table) never runs, but is
   * logged with its error as a text query's would be. One cut short by a close is not: it never
   * got as far as running.
   */
  private preparedFailed(after: Extract<After, { kind: 'prepare' }>, results: TimedResult[]): void {
    const failed = results.find((r) => r.result.kind === 'error');
    const result = failed?.result;
    if (!failed || result?.kind !== 'error') return;
    const entry: StatementEntry = {
      startedAt: after.sentAt.epoch,
      database: after.database,
      statement: after.text,
      durationMs: failed.endedAt - after.sentAt.perf,
      error: result.message,
    };
    if (after.notice !== undefined) {
      entry.action = 'notice';
      entry.rule = after.notice;
    }
    this.options.session.logStatement(entry);
  }

  refuse(command: Command, kind: ErrorKind, message: string): void {
    this.writeClient(frame(errPayload(kind, message), command.lastSeq + 1));
    this.next();
  }

  quit(): void {
    this.writeTarget(frame(Buffer.from([0x01]), 0));
    this.close();
  }

  query(command: Command): void {
    const text = command.payload.toString('utf8', 1);
    const kill = this.translatedKill(text);
    if (kill !== undefined) {
      // Stopping one's own statement touches no data: it needs no rule's leave.
      const payload = Buffer.concat([Buffer.from([0x03]), Buffer.from(kill, 'utf8')]);
      this.forwardLogged(
        { payload, lastSeq: command.lastSeq },
        { statements: [{ text }] },
        Date.now(),
      );
      return;
    }
    this.judged(command, text, 'results');
  }

  /**
   * `KILL [QUERY | CONNECTION] <id>` naming a connection the gateway greeted (the mysql
   * client's Ctrl-C sends it through a second connection): the same statement with the
   * target's thread id. Any other KILL goes on as written.
   */
  private translatedKill(text: string): string | undefined {
    const match = KILL.exec(text);
    if (!match) return undefined;
    const thread = this.options.targetThreadOf(Number(match[2]));
    if (thread === undefined) return undefined;
    return `KILL ${match[1] ? `${match[1].toUpperCase()} ` : ''}${thread}`;
  }

  /** COM_PROCESS_KILL: the same translation as a KILL statement's. */
  processKill(command: Command): void {
    const id = idIn(command);
    const thread = this.options.targetThreadOf(id);
    if (thread === undefined) {
      // Any other id goes on as written, as a KILL statement would; under rules a KILL
      // statement is refused (unreadable), and so is this.
      const { session } = this.options;
      if (!session.policy) return this.forward(command, 'single');
      const message =
        'Portcullis blocked this kill: this database has rules, and only a connection opened with the same code can be stopped';
      session.logStatement({
        startedAt: Date.now(),
        database: this.database,
        statement: `KILL ${id}`,
        durationMs: 0,
        error: message,
        action: 'blocked',
        rule: 'unreadable',
      });
      this.refuse(command, ER.KILL_DENIED, message);
      return;
    }
    const payload = Buffer.alloc(5);
    payload[0] = 0x0c;
    payload.writeUInt32LE(thread, 1);
    this.forward({ payload, lastSeq: command.lastSeq }, 'single');
  }

  prepare(command: Command): void {
    const text = command.payload.toString('utf8', 1);
    if (this.prepared.size >= PREPARED_MAX) {
      this.refuse(command, ER.UNKNOWN, 'Portcullis: too many prepared statements are open');
      return;
    }
    this.judged(command, text, 'prepare');
  }

  /** Judges a text, then acts on the decision. */
  private judged(command: Command, text: string, expect: 'results' | 'prepare'): void {
    const { session, offered } = this.options;
    const bytes = session.policy ? command.payload.subarray(1) : undefined;
    const decision = decide(text, session, offered, bytes);
    if (!(decision instanceof Promise)) return this.act(command, text, expect, decision);
    // A large text, judged off the event loop: the command stays in flight meanwhile.
    void decision
      .then((d) => {
        if (!this.closed) this.act(command, text, expect, d);
      })
      .catch((err: unknown) => this.failedOn(command, err));
  }

  /** Forwards a judged text and logs its outcome, or refuses it. */
  private act(
    command: Command,
    text: string,
    expect: 'results' | 'prepare',
    decision: Decision,
  ): void {
    const { session } = this.options;
    const startedAt = Date.now();
    if (!decision.pass) {
      session.logStatement({
        startedAt,
        database: this.database,
        statement: text,
        durationMs: 0,
        // What the member was told, as the PostgreSQL proxy logs its refusals.
        error: decision.message,
        action: 'blocked',
        rule: decision.rule,
      });
      if (decision.alarm) session.alarm('intercept', text, decision.rule);
      const kind = decision.rule === 'database' ? ER.DB_ACCESS_DENIED : ER.TABLE_ACCESS_DENIED;
      this.refuse(command, kind, decision.message);
      return;
    }
    const notice = noticesIn(decision.statements)?.join(', ');
    if (notice !== undefined) session.alarm('notice', text, notice);
    // A prepared text is logged when it runs (COM_STMT_EXECUTE), not when it is prepared,
    // unless the target refuses to prepare it.
    if (expect === 'prepare') {
      return this.forward(command, 'prepare', {
        kind: 'prepare',
        text,
        notice,
        database: this.database,
        sentAt: { epoch: startedAt, perf: performance.now() },
      });
    }
    this.forwardLogged(command, decision, startedAt);
  }

  private forwardLogged(command: Command, judged: Judged, startedAt: number): void {
    this.forward(command, 'results', {
      kind: 'log',
      judged,
      database: this.database,
      sentAt: { epoch: startedAt, perf: performance.now() },
    });
  }

  execute(command: Command): void {
    const id = idIn(command);
    const statement = this.prepared.get(id) ?? {
      text: `[prepared statement ${id} unknown to the gateway]`,
    };
    this.forwardLogged(command, { statements: [statement] }, Date.now());
  }

  closeStatement(command: Command): void {
    this.prepared.delete(idIn(command));
    this.forward(command, 'none');
  }

  resetConnection(command: Command): void {
    this.prepared.clear();
    this.forward(command, 'single');
  }

  initDb(command: Command): void {
    const database = command.payload.toString('utf8', 1);
    if (!this.options.offered(database)) {
      this.refuse(
        command,
        ER.DB_ACCESS_DENIED,
        `DatabaseNotOffered: ${formatError('DatabaseNotOffered', 'en_US')}`,
      );
      return;
    }
    this.forward(command, 'single', { kind: 'init-db', database });
  }

  // ---- the target's responses ----

  private fromTarget(chunk: Buffer): void {
    if (this.closed) return;
    // The client gets the bytes first; following them (and logging a finished statement) is
    // done while they travel, so a client waiting on each reply waits no longer than it must.
    this.writeClient(chunk);
    try {
      this.tracker.feed(chunk);
    } catch (err) {
      this.options.logger.warn(
        { reason: err instanceof Error ? err.message : 'unknown' },
        'mysql target sent what the gateway does not follow',
      );
      this.close();
    }
  }

  private writeClient(data: Buffer): void {
    if (this.client.destroyed) return;
    if (!this.client.write(data)) {
      this.target.pause();
      this.client.once('drain', () => this.target.resume());
    }
  }

  private writeTarget(data: Buffer): void {
    if (this.target.destroyed) return;
    if (!this.target.write(data)) {
      this.client.pause();
      this.target.once('drain', () => {
        if (this.queue.length === 0) this.client.resume();
      });
    }
  }

  // ---- ending ----

  /** A protocol error: tell the client why (when its next packet is expected), then close. */
  private fatal(kind: ErrorKind, message: string, seq: number): void {
    if (!this.tracker.busy && !this.client.destroyed) {
      this.client.end(frame(errPayload(kind, message), seq & 0xff));
    }
    this.close();
  }

  /** The server cut the session: an idle client is told why; both sockets go within a second. */
  cut(reason: string): void {
    if (this.closed) return;
    if (!this.busy && !this.client.destroyed) {
      this.client.end(
        // The same words as the PostgreSQL and SSH proxies.
        frame(errPayload(ER.UNKNOWN, sessionEndedText(reason)), 0),
      );
    }
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // The statement in flight still gets its line: what came back, then the end.
    this.responseDone(true);
    this.target.destroy();
    // Let a last ERR reach the client, but never wait long for a client that does not read.
    const client = this.client;
    if (client.writableEnded) setTimeout(() => client.destroy(), 200).unref();
    else client.destroy();
    this.options.onClosed();
  }
}
