/**
 * A PostgreSQL lexer just deep enough to split a text into statements without parsing it (the
 * statement log when no policy applies) and to build the text the server would see with
 * `standard_conforming_strings = off`, which any session may set: then a backslash in an
 * ordinary '...' string escapes the next character, so `'\'; DELETE ...'` hides a DELETE from a
 * parser that reads the default way. With `standardStrings: false` every `\x` inside an ordinary
 * string becomes `__`, and libpg-query (which always reads the default way) sees the same shape
 * as that server. E'...' strings escape in both modes and are left to libpg-query.
 *
 * It knows `--` and nested `/* *\/` comments, '...' and E'...' strings, "..." names and
 * $tag$...$tag$ bodies. Limit: SQL-standard function bodies (BEGIN ATOMIC ... END) contain `;`
 * and are cut by the best-effort split; the judge splits with libpg-query instead.
 */
import type { LexedText, Segment } from './lexed';

export interface PostgresLexOptions {
  standardStrings: boolean;
}

const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const WORD = /[A-Za-z0-9_$\u0080-\uffff]+/y;

export function lexPostgres(sql: string, options: PostgresLexOptions): LexedText {
  const n = sql.length;
  const canonical = sql.split('');
  const skeleton = sql.split('');
  const segments: Segment[] = [];
  let segmentStart = 0;
  let unterminated = false;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to && k < n; k++) skeleton[k] = sql[k] === '\n' ? '\n' : ' ';
  };
  let i = 0;
  while (i < n) {
    const c = sql[i] ?? '';
    const next = sql[i + 1];
    if (c === "'") {
      const escapeString = i > 0 && /[eE]/.test(sql[i - 1] ?? '') && !isWordChar(sql[i - 2]);
      const escapes = escapeString || !options.standardStrings;
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = sql[j];
        if (d === '\\' && escapes) {
          if (!escapeString) {
            canonical[j] = '_';
            if (j + 1 < n) canonical[j + 1] = '_';
          }
          j += 2;
        } else if (d === "'") {
          if (sql[j + 1] === "'") {
            j += 2;
          } else {
            closed = true;
            break;
          }
        } else {
          j += 1;
        }
      }
      const end = closed ? j + 1 : n;
      if (!closed) unterminated = true;
      blank(i, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && !(sql[j] === '"' && sql[j + 1] !== '"')) j += sql[j] === '"' ? 2 : 1;
      const end = j < n ? j + 1 : n;
      if (j >= n) unterminated = true;
      blank(i, end);
      i = end;
    } else if (c === '-' && next === '-') {
      const newline = sql.indexOf('\n', i);
      const end = newline === -1 ? n : newline;
      blank(i, end);
      i = end;
    } else if (c === '/' && next === '*') {
      // Block comments nest in PostgreSQL.
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (sql[j] === '/' && sql[j + 1] === '*') {
          depth += 1;
          j += 2;
        } else if (sql[j] === '*' && sql[j + 1] === '/') {
          depth -= 1;
          j += 2;
        } else {
          j += 1;
        }
      }
      if (depth > 0) unterminated = true;
      blank(i, j);
      i = j;
    } else if (c === '$') {
      DOLLAR_TAG.lastIndex = i;
      const tag = DOLLAR_TAG.exec(sql);
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        const end = close === -1 ? n : close + tag[0].length;
        if (close === -1) unterminated = true;
        blank(i, end);
        i = end;
      } else {
        i = skipWord(sql, i);
      }
    } else if (isWordChar(c)) {
      // Names and numbers may hold `$` (a$b$ is one name, not a dollar quote).
      i = skipWord(sql, i);
    } else if (c === ';') {
      segments.push({ start: segmentStart, end: i, unterminated: false });
      segmentStart = i + 1;
      i += 1;
    } else {
      i += 1;
    }
  }
  segments.push({ start: segmentStart, end: n, unterminated });
  return { canonical: canonical.join(''), skeleton: skeleton.join(''), segments };
}

/** A character of a name or number; `$` too, past the first (`a$e'…'` is a name and a string). */
function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
}

function skipWord(sql: string, at: number): number {
  WORD.lastIndex = at;
  const word = WORD.exec(sql);
  return word ? at + word[0].length : at + 1;
}
