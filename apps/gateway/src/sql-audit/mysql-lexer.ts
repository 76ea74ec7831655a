/**
 * A MySQL/MariaDB lexer just deep enough to split a text into statements and to hand
 * node-sql-parser a text it cannot read differently from the server:
 *
 * - comments (`/* *\/`, `# ...`, `-- ...`) become spaces, so the parser's own comment rules do
 *   not matter; `--` not followed by a space is not a comment in MySQL (`1 --1` is 1 - -1), and
 *   node-sql-parser would take it for one, so its second `-` becomes a space;
 * - versioned comments (`/*!50000 ... *\/`, MariaDB `/*M!100100 ... *\/`) are code to a server
 *   of that version or later and comments to an older one, each on its own: `versions` says which
 *   are code (their markers become spaces, the content stays); the others are comments. The judge
 *   reads the text as every server could (versionReadings): mixing one comment a server runs with
 *   one it skips must not hide a statement. A version is taken as up to 6 digits;
 * - backslashes in strings: with `backslashEscapes` (the default sql_mode) `\x` is one escaped
 *   character, without (NO_BACKSLASH_ESCAPES, which any session can set) `\` is a plain
 *   character. `"..."` has its own switch (`doubleQuoteEscapes`): under ANSI_QUOTES, which any
 *   session can set too, it is a name, where a backslash is plain whatever the mode, while
 *   '...' strings still escape; read with one switch for both, `"\" , '\' ' ; DELETE …` hid a
 *   DELETE that such a session runs. Either way the backslashes (and escaped characters) become
 *   `_`, so the text has the same shape for a parser whatever its own escape rule.
 *
 * Limits: `;` splits statements everywhere outside strings and comments, so a stored program
 * body (BEGIN ... END with `;` inside) is cut into pieces the parser cannot read (refused when
 * rules apply). The client-side DELIMITER command does not reach the server.
 */
import type { LexedText, Segment } from './lexed';

export interface MysqlLexOptions {
  /** A backslash escapes the next character in '...' strings. */
  backslashEscapes: boolean;
  /** The same in "..." (a string, or under ANSI_QUOTES a name); `backslashEscapes` when absent. */
  doubleQuoteEscapes?: boolean;
  /** Which versioned comments are code; none when absent. */
  versions?: VersionReading;
}

/** A server's reading of versioned comments. */
export interface VersionReading {
  /** The server's version: comments marked up to it are code (an unmarked `/*!` always is). */
  upTo: number;
  /**
   * MariaDB: it runs `/*M!` comments too, and skips `/*!` ones marked 50700 to 99999 (MySQL 5.7
   * and later); MySQL never runs `/*M!`.
   */
  mariadb: boolean;
}

const VERSIONED_MARKER = /\/\*(M?)!(\d{0,6})/y;
const VERSIONED_MARKERS = /\/\*(M?)!(\d{0,6})/g;

/** Whether a server reading `reading` runs the comment with this marker. */
function runs(reading: VersionReading | undefined, mariadbOnly: boolean, digits: string): boolean {
  if (!reading) return false;
  const version = digits === '' ? 0 : Number(digits);
  if (mariadbOnly) return reading.mariadb && version <= reading.upTo;
  if (reading.mariadb && version >= 50700 && version <= 99999) return false;
  return version <= reading.upTo;
}

/**
 * Every distinct way a server may read the versioned comments of `sql`: for MySQL and MariaDB,
 * a server just at each version the text names (and one older than all, where none is code).
 */
export function versionReadings(sql: string): VersionReading[] {
  const versions = new Set<number>([0]);
  for (const match of sql.matchAll(VERSIONED_MARKERS)) {
    versions.add(match[2] === '' ? 0 : Number(match[2]));
  }
  const readings: VersionReading[] = [];
  for (const mariadb of [false, true]) {
    for (const upTo of [...versions].sort((a, b) => a - b)) readings.push({ upTo, mariadb });
  }
  return readings;
}

/**
 * The two rewritten copies of a text, made on the first rewrite: most texts an application
 * sends (`SELECT c FROM t WHERE id=4711`) have no string, comment or backslash, and are their
 * own canonical text and skeleton.
 */
class Rewrites {
  private canonical: string[] | undefined;
  private skeleton: string[] | undefined;

  constructor(private readonly sql: string) {}

  /** Sets one character of the canonical text (`also`: of the skeleton too). */
  set(at: number, char: string, also: boolean): void {
    this.canonical ??= this.sql.split('');
    this.canonical[at] = char;
    if (also) {
      this.skeleton ??= this.sql.split('');
      this.skeleton[at] = char;
    }
  }

  /** Blanks [from, to) in the skeleton, and in the canonical text unless `keepInCanonical`. */
  blank(from: number, to: number, keepInCanonical = false): void {
    const { sql } = this;
    const end = Math.min(to, sql.length);
    if (end <= from) return;
    const skeleton = (this.skeleton ??= sql.split(''));
    const canonical = keepInCanonical ? undefined : (this.canonical ??= sql.split(''));
    for (let k = from; k < end; k++) {
      const blank = sql[k] === '\n' ? '\n' : ' ';
      skeleton[k] = blank;
      if (canonical) canonical[k] = blank;
    }
  }

  texts(): { canonical: string; skeleton: string } {
    return {
      canonical: this.canonical ? this.canonical.join('') : this.sql,
      skeleton: this.skeleton ? this.skeleton.join('') : this.sql,
    };
  }
}

export function lexMysql(sql: string, options: MysqlLexOptions): LexedText {
  const n = sql.length;
  const rewrites = new Rewrites(sql);
  const segments: Segment[] = [];
  let segmentStart = 0;
  let inVersioned = false;
  let unterminated = false;
  let endsInQuote = false;
  const doubleQuoteEscapes = options.doubleQuoteEscapes ?? options.backslashEscapes;
  let i = 0;
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === "'" || c === '"' || c === '`') {
      // '...' and "..." are strings (or, "..." under ANSI_QUOTES, names); `...` is a name.
      // A doubled quote is one quote character.
      const escapes = c === "'" ? options.backslashEscapes : c === '"' && doubleQuoteEscapes;
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = sql[j];
        if (d === '\\' && escapes) {
          rewrites.set(j, '_', false);
          if (j + 1 < n) rewrites.set(j + 1, '_', false);
          j += 2;
        } else if (d === '\\' && c !== '`') {
          // A plain backslash, still `_` for a parser that would take it for an escape.
          rewrites.set(j, '_', false);
          j += 1;
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
      rewrites.blank(i, end, true);
      if (!closed) unterminated = endsInQuote = true;
      i = end;
    } else if (c === '/' && next === '*') {
      VERSIONED_MARKER.lastIndex = i;
      const marker = VERSIONED_MARKER.exec(sql);
      if (marker && !inVersioned && runs(options.versions, marker[1] === 'M', marker[2] ?? '')) {
        rewrites.blank(i, i + marker[0].length);
        inVersioned = true;
        i += marker[0].length;
      } else {
        const close = sql.indexOf('*/', i + 2);
        const end = close === -1 ? n : close + 2;
        if (close === -1) unterminated = true;
        rewrites.blank(i, end);
        i = end;
      }
    } else if (c === '*' && next === '/' && inVersioned) {
      rewrites.blank(i, i + 2);
      inVersioned = false;
      i += 2;
    } else if (c === '#' || (c === '-' && next === '-' && isCommentSpace(sql, i + 2))) {
      const newline = sql.indexOf('\n', i);
      const end = newline === -1 ? n : newline;
      rewrites.blank(i, end);
      i = end;
    } else if (c === '-' && next === '-') {
      rewrites.set(i + 1, ' ', true);
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
  segments.push(
    endsInQuote
      ? { start: segmentStart, end: n, unterminated, endsInQuote }
      : { start: segmentStart, end: n, unterminated },
  );
  const { canonical, skeleton } = rewrites.texts();
  return { canonical, skeleton, segments };
}

/** MySQL: `--` starts a comment only when followed by a space or control character, or the end. */
function isCommentSpace(sql: string, at: number): boolean {
  if (at >= sql.length) return true;
  return sql.charCodeAt(at) <= 0x20;
}
