/**
 * A MySQL/MariaDB lexer just deep enough to split a text into statements and to hand
 * node-sql-parser a text it cannot read differently from the server:
 *
 * - comments (`/* *\/`, `# ...`, `-- ...`) become spaces, so the parser's own comment rules do
 *   not matter; `--` not followed by a space is not a comment in MySQL (`1 --1` is 1 - -1), and
 *   node-sql-parser would take it for one, so its second `-` becomes a space;
 * - versioned comments (`/*!50000 ... *\/`, MariaDB `/*M!100100 ... *\/`) are executed by the
 *   server: with `versionedAsCode` their markers become spaces and the content stays code;
 *   without, the whole comment is a comment (a server older than the version). The judge reads
 *   the text both ways. A version is taken as up to 6 digits;
 * - backslashes in strings: with `backslashEscapes` (the default sql_mode) `\x` is one escaped
 *   character, without (NO_BACKSLASH_ESCAPES, which any session can set) `\` is a plain
 *   character. Either way the backslashes (and escaped characters) become `_`, so the text has
 *   the same shape for a parser whatever its own escape rule.
 *
 * Limits: `;` splits statements everywhere outside strings and comments, so a stored program
 * body (BEGIN ... END with `;` inside) is cut into pieces the parser cannot read (refused when
 * rules apply). The client-side DELIMITER command does not reach the server.
 */
import type { LexedText, Segment } from './lexed';

export interface MysqlLexOptions {
  backslashEscapes: boolean;
  versionedAsCode: boolean;
}

const VERSIONED_MARKER = /\/\*M?!\d{0,6}/y;

export function lexMysql(sql: string, options: MysqlLexOptions): LexedText {
  const n = sql.length;
  const canonical = sql.split('');
  const skeleton = sql.split('');
  const segments: Segment[] = [];
  let segmentStart = 0;
  let inVersioned = false;
  let unterminated = false;
  const blank = (from: number, to: number, keepInCanonical = false): void => {
    for (let k = from; k < to && k < n; k++) {
      const newline = sql[k] === '\n';
      skeleton[k] = newline ? '\n' : ' ';
      if (!keepInCanonical) canonical[k] = newline ? '\n' : ' ';
    }
  };
  let i = 0;
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === "'" || c === '"' || c === '`') {
      // '...' and "..." are strings (or, "..." under ANSI_QUOTES, names); `...` is a name.
      // A doubled quote is one quote character.
      const escapes = c !== '`';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = sql[j];
        if (d === '\\' && escapes) {
          canonical[j] = '_';
          if (options.backslashEscapes) {
            if (j + 1 < n) canonical[j + 1] = '_';
            j += 2;
          } else {
            j += 1;
          }
        } else if (d === c) {
          if (sql[j + 1] === c) {
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
      blank(i, end, true);
      if (!closed) unterminated = true;
      i = end;
    } else if (c === '/' && next === '*') {
      VERSIONED_MARKER.lastIndex = i;
      const marker = VERSIONED_MARKER.exec(sql);
      if (marker && options.versionedAsCode && !inVersioned) {
        blank(i, i + marker[0].length);
        inVersioned = true;
        i += marker[0].length;
      } else {
        const close = sql.indexOf('*/', i + 2);
        const end = close === -1 ? n : close + 2;
        if (close === -1) unterminated = true;
        blank(i, end);
        i = end;
      }
    } else if (c === '*' && next === '/' && inVersioned) {
      blank(i, i + 2);
      inVersioned = false;
      i += 2;
    } else if (c === '#' || (c === '-' && next === '-' && isCommentSpace(sql, i + 2))) {
      const newline = sql.indexOf('\n', i);
      const end = newline === -1 ? n : newline;
      blank(i, end);
      i = end;
    } else if (c === '-' && next === '-') {
      canonical[i + 1] = ' ';
      skeleton[i + 1] = ' ';
      i += 2;
    } else if (c === ';') {
      segments.push({ start: segmentStart, end: i, unterminated: false });
      segmentStart = i + 1;
      i += 1;
    } else {
      i += 1;
    }
  }
  if (inVersioned) unterminated = true;
  segments.push({ start: segmentStart, end: n, unterminated });
  return { canonical: canonical.join(''), skeleton: skeleton.join(''), segments };
}

/** MySQL: `--` starts a comment only when followed by a space or control character, or the end. */
function isCommentSpace(sql: string, at: number): boolean {
  if (at >= sql.length) return true;
  return sql.charCodeAt(at) <= 0x20;
}
