/**
 * What the rules say about a statement text and what the statement log gets for it. The
 * verdict itself is sql-audit's (judgeSql); this file only turns it into the gateway's actions
 * (refuse, alarm, log) and pairs the target's results with the judge's statements.
 *
 * Alarms: a block by a rule raises an 'intercept' alarm and a notice rule a 'notice' alarm.
 * Blocks in approval mode and statements the parser cannot read are refused and logged as
 * blocked, without an alarm (they are the member's ordinary path to a SQL application, and a
 * parser gap is not the member's doing; the statement log keeps both).
 *
 * Pairing: a multi-statement text gets one entry per statement, matched with the results in
 * order. A statement with more results than one (a CALL) gets the rest summed; statements after
 * a failed one are logged as not run. Each statement's time runs from the end of the previous
 * result (the first from when the text was forwarded).
 */
import { formatError, type SqlRule } from '@portcullis/contract';
import { judgeClientText, mysqlCode, whenJudged, type SqlVerdict } from '../sql-audit';
import type { DbSession, StatementEntry } from '../db-proxy/session';
import type { Result } from './results';

export const ruleText = (rule: SqlRule): string =>
  `${rule.op.toUpperCase()}${rule.table ? ` ${rule.table}` : ''}`;

export interface JudgedStatement {
  text: string;
  /** The notice rule that matched it, if any. */
  notice?: string;
  /** The database it switches to, for a `USE`. */
  use?: string;
  /** A CALL: its procedure's result sets come before its own OK. */
  call?: true;
}

export interface Judged {
  /** The statements to log, in order. */
  statements: JudgedStatement[];
}

export type Decision =
  ({ pass: true } & Judged) | { pass: false; message: string; rule: string; alarm: boolean };

const MAY_USE = /use/i;
const USE = /^\s*use\b\s*(?:`((?:[^`]|``)+)`|([^\s;`]+))?/i;

/**
 * The database a `USE db` statement names, read as the server reads it (`/* x *\/ USE db`,
 * ``USE`db` ``, `/*!USE db*\/`); '' for a USE whose database cannot be read (refused as not
 * offered); undefined for any other statement.
 */
export function useTarget(text: string): string | undefined {
  if (!MAY_USE.test(text)) return undefined;
  const m = USE.exec(mysqlCode(text));
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/``/g, '`') : (m[2] ?? '');
}

/**
 * Judges a text (COM_QUERY or COM_STMT_PREPARE) under the session's rules: at once, or for a
 * large text, judged in the SQL judge's worker thread, a promise of the decision.
 */
export function decide(
  text: string,
  session: DbSession,
  offered: (database: string) => boolean,
  /**
   * The text's bytes as the client sent them, in its character set: that may be one (GBK, SJIS,
   * BIG5, …) whose characters hide a backtick or backslash from a UTF-8 reading.
   */
  bytes?: Buffer,
): Decision | Promise<Decision> {
  const verdict = judgeClientText('mysql', text, session.policy, bytes);
  return whenJudged(verdict, (v) => decisionOf(v, text, offered));
}

function decisionOf(
  verdict: SqlVerdict,
  text: string,
  offered: (database: string) => boolean,
): Decision {
  if (verdict.action === 'block') {
    const rule = verdict.rule ? ruleText(verdict.rule) : verdict.reason;
    return { pass: false, message: verdict.message, rule, alarm: verdict.rule !== undefined };
  }
  const judged = verdict.statements.length > 0 ? verdict.statements : [{ text, op: '' }];
  const notices = verdict.notices;
  // A notice is put on the statements of its kind; if the judge's ops do not say which, on all.
  const anyMatch = notices.length > 0 && judged.some((s) => noticesOf(notices, s.op).length > 0);
  const statements: JudgedStatement[] = [];
  for (const s of judged) {
    const statement: JudgedStatement = { text: s.text };
    const use = useTarget(s.text);
    if (use !== undefined) {
      if (!offered(use)) {
        return {
          pass: false,
          message: `DatabaseNotOffered: ${formatError('DatabaseNotOffered', 'en_US')}`,
          rule: 'database',
          alarm: false,
        };
      }
      statement.use = use;
    }
    if (s.op === 'call') statement.call = true;
    if (notices.length > 0) {
      const rules = anyMatch ? noticesOf(notices, s.op) : notices;
      if (rules.length > 0) statement.notice = rules.map(ruleText).join(', ');
    }
    statements.push(statement);
  }
  return { pass: true, statements };
}

const noticesOf = (notices: SqlRule[], op: string): SqlRule[] => notices.filter((r) => r.op === op);

export interface TimedResult {
  result: Result;
  /** performance.now() when the result ended. */
  endedAt: number;
}

/**
 * Statement log entries for one forwarded text and the results it got, and the database the
 * connection is in after it (a `USE` that succeeded switches it for the statements after it).
 */
export function pairResults(
  statements: Judged['statements'],
  results: TimedResult[],
  database: string,
  sentAt: { epoch: number; perf: number },
  /** The connection closed before the response was complete. */
  interrupted = false,
): { entries: StatementEntry[]; database: string } {
  const entries: StatementEntry[] = [];
  let start = sentAt.perf;
  let failed = false;
  let next = 0;
  // Objects built field by field, not spread: this runs for every statement the gateway relays.
  for (let i = 0; i < statements.length; i++) {
    const statement = statements[i] as JudgedStatement;
    const first = next;
    // One result each; a CALL's result sets and its OK; the last takes what is left.
    let end = Math.min(first + 1, results.length);
    if (i === statements.length - 1) end = results.length;
    else if (statement.call) {
      while (end < results.length && (results[end - 1] as TimedResult).result.kind === 'rows') {
        end += 1;
      }
    }
    next = Math.max(end, first);
    const entry: StatementEntry = {
      startedAt: Math.round(sentAt.epoch + (start - sentAt.perf)),
      database,
      statement: statement.text,
      durationMs: 0,
    };
    if (statement.notice !== undefined) {
      entry.action = 'notice';
      entry.rule = statement.notice;
    }
    entries.push(entry);
    if (end <= first) {
      entry.error = failed
        ? 'not run: an earlier statement failed'
        : interrupted
          ? 'the connection closed before its result'
          : 'no result was seen for it';
      continue;
    }
    let rows = 0;
    let error: string | undefined;
    for (let r = first; r < end; r++) {
      const result = (results[r] as TimedResult).result;
      if (result.kind === 'error') error ??= result.message;
      else rows += result.rows;
    }
    const endedAt = (results[end - 1] as TimedResult).endedAt;
    entry.durationMs = endedAt - start;
    if (error !== undefined) {
      entry.error = error;
      failed = true;
    } else {
      entry.rows = rows;
      if (statement.use !== undefined) database = statement.use;
    }
    start = endedAt;
  }
  return { entries, database };
}
