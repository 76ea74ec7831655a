/**
 * A database session's statement log: one JSON line per statement (time, database, statement
 * text, affected rows or error, duration, and what the rules did), spooled to the same folder
 * and file name as a terminal recording (`<spool>/<connection_id>.cast`, recording/recorder.ts)
 * so the uploader streams it to the server the same way; the server serves it as
 * `<id>-statements.jsonl`. Lines wait in memory at most {@link FLUSH_MS} (a SIGKILL loses no
 * more; the file itself is only made then, see createStatementLog), writes are asynchronous
 * and one at a time (recording/spool-writer.ts), and what waits is capped: a client that
 * floods statements faster than the disk takes them, or a log at the recording size limit,
 * ends the session rather than run statements the log does not keep.
 */
import fs from 'node:fs';
import { LOG_FILTER_HIDDEN, RECORDING_MAX_BYTES } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import { hideMatch, type LogFilterMatcher } from '../recording';
import { spoolFile } from '../recording/recorder';
import { placeBlank } from '../recording/spool-blanks';
import { createSpoolWriter, type SpoolWriter } from '../recording/spool-writer';
import {
  mayHoldPassword,
  scrubEcho,
  scrubEchoBlind,
  scrubPasswords,
  type ScrubDialect,
} from '../sql-audit/password-scrub';

const FLUSH_MS = 250;
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** A statement longer than this is stored cut, with a note (a 100 MB INSERT is not a log line). */
export const STATEMENT_LOG_TEXT_MAX = 64 * 1024;

export interface StatementEntry {
  /** Epoch milliseconds when the statement was sent. */
  startedAt: number;
  database: string;
  statement: string;
  durationMs: number;
  /** Affected (or returned) rows, when the database said. */
  rows?: number;
  error?: string;
  /** What the rules did: refused it, or let it through with an alarm. */
  action?: 'blocked' | 'notice';
  rule?: string;
}

/**
 * What a log hands to the uploader from memory when it closes: all of it when it never reached
 * the disk (`spoolBy`: epoch ms by which its first line would have been there, FLUSH_MS after
 * it came), or, when its spool file failed (a full disk), what the file did not take, which
 * follows the file's first `fileBytes` bytes.
 */
export type UnspooledLog = { data: Buffer } & ({ spoolBy: number } | { fileBytes: number });

export interface StatementLog {
  write(entry: StatementEntry): void;
  /**
   * Writes what is pending and closes the file; resolves when it is on disk. A log whose lines
   * never went to disk (the session ended within FLUSH_MS of its first statement), or not all
   * of them (its file failed), resolves with those instead, for the uploader to send from
   * memory; else with undefined.
   */
  close(): Promise<UnspooledLog | undefined>;
}

/**
 * The ISO time of an epoch millisecond. Every statement gets one, so the date and time up to the
 * second are formatted once per second, not per line.
 */
let isoSecond = -1;
let isoPrefix = '';
function isoTime(epochMs: number): string {
  const ms = Math.floor(epochMs);
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20); // 2026-11-22T18:40:05.
  }
  return `${isoPrefix}${String(ms - second * 1000).padStart(3, '0')}Z`;
}

/**
 * Characters JSON.stringify writes other than as themselves: quote, backslash, controls, and
 * surrogates (a lone one is escaped; a pair, which it keeps, only costs the slow path).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A JSON string literal, as JSON.stringify writes it. Most statement texts need no escape, and
 * quoting them here skips a call into the runtime per field.
 */
export const jsonString = (text: string): string =>
  NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;

/** The last database name quoted: a session's lines almost all name the same one. */
let quotedDatabase = { name: '', json: '""' };
function databaseJson(name: string): string {
  if (quotedDatabase.name !== name) quotedDatabase = { name, json: jsonString(name) };
  return quotedDatabase.json;
}

/**
 * The longest statement whose password places are looked for in all of it when it is logged
 * cut: lexing costs about 0.1 µs a character per reading on the event loop (the judge hands a
 * text this long to a worker, sql-audit/off-thread.ts LARGE_TEXT).
 */
const SCRUB_WHOLE_MAX = 256 * 1024;

/**
 * The statement as its log line shows it (password literals masked, cut to
 * {@link STATEMENT_LOG_TEXT_MAX} with a note) and its error with what it quotes of them masked.
 * A long text with an error has its passwords looked for in all of it, then is cut: a password
 * past the cut is in no line, but the error may quote it. Without an error, or over
 * {@link SCRUB_WHOLE_MAX}, it is cut first, which masks the part kept all the same (a literal
 * cut in two is unterminated, and masked to the end); the error of a text that long which may
 * hold a password is masked from its first quote to its last (scrubEchoBlind).
 */
function scrubbedEntry(
  statement: string,
  error: string | undefined,
  dialect: ScrubDialect,
): { text: string; error: string | undefined } {
  if (statement.length <= STATEMENT_LOG_TEXT_MAX) {
    const scrubbed = scrubPasswords(statement, dialect);
    if (!scrubbed) return { text: statement, error };
    return { text: scrubbed.text, error: error && scrubEcho(error, scrubbed.secrets) };
  }
  const note = ` [… ${statement.length} characters in all]`;
  if (error === undefined || statement.length > SCRUB_WHOLE_MAX) {
    const cut = statement.slice(0, STATEMENT_LOG_TEXT_MAX);
    const text = (scrubPasswords(cut, dialect)?.text ?? cut) + note;
    return { text, error: error && mayHoldPassword(statement) ? scrubEchoBlind(error) : error };
  }
  const scrubbed = scrubPasswords(statement, dialect);
  if (!scrubbed) return { text: statement.slice(0, STATEMENT_LOG_TEXT_MAX) + note, error };
  const text = scrubbed.text.slice(0, STATEMENT_LOG_TEXT_MAX) + note;
  return { text, error: scrubEcho(error, scrubbed.secrets) };
}

/**
 * One JSON line, written out by hand: the same text JSON.stringify gives an object with these
 * keys in this order (strings escaped by JSON.stringify itself), at a fraction of the cost on a
 * path that runs for every statement. Password literals are masked first (password-scrub.ts;
 * a text without the words `password` or `identified` or a `://` costs one search), in the
 * statement and in an error that quotes it (MySQL's `near '…'`).
 */
export function line(
  entry: StatementEntry,
  logFilter: LogFilterMatcher | undefined,
  dialect: ScrubDialect,
): string {
  const { text, error } = scrubbedEntry(entry.statement, entry.error, dialect);
  const statement = hideMatch(logFilter, text, LOG_FILTER_HIDDEN.command);
  let out = `{"time":"${isoTime(entry.startedAt)}","database":${databaseJson(entry.database)},"statement":${jsonString(statement)},"duration_ms":${Math.round(entry.durationMs * 1000) / 1000}`;
  if (entry.rows !== undefined) out += `,"rows":${entry.rows}`;
  if (error !== undefined) out += `,"error":${jsonString(error)}`;
  if (entry.action) out += `,"action":"${entry.action}"`;
  if (entry.rule) out += `,"rule":${jsonString(entry.rule)}`;
  return `${out}}\n`;
}

/**
 * A statement as an alarm row and its notice mails show it: cut to `max` characters, password
 * literals masked, the cluster's log filters applied.
 */
export function alarmText(
  statement: string,
  logFilter: LogFilterMatcher | undefined,
  dialect: ScrubDialect,
  max: number,
): string {
  // Cut (generously) before masking: masking a 100 MB text for 4000 characters is waste, and
  // what is kept is masked all the same (an alarm has no error that could quote the rest).
  const cut =
    statement.length > STATEMENT_LOG_TEXT_MAX
      ? statement.slice(0, STATEMENT_LOG_TEXT_MAX)
      : statement;
  const text = scrubPasswords(cut, dialect)?.text ?? cut;
  return hideMatch(logFilter, text, LOG_FILTER_HIDDEN.command).slice(0, max);
}

export interface StatementLogOptions {
  dir: string;
  connectionId: number;
  logger: Logger;
  /** The log cannot keep every statement: the session must end (fail closed). */
  onFailure: () => void;
  /** The spool file now exists (for the uploader to stream while the session runs). */
  onSpooled: () => void;
  logFilter?: LogFilterMatcher;
  /** How the statements are read to mask their password literals. */
  dialect: ScrubDialect;
}

/** Lines held in memory from which the spool file is made at once rather than at FLUSH_MS. */
const MEMORY_EAGER_BYTES = 64 * 1024;

/**
 * The lines stay in memory until FLUSH_MS after the first one (or until 64 KiB wait); only then
 * is the spool file made, so a session of a few quick statements (a client that connects per
 * query) touches no file: its lines go to the uploader from memory when it closes.
 */
export function createStatementLog(options: StatementLogOptions): StatementLog {
  const { dir, connectionId, logger, onFailure, logFilter, dialect } = options;
  let memory: string[] = [];
  let memoryBytes = 0;
  let firstAt = 0;
  let toDiskTimer: NodeJS.Timeout | undefined;
  let spool: SpoolWriter | undefined;
  let overflowed = false;
  let spoolFailed = false;
  let closed = false;
  /** Lines that came after the spool file failed (the session is ending): kept for close. */
  const afterFailure: string[] = [];
  let afterFailureBytes = 0;

  /** Makes the spool file and hands it what memory holds (no file can be made: fail closed). */
  const toDisk = (): void => {
    clearTimeout(toDiskTimer);
    if (spoolFailed) return;
    const file = spoolFile(dir, connectionId);
    const onError = (err: unknown): void => {
      logger.error({ err, connection_id: connectionId }, 'the statement log cannot be written');
      onFailure();
    };
    try {
      // A blank renamed into place when there is one (spool-blanks.ts), else a new file.
      if (!placeBlank(file)) {
        fs.mkdirSync(dir, { recursive: true });
        fs.closeSync(fs.openSync(file, 'a', 0o600));
      }
    } catch (err) {
      // Fail closed; the lines stay in memory and go to the server when the session ends.
      spoolFailed = true;
      onError(err);
      return;
    }
    spool = createSpoolWriter(file, { flushMs: FLUSH_MS, onError });
    options.onSpooled();
    if (memory.length > 0) spool.push(memory.join(''));
    memory = [];
    memoryBytes = 0;
  };

  return {
    write(entry) {
      if (closed) return;
      const text = line(entry, logFilter, dialect);
      if (!spool) {
        memory.push(text);
        memoryBytes += text.length;
        if (memory.length === 1) {
          firstAt = Date.now();
          toDiskTimer = setTimeout(toDisk, FLUSH_MS);
        }
        if (memoryBytes >= MEMORY_EAGER_BYTES) toDisk();
        return;
      }
      if (spool.failed) {
        // Statements in flight while the session ends ran: their lines go to the server from
        // memory. The cap only matters to a client that keeps sending regardless.
        if (afterFailureBytes + text.length > MAX_PENDING_BYTES) return;
        afterFailure.push(text);
        afterFailureBytes += text.length;
        return;
      }
      if (
        !overflowed &&
        (spool.pendingBytes + text.length > MAX_PENDING_BYTES ||
          spool.written > RECORDING_MAX_BYTES)
      ) {
        // A log that cannot keep every statement ends the session (fail closed): a flood of
        // large statements must not push a later one out of the log unseen. What it holds
        // is still written, and so are the lines of statements in flight while the session
        // ends: each of them ran.
        overflowed = true;
        logger.warn(
          { connection_id: connectionId },
          'the statement log cannot keep up or is full; ending the session',
        );
        onFailure();
      }
      spool.push(text);
    },
    async close() {
      closed = true;
      clearTimeout(toDiskTimer);
      if (spool) {
        await spool.close();
        if (!spool.failed) return undefined;
        const data = Buffer.concat([...spool.takeUnwritten(), Buffer.from(afterFailure.join(''))]);
        return data.length > 0 ? { data, fileBytes: spool.size } : undefined;
      }
      if (memory.length === 0) return undefined;
      const data = Buffer.from(memory.join(''));
      memory = [];
      return { data, spoolBy: firstAt + FLUSH_MS };
    },
  };
}
