/**
 * What a PostgreSQL session says, message by message, and what the rules allow of it. The
 * client's messages are read whole (Query and Parse carry the statement text, judged before it
 * goes on); the target's replies are matched to the requests they answer, in order, so that
 * each statement's outcome (rows, error, duration) reaches the statement log.
 *
 * A refused statement is not sent. In its place the target gets a statement that cannot parse
 * (BLOCKED_SENTINEL), so the target itself answers with an error exactly where the statement's
 * answer would have been, then skips the rest of the batch as PostgreSQL does after any error;
 * the proxy swaps that error for its own message. Pipelined requests keep their order and the
 * transaction keeps PostgreSQL's own semantics, with no reply invented out of turn.
 *
 * Names are believed only once the target confirms them: a prepared statement's text is kept
 * at ParseComplete, a portal's at BindComplete, a Close takes effect at CloseComplete, so a
 * refused re-Parse of a name cannot make the log show another statement than the one that
 * runs. Texts are judged as UTF-8: while the session's client encoding is one whose characters
 * can hide a quote or a backslash (SJIS, BIG5, GBK, …), statements are refused when the
 * database has rules, and a statement sent before the answers to earlier ones (which may switch
 * the encoding) must also pass as those encodings read it (sql-audit/multibyte-readings.ts).
 */
import type { SqlPolicy, SqlRule } from '@portcullis/contract';
import { judgeClientText, whenJudged, type SqlVerdict } from '../sql-audit';
import type { StatementEntry } from '../db-proxy/session';
import { BodyReader, errorFields, errorResponse, message, ProtocolError } from './messages';

/** A statement PostgreSQL cannot parse: its syntax error stands for the refusal. */
export const BLOCKED_SENTINEL = 'PORTCULLIS BLOCKED THIS STATEMENT';
/** SQLSTATE insufficient_privilege, for a refused statement. */
const REFUSED_STATE = '42501';
/** Requests awaiting their answer; a client past this is not waiting for answers. */
const MAX_PENDING = 10_000;
/** Named prepared statements and portals kept, and the text they may hold in all. */
const MAX_NAMES = 10_000;
const MAX_NAMED_TEXT = 64 * 1024 * 1024;
/** Client encodings where a multibyte character may end in the byte of `'` or `\`. */
const UNSAFE_ENCODINGS = new Set([
  'SJIS',
  'SHIFT_JIS_2004',
  'BIG5',
  'GBK',
  'GB18030',
  'UHC',
  'JOHAB',
]);

const ch = (c: string) => c.charCodeAt(0);
/** What a client may send during COPY FROM STDIN: CopyData, CopyDone, CopyFail, Sync, Flush. */
const COPY_IN_MESSAGES = new Set(['d', 'c', 'f', 'S', 'H'].map(ch));

type Simple = Extract<Pending, { kind: 'simple' }>;

/** A simple Query (or function call) awaiting its answer; built field by field, per query. */
function simpleRequest(statements: string[]): Simple {
  return {
    kind: 'simple',
    statements,
    index: 0,
    since: performance.now(),
    startedAt: Date.now(),
    rows: 0,
  };
}

/** A statement log entry, built field by field (not spread: it is made for every statement). */
function entryOf(
  startedAt: number,
  database: string,
  statement: string,
  durationMs: number,
  outcome: { rows?: number; error?: string },
  notice: string | undefined,
): StatementEntry {
  const entry: StatementEntry = { startedAt, database, statement, durationMs };
  if (outcome.rows !== undefined) entry.rows = outcome.rows;
  if (outcome.error !== undefined) entry.error = outcome.error;
  if (notice) {
    entry.action = 'notice';
    entry.rule = notice;
  }
  return entry;
}

interface Named {
  text: string;
  notice?: string;
}

/**
 * A refused statement, logged when its turn comes (its stand-in's error, or the batch it was in
 * being skipped or cut short), so the log keeps the order the statements were sent in.
 */
interface Refusal {
  message: string;
  text: string;
  rule: string;
  /** When it was refused (epoch ms). */
  at: number;
  logged?: boolean;
}

type Pending =
  | {
      kind: 'simple';
      statements: string[];
      index: number;
      since: number;
      startedAt: number;
      rows: number;
      refused?: Refusal;
      notice?: string;
      /** One of its statements failed: the target skips the rest. */
      failed?: boolean;
    }
  | { kind: 'parse'; name: string; named?: Named; refused?: Refusal }
  | { kind: 'bind'; portal: string; statement: string }
  | { kind: 'close'; what: 'S' | 'P'; name: string }
  | { kind: 'describe' | 'sync' }
  | { kind: 'execute'; portal: string; startedAt: number; since: number; rows: number };

export interface ConversationEvents {
  log(entry: StatementEntry): void;
  alarm(action: 'intercept' | 'notice', statement: string, rule: string): void;
}

export function ruleText(rule: SqlRule): string {
  return rule.table ? `${rule.op.toUpperCase()} ${rule.table}` : rule.op.toUpperCase();
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * The rows a CommandComplete tag reports (`INSERT 0 5`, `SELECT 3`, `UPDATE 2`): its last word,
 * when that is all digits. Read by hand, not by a regular expression: one tag per statement.
 */
function tagRows(tag: string): number | undefined {
  let from = tag.length;
  while (from > 0 && isDigit(tag.charCodeAt(from - 1))) from--;
  if (from === tag.length || (from > 0 && tag.charAt(from - 1).trim() !== '')) return undefined;
  return Number(tag.slice(from));
}

type Block = Extract<SqlVerdict, { action: 'block' }>;

type BoundInBatch =
  { kind: 'none' } | { kind: 'refused' } | { kind: 'bound'; named: Named | undefined };

export class Conversation {
  private readonly pending: Pending[] = [];
  /** Confirmed prepared statements and portals, by name. */
  private readonly statements = new Map<string, Named>();
  private readonly portals = new Map<string, Named>();
  private namedText = 0;
  /** The last ReadyForQuery's transaction status ('I', 'T' or 'E'). */
  status = ch('I');
  /** In COPY FROM STDIN (either protocol): the target ignores Sync until CopyDone. */
  private copyIn = false;

  /** Nothing sent and unanswered, no transaction open, no COPY under way. */
  get idle(): boolean {
    return this.pending.length === 0 && this.status === ch('I') && !this.copyIn;
  }

  constructor(
    private readonly database: string,
    private readonly policy: SqlPolicy | undefined,
    private readonly events: ConversationEvents,
    /** The session's client encoding, as the target reported it at login. */
    private encoding = 'UTF8',
  ) {}

  /**
   * Judges one client message: returns what goes to the target (the message or its stand-in);
   * for a large text under rules, judged off the event loop, a promise of it: the relay sends
   * nothing more of the client's until it is kept.
   */
  fromClient(type: number, body: Buffer, raw: Buffer): Buffer | Promise<Buffer> {
    if (this.pending.length >= MAX_PENDING) {
      throw new ProtocolError('too many requests without waiting for an answer');
    }
    if (this.copyIn && !COPY_IN_MESSAGES.has(type)) {
      // The target would end the COPY with an error and swallow this message unanswered,
      // and the log would pair later answers with the wrong statements.
      throw new ProtocolError('a request in the middle of COPY FROM STDIN');
    }
    switch (String.fromCharCode(type)) {
      case 'Q': {
        const text = new BodyReader(body).cstring();
        return whenJudged(this.judge(text, body, 0), (verdict) => this.query(text, verdict, raw));
      }
      case 'P': {
        const r = new BodyReader(body);
        const name = r.cstring();
        const text = r.cstring();
        const verdict = this.judge(text, body, Buffer.byteLength(name) + 1);
        return whenJudged(verdict, (v) => this.parse(name, text, v, raw));
      }
      case 'B': {
        const r = new BodyReader(body);
        const portal = r.cstring();
        this.pending.push({ kind: 'bind', portal, statement: r.cstring() });
        return raw;
      }
      case 'E':
        this.pending.push({
          kind: 'execute',
          portal: new BodyReader(body).cstring(),
          startedAt: Date.now(),
          since: performance.now(),
          rows: 0,
        });
        return raw;
      case 'D':
        this.pending.push({ kind: 'describe' });
        return raw;
      case 'C': {
        const r = new BodyReader(body);
        const what = String.fromCharCode(r.bytes(1)[0]!) === 'S' ? 'S' : 'P';
        this.pending.push({ kind: 'close', what, name: r.cstring() });
        return raw;
      }
      case 'S':
        // The target ignores a Sync during COPY FROM STDIN: no ReadyForQuery will answer it.
        if (!this.copyIn) this.pending.push({ kind: 'sync' });
        return raw;
      case 'c': // CopyDone
      case 'f': // CopyFail
        this.copyIn = false;
        return raw;
      case 'F': {
        // A function call by oid (libpq's PQfn, large objects) carries no statement text: with
        // rules it is refused (fail closed), by the same stand-in as a refused query.
        if (this.policy) {
          const simple = simpleRequest([]);
          simple.refused = {
            message: 'Portcullis refused a function call by number: this database has rules',
            text: '(function call)',
            rule: 'unreadable',
            at: Date.now(),
          };
          this.pending.push(simple);
          return message('Q', BLOCKED_SENTINEL);
        }
        this.pending.push(simpleRequest(['(function call)']));
        return raw;
      }
      case 'H': // Flush
      case 'X': // Terminate
      case 'd': // CopyData
        return raw;
      default:
        throw new ProtocolError(`an unknown client message (${type})`);
    }
  }

  /** A simple Query judged: its message (or its stand-in), and what it waits for. */
  private query(text: string, verdict: SqlVerdict, raw: Buffer): Buffer {
    if (verdict.action === 'block') {
      const simple = simpleRequest([]);
      simple.refused = this.refuse(text, verdict);
      this.pending.push(simple);
      return message('Q', BLOCKED_SENTINEL);
    }
    const notice = this.notice(text, verdict);
    const statements = verdict.statements.map((s) => s.text);
    const simple = simpleRequest(statements.length > 0 ? statements : [text]);
    if (notice) simple.notice = notice;
    this.pending.push(simple);
    return raw;
  }

  /** A Parse judged: its message (or its stand-in), and what it waits for. */
  private parse(name: string, text: string, verdict: SqlVerdict, raw: Buffer): Buffer {
    if (verdict.action === 'block') {
      this.pending.push({ kind: 'parse', name, refused: this.refuse(text, verdict) });
      return message('P', name, BLOCKED_SENTINEL, Buffer.alloc(2));
    }
    const notice = this.notice(text, verdict);
    this.pending.push({ kind: 'parse', name, named: { text, ...(notice && { notice }) } });
    return raw;
  }

  /** A target message passed through (its header was just read). */
  onPassed(type: number): void {
    const head = this.pending[0];
    switch (String.fromCharCode(type)) {
      case 'D':
        if (head?.kind === 'execute' || head?.kind === 'simple') head.rows += 1;
        return;
      case '1':
        if (head?.kind !== 'parse') return;
        this.pending.shift();
        if (head.named) this.remember(this.statements, head.name, head.named);
        return;
      case '2': {
        if (head?.kind !== 'bind') return;
        this.pending.shift();
        const statement = this.statements.get(head.statement);
        if (statement) this.remember(this.portals, head.portal, statement);
        else this.portals.delete(head.portal);
        return;
      }
      case '3':
        if (head?.kind !== 'close') return;
        this.pending.shift();
        this.forget(head.what === 'S' ? this.statements : this.portals, head.name);
        return;
      case 'n':
      case 'T':
        if (head?.kind === 'describe') this.pending.shift();
        return;
      case 'I':
        if (head?.kind === 'execute') this.pending.shift();
        return;
      case 's':
        if (head?.kind === 'execute') {
          this.finish(head, { rows: head.rows });
          this.pending.shift();
        }
        return;
      case 'V':
        if (head?.kind === 'simple') this.finishSimple(head, {});
        return;
      case 'G':
        if (head?.kind === 'execute' || head?.kind === 'simple') {
          // A Sync sent after this Execute (or this COPY's Query) reaches the target in COPY
          // mode and is ignored: no ReadyForQuery will answer it.
          this.copyIn = true;
          const sync = this.pending.findIndex((p) => p.kind === 'sync');
          if (sync > 0) this.pending.splice(sync, 1);
        }
        return;
      default:
    }
  }

  /**
   * A held target message (ErrorResponse, CommandComplete, ReadyForQuery, ParameterStatus),
   * `buf[start, end)` with its header: what the client gets in its place, undefined for the
   * message itself. CommandComplete and ReadyForQuery, one each per query, are read in place.
   */
  onHeld(type: number, buf: Buffer, start: number, end: number): Buffer | undefined {
    const head = this.pending[0];
    const t = String.fromCharCode(type);
    const bodyAt = start + 5;
    if (t === 'S') {
      const r = new BodyReader(buf.subarray(bodyAt, end));
      if (r.cstring() === 'client_encoding') this.encoding = r.cstring().toUpperCase();
      return undefined;
    }
    if (t === 'Z') {
      this.status = bodyAt < end ? (buf[bodyAt] as number) : this.status;
      this.copyIn = false;
      // Whatever was still waiting in this batch was skipped after an error.
      while (this.pending.length > 0) {
        const item = this.pending.shift()!;
        this.logRefused(item);
        if (item.kind === 'sync' || item.kind === 'simple') break;
      }
      // Named portals last until the transaction ends.
      if (this.status === ch('I') && this.portals.size > 0) {
        for (const name of [...this.portals.keys()]) this.forget(this.portals, name);
      }
      return undefined;
    }
    if (t === 'C') {
      const nul = buf.indexOf(0, bodyAt);
      const tag = nul === -1 || nul >= end ? '' : buf.toString('utf8', bodyAt, nul);
      if (head?.kind === 'execute') {
        this.finish(head, { rows: tagRows(tag) ?? head.rows });
        this.pending.shift();
      } else if (head?.kind === 'simple') {
        this.finishSimple(head, { rows: tagRows(tag) ?? head.rows });
      }
      return undefined;
    }
    // ErrorResponse.
    if (!head) return undefined;
    const fields = errorFields(buf.subarray(bodyAt, end));
    const refused = (head.kind === 'simple' || head.kind === 'parse') && head.refused;
    this.logRefused(head);
    // Only the stand-in's own syntax error is swapped; anything else is the target's word.
    if (refused && fields.get('C') === '42601') {
      if (head.kind === 'parse') this.dropUntilSync();
      return errorResponse({ severity: 'ERROR', code: REFUSED_STATE, message: refused.message });
    }
    const error = fields.get('M') ?? 'error';
    if (head.kind === 'execute') this.finish(head, { error });
    else if (head.kind === 'parse' || head.kind === 'bind') {
      // A statement that fails to parse (an unknown table, a syntax error) or to bind never
      // runs, but is logged with its error as a simple query's would be.
      const named = head.kind === 'parse' ? head.named : this.statements.get(head.statement);
      if (named) {
        this.events.log(entryOf(Date.now(), this.database, named.text, 0, { error }, named.notice));
      }
    } else if (head.kind === 'simple') {
      this.finishSimple(head, { error });
      head.failed = true;
    }
    if (head.kind !== 'simple') this.dropUntilSync();
    return undefined;
  }

  /**
   * Judges a statement text (`body` holds its bytes from `start`, up to a NUL): at once, or a
   * large text in the SQL judge's worker thread (sql-audit/off-thread.ts).
   */
  private judge(text: string, body: Buffer, start: number): SqlVerdict | Promise<SqlVerdict> {
    if (this.policy && UNSAFE_ENCODINGS.has(this.encoding)) {
      return {
        action: 'block',
        reason: 'unreadable',
        message: `Portcullis refused this statement: the client encoding ${this.encoding} can hide statements from this database's rules; use UTF8`,
      };
    }
    return judgeClientText('postgresql', text, this.policy, this.uncertainBytes(body, start));
  }

  /**
   * The text's bytes while earlier requests are unanswered, one of which may switch the client
   * encoding before this text is read: it must also pass as such an encoding reads it
   * (sql-audit/multibyte-readings.ts).
   */
  private uncertainBytes(body: Buffer, start: number): Buffer | undefined {
    if (!this.policy || this.pending.length === 0) return undefined;
    const end = body.indexOf(0, start);
    return body.subarray(start, end === -1 ? body.length : end);
  }

  private remember(map: Map<string, Named>, name: string, named: Named): void {
    this.forget(map, name);
    if (
      this.statements.size + this.portals.size >= MAX_NAMES ||
      this.namedText + named.text.length > MAX_NAMED_TEXT
    ) {
      throw new ProtocolError('too many prepared statements or portals');
    }
    map.set(name, named);
    this.namedText += named.text.length;
  }

  private forget(map: Map<string, Named>, name: string): void {
    const old = map.get(name);
    if (!old) return;
    map.delete(name);
    // A portal shares its statement's text; count each entry's own length.
    this.namedText -= old.text.length;
  }

  /** The rest of a batch the target skips after an error: its refusals are logged now. */
  private dropUntilSync(): void {
    while (this.pending.length > 0 && this.pending[0]!.kind !== 'sync') {
      this.logRefused(this.pending.shift()!);
    }
  }

  /** Logs an item's refusal, once, if it was refused. */
  private logRefused(item: Pending): void {
    const refused = (item.kind === 'simple' || item.kind === 'parse') && item.refused;
    if (!refused || refused.logged) return;
    refused.logged = true;
    this.events.log({
      startedAt: refused.at,
      database: this.database,
      statement: refused.text,
      durationMs: 0,
      error: refused.message,
      action: 'blocked',
      rule: refused.rule,
    });
  }

  /**
   * The connection is gone (the client left, the target died, or the session was cut): each
   * statement sent and not answered may have run, so it is logged, as cut short. Not those the
   * target skipped (after a refused Parse, up to the Sync; after an error in a simple query);
   * refused ones are logged as refused, in their place.
   */
  close(): void {
    const error = 'the connection closed before its result';
    const items = this.pending.splice(0);
    let skipping = false;
    items.forEach((item, i) => {
      this.logRefused(item);
      if (item.kind === 'sync') skipping = false;
      else if (item.kind === 'parse' && item.refused) skipping = true;
      else if (skipping) return;
      else if (item.kind === 'simple' && !item.refused && !item.failed) {
        while (item.index < item.statements.length) this.finishSimple(item, { error });
      } else if (item.kind === 'execute') {
        const bound = this.boundInBatch(items.slice(0, i), item.portal);
        if (bound.kind === 'none') this.finish(item, { error });
        else if (bound.kind === 'bound') this.finish(item, { error }, bound.named);
      }
    });
  }

  /**
   * What a Bind earlier in the same batch, whose BindComplete has not come back yet, put in a
   * portal: it, not the portal's confirmed statement, is what the Execute runs.
   */
  private boundInBatch(before: Pending[], portal: string): BoundInBatch {
    const bind = before.findLast((p) => p.kind === 'bind' && p.portal === portal);
    if (bind?.kind !== 'bind') return { kind: 'none' };
    const parse = before.findLast((p) => p.kind === 'parse' && p.name === bind.statement);
    if (parse?.kind === 'parse') {
      return parse.refused ? { kind: 'refused' } : { kind: 'bound', named: parse.named };
    }
    return { kind: 'bound', named: this.statements.get(bind.statement) };
  }

  private finish(
    item: Extract<Pending, { kind: 'execute' }>,
    outcome: { rows?: number; error?: string },
    /** The statement a Bind of this batch put in the portal (see boundInBatch). */
    bound?: Named,
  ): void {
    const portal = bound ?? this.portals.get(item.portal);
    this.events.log(
      entryOf(
        item.startedAt,
        this.database,
        portal?.text ?? '(a portal the gateway did not see prepared)',
        performance.now() - item.since,
        outcome,
        portal?.notice,
      ),
    );
  }

  private finishSimple(
    item: Extract<Pending, { kind: 'simple' }>,
    outcome: { rows?: number; error?: string },
  ): void {
    const now = performance.now();
    const text = item.statements[item.index] ?? item.statements[item.statements.length - 1] ?? '';
    this.events.log(
      entryOf(item.startedAt, this.database, text, now - item.since, outcome, item.notice),
    );
    item.index += 1;
    item.since = now;
    item.startedAt = Date.now();
    item.rows = 0;
  }

  /** Raises a refused statement's alarm; its log line waits for its turn (see Refusal). */
  private refuse(text: string, verdict: Block): Refusal {
    const rule = verdict.rule
      ? ruleText(verdict.rule)
      : verdict.reason === 'approval'
        ? 'approval'
        : 'unreadable';
    // A block rule raises an alarm (as in the MySQL proxy); approval mode and unreadable
    // statements are refused and logged without one.
    if (verdict.rule) this.events.alarm('intercept', text, rule);
    return { message: verdict.message, text, rule, at: Date.now() };
  }

  /** Raises the alarms of a statement that passes; returns the rules for its log entry. */
  private notice(
    text: string,
    verdict: Extract<SqlVerdict, { action: 'pass' }>,
  ): string | undefined {
    if (verdict.notices.length === 0) return undefined;
    const rules = verdict.notices.map(ruleText).join(', ');
    this.events.alarm('notice', text, rules);
    return rules;
  }
}
