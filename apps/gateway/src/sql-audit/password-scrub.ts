/**
 * Blanks password literals in a statement text before it reaches the statement log, an alarm
 * row or a notice mail (house rule: no secret in a log). The text is read with the dialect's own
 * lexer (mysql-lexer.ts, postgres-lexer.ts): its skeleton says what is code and what is a
 * string or comment, so a quote inside a comment or a keyword inside a string misleads nothing.
 * A literal in a password place becomes {@link PASSWORD_MASK}; an introducer or prefix before it
 * (`X'…'`, `_utf8mb4'…'`, `E'…'`) stays, and so does the rest of the statement.
 *
 * Password places, per statement of a (multi-statement) text:
 * - MySQL/MariaDB: after `IDENTIFIED`, the value after `BY`, `AS`, `USING` or `REPLACE`
 *   (`IDENTIFIED BY 'x'`, `IDENTIFIED BY PASSWORD '*hash'`, `IDENTIFIED WITH plugin AS 'hash'`,
 *   MariaDB `IDENTIFIED VIA plugin USING 'x'`, MySQL 8 `REPLACE 'current'`), in CREATE/ALTER USER
 *   and GRANT; `SET PASSWORD [FOR u] = 'x'` (and its `REPLACE 'x'`); the argument of
 *   `PASSWORD(…)`/`OLD_PASSWORD(…)` in any statement; `MASTER_PASSWORD = 'x'`,
 *   `SOURCE_PASSWORD = 'x'`, `PASSWORD = 'x'` in CHANGE MASTER/REPLICATION and START REPLICA or
 *   GROUP_REPLICATION; a literal right after a word ending in `password` in CREATE, ALTER,
 *   GRANT or SET (`CREATE SERVER … OPTIONS (PASSWORD 'x')`); a FEDERATED table's
 *   `CONNECTION = 'mysql://u:x@host/db/t'` in CREATE/ALTER when the URI holds a password (the
 *   whole URI is masked).
 * - PostgreSQL, in CREATE/ALTER: a literal right after a word ending in `password`
 *   (`[ENCRYPTED|UNENCRYPTED] PASSWORD 'x'` of roles and users, `OPTIONS (password 'x')` and
 *   `sslpassword` of user mappings and servers); a subscription's `CONNECTION '…'` when it holds
 *   a password, as `password=x` or as a URI's `postgresql://u:x@host` (the whole conninfo is
 *   masked). In SET, and after SET in CREATE/ALTER (`ALTER SYSTEM SET primary_conninfo = '…'`,
 *   `ALTER ROLE … SET`), a literal that holds a conninfo password (`password=x`, `u:x@host`).
 * In the strongest of these places (after IDENTIFIED BY, SET PASSWORD =, PASSWORD(, a
 * replication's `…PASSWORD =`, and a role's PASSWORD) a bare word or number is masked too, and so
 * is every literal in the parentheses that follow (`IDENTIFIED BY ('x')`, `PASSWORD ('x')`,
 * `= CONCAT('x', 'y')`): a password typed without quotes or in parentheses is still a password,
 * though the server refuses the statement and may quote it in its error. NULL, RANDOM, DEFAULT,
 * `?` and `$1` are not secrets and stay. The text is lexed in every reading that can move a
 * string's end (backslashes as escapes or not, MariaDB's `/*M!` comments), and what any reading
 * masks is masked. {@link scrubEcho} masks the same spans in an error that quotes the statement.
 *
 * Limits, what it does not see: a password inside a string that is itself code later (MySQL
 * `PREPARE s FROM '…'`, MariaDB `EXECUTE IMMEDIATE '…'`, a PostgreSQL `DO $$ … EXECUTE '…' $$`
 * body or function, `dblink_connect('… password=…')`, `COPY … FROM PROGRAM 'PGPASSWORD=…'`); a
 * conninfo outside CONNECTION and a setting's value (`SELECT set_config('primary_conninfo',
 * '…')`); a password place in a PostgreSQL statement that starts otherwise than CREATE, ALTER or
 * SET (`IMPORT FOREIGN SCHEMA … OPTIONS (password 'x')`, `EXPLAIN ALTER ROLE …`, which the server
 * refuses); a password passed to a function it does not know (`AES_ENCRYPT(data, 'key')`, a
 * user-defined function) or put in a variable first (`SET @p = 'x'` is logged as typed); a quoted
 * option name (`OPTIONS ("password" 'x')`); an error that quotes only part of a literal (MySQL
 * cuts its `near '…'` at 80 characters), which keeps that part. A role named `password` has the
 * word after it masked (`ALTER ROLE password RENAME TO …`). Prepared statements' parameters are
 * never logged (MySQL COM_STMT_EXECUTE logs the prepared text, PostgreSQL Bind values are not
 * read), so a `?` or `$1` password does not reach the log.
 */
import type { LexedText, Segment } from './lexed';
import { lexMysql, type MysqlLexOptions } from './mysql-lexer';
import { lexPostgres } from './postgres-lexer';

export type ScrubDialect = 'mysql' | 'postgresql';

/** What a password literal becomes. */
export const PASSWORD_MASK = "'********'";

/**
 * Only a text with `password` or `identified` (any case), or a URI's `://` (whose `u:x@host` may
 * hold a password without the word), can hold a password place; this looks for parts of the
 * words (`sword`, `ntifi`), which V8 finds two to three times faster than
 * /password|identified/i: 25 ns on a point select, 90 ns on 460 characters (Node 20). A text it
 * lets through without a password place costs a lexing and masks nothing.
 */
const WORDS = /[sS][wW][oO][rR][dD]|[nN][tT][iI][fF][iI]/;

/**
 * A URI whose user part holds a password: `scheme://user:password@host`. Bounded, so that a
 * long run of `x://y:` without an `@` costs linear time, not a scan to the text's end from each
 * `://` (1.7 s on the event loop for a 64 KiB literal when it was `[^\s]*@`).
 */
const URI_PASSWORD = /:\/\/[^\s@/]{0,128}:[^\s@]{0,256}@/;

/**
 * Whether the text may hold a password place (the search {@link scrubPasswords} starts with):
 * false means it has none. A text with `://` goes on only when a URI in it has a password, so a
 * plain URL is not lexed.
 */
export const mayHoldPassword = (sql: string): boolean =>
  WORDS.test(sql) || (sql.includes('://') && URI_PASSWORD.test(sql));

export interface ScrubbedText {
  /** The text with every password literal masked. */
  text: string;
  /** The masked spans as written (quotes included), to mask in a server's echo of the text. */
  secrets: string[];
}

/**
 * The text with its password literals masked; undefined when it has none (the usual case, which
 * costs one case-insensitive search of the text).
 */
export function scrubPasswords(sql: string, dialect: ScrubDialect): ScrubbedText | undefined {
  if (!mayHoldPassword(sql)) return undefined;
  const spans: Span[] = [];
  for (const lexed of readings(sql, dialect)) {
    for (const segment of lexed.segments) {
      const canonical = dialect === 'mysql' ? lexed.canonical : undefined;
      const tokens = tokensOf(sql, lexed.skeleton, segment, canonical);
      if (dialect === 'mysql') mysqlPlaces(sql, tokens, spans);
      else postgresPlaces(sql, tokens, spans);
    }
  }
  if (spans.length === 0) return undefined;
  return apply(sql, spans);
}

/**
 * Masks in a server's message (an error that quotes the statement: MySQL's `near '…'`,
 * PostgreSQL's `at or near "…"`) the spans that were masked in its statement. Spans shorter
 * than 3 characters are left: masking every `''` or `1` would garble the message.
 */
export function scrubEcho(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) {
    if (secret.length >= 3 && out.includes(secret)) out = out.split(secret).join(PASSWORD_MASK);
  }
  return out;
}

/**
 * Masks in a server's message everything from its first quote (`'` or `"`) to its last, for an
 * error about a text whose password places were not looked for (statement-log.ts: one too long
 * to lex on the event loop): whatever of the text it quotes is masked, and the message's own
 * words before and after stay (`… near '********' at line 1`, `syntax error at or near
 * '********'`). A message with no quote is kept as it is.
 */
export function scrubEchoBlind(message: string): string {
  const first = message.search(/['"]/);
  if (first === -1) return message;
  const last = Math.max(message.lastIndexOf("'"), message.lastIndexOf('"'));
  return message.slice(0, first) + PASSWORD_MASK + message.slice(last + 1);
}

/** Every way the server may read the text that can move a string's end (see the lexers). */
function readings(sql: string, dialect: ScrubDialect): LexedText[] {
  const backslash = sql.includes('\\');
  if (dialect === 'postgresql') {
    const standard = lexPostgres(sql, { standardStrings: true });
    return backslash ? [standard, lexPostgres(sql, { standardStrings: false })] : [standard];
  }
  // Every versioned comment is code: what an older server skips is logged masked all the same.
  const options: MysqlLexOptions[] = [
    { backslashEscapes: true, versions: { upTo: 999_999, mariadb: false } },
  ];
  if (sql.includes('/*M!')) {
    options.push({ backslashEscapes: true, versions: { upTo: 999_999, mariadb: true } });
  }
  if (backslash) {
    const versions = { upTo: 999_999, mariadb: false };
    options.push({ backslashEscapes: false, versions });
    options.push({ backslashEscapes: true, doubleQuoteEscapes: false, versions });
  }
  return options.map((option) => lexMysql(sql, option));
}

interface Span {
  start: number;
  end: number;
}

/**
 * A piece of a statement: a word (keyword, name, number), one symbol, or a run of what the
 * skeleton blanks (strings, quoted names, dollar-quoted bodies, comments, with the space
 * between them), trimmed of space at both ends.
 */
interface Token {
  kind: 'word' | 'symbol' | 'run';
  start: number;
  end: number;
  /** Lower-case text of a word or symbol ('' for a run). */
  lower: string;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && c.charCodeAt(0) <= 0x20;
const WORD_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;

/**
 * The statement's tokens. `canonical`: MySQL's, where comments and versioned-comment markers
 * are blanked but strings kept, so a run is trimmed to its strings (a comment only is no token,
 * and the `*\/` closing a versioned comment stays out of the mask); PostgreSQL's keeps
 * comments, so there a comment next to a literal is masked with it.
 */
function tokensOf(
  sql: string,
  skeleton: string,
  segment: Segment,
  canonical: string | undefined,
): Token[] {
  const tokens: Token[] = [];
  let i = segment.start;
  const end = segment.end;
  while (i < end) {
    const s = skeleton[i];
    if (isSpace(s)) {
      if (isSpace(sql[i])) {
        i += 1;
        continue;
      }
      // Blanked: strings and comments, up to the next code.
      const inRun = canonical ?? sql;
      let j = i;
      let first = -1;
      let last = -1;
      while (j < end && isSpace(skeleton[j])) {
        if (!isSpace(inRun[j])) {
          if (first === -1) first = j;
          last = j;
        }
        j += 1;
      }
      if (first !== -1) tokens.push({ kind: 'run', start: first, end: last + 1, lower: '' });
      i = j;
    } else if (WORD_CHAR.test(s ?? '')) {
      let j = i + 1;
      while (j < end && WORD_CHAR.test(skeleton[j] ?? '')) j += 1;
      tokens.push({ kind: 'word', start: i, end: j, lower: skeleton.slice(i, j).toLowerCase() });
      i = j;
    } else {
      tokens.push({ kind: 'symbol', start: i, end: i + 1, lower: s ?? '' });
      i += 1;
    }
  }
  return tokens;
}

/** Words that stand where a password may, and are none. */
const NOT_SECRET = new Set(['null', 'random', 'password', 'default', 'current', 'old']);

/**
 * Masks the value starting at tokens[at]: a run (a literal, perhaps with comments), the run
 * right after an introducer or prefix word (`X'…'`, `_latin1'…'`, `E'…'`, `U&'…'`), or, with
 * `bare`, a word that is not a keyword (an unquoted password, a number, `0x…`), and the literals
 * in parentheses there (`('x')`, `CONCAT('x', 'y')`, see {@link maskGroup}).
 */
function maskValue(tokens: Token[], at: number, spans: Span[], bare: boolean): void {
  const token = tokens[at];
  if (!token) return;
  if (token.kind === 'run') {
    spans.push({ start: token.start, end: token.end });
    return;
  }
  if (token.kind === 'symbol') {
    if (bare && token.lower === '(') maskGroup(tokens, at, spans);
    return;
  }
  // The literal glued to a prefix: X'…', _utf8mb4'…', E'…', or U&'…' (a word and a symbol).
  let glued = tokens[at + 1];
  if (token.lower === 'u' && glued?.lower === '&' && glued.start === token.end) {
    const after = tokens[at + 2];
    glued = after?.start === glued.end ? after : undefined;
  } else if (glued?.start !== token.end) {
    glued = undefined;
  }
  if (glued?.kind === 'run') {
    spans.push({ start: glued.start, end: glued.end });
    return;
  }
  if (!bare) return;
  if (tokens[at + 1]?.lower === '(') {
    // A function's name is no password; its arguments are (`CONCAT('x', 'y')`, `PASSWORD('x')`).
    maskGroup(tokens, at + 1, spans);
  } else if (!NOT_SECRET.has(token.lower)) {
    spans.push({ start: token.start, end: token.end });
  }
}

/**
 * Masks every literal between the `(` at tokens[open] and its `)` (or the statement's end), at
 * any depth, and a lone word inside (`(secret)`): a password in parentheses, which MySQL and
 * MariaDB refuse as a syntax error whose `near '…'` quotes it.
 */
function maskGroup(tokens: Token[], open: number, spans: Span[]): void {
  let depth = 0;
  let k = open;
  for (; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.lower === '(') depth += 1;
    else if (token.lower === ')') depth -= 1;
    else if (token.kind === 'run') spans.push({ start: token.start, end: token.end });
    if (depth === 0) break;
  }
  const only = tokens[open + 1];
  if (k === open + 2 && only?.kind === 'word' && !NOT_SECRET.has(only.lower)) {
    spans.push({ start: only.start, end: only.end });
  }
}

/** The first two words of a statement, lower-case. */
function headOf(tokens: Token[]): [string, string] {
  const words = tokens.filter((t) => t.kind === 'word');
  return [words[0]?.lower ?? '', words[1]?.lower ?? ''];
}

const MYSQL_ACCOUNT = new Set(['create', 'alter', 'grant', 'set']);
const MYSQL_REPLICATION = new Set(['change', 'start']);

function mysqlPlaces(sql: string, tokens: Token[], spans: Span[]): void {
  const [first, second] = headOf(tokens);
  const ddl = first === 'create' || first === 'alter';
  const account = MYSQL_ACCOUNT.has(first);
  const replication = MYSQL_REPLICATION.has(first);
  const setPassword = first === 'set' && second === 'password';
  let identified = false;
  tokens.forEach((token, k) => {
    const next = tokens[k + 1];
    if (token.kind === 'symbol') {
      if (token.lower === '=' && setPassword) maskValue(tokens, k + 1, spans, true);
      return;
    }
    if (token.kind !== 'word') return;
    const word = token.lower;
    if ((word === 'password' || word === 'old_password') && next?.lower === '(') {
      // PASSWORD('x'): the function (MySQL 5.7, MariaDB), in any statement.
      maskValue(tokens, k + 2, spans, true);
    } else if (word === 'identified' && account) {
      identified = true;
    } else if (
      (identified && (word === 'by' || word === 'as' || word === 'using')) ||
      (word === 'replace' && (identified || setPassword))
    ) {
      // IDENTIFIED BY PASSWORD '*hash' (the old form): the hash after the keyword.
      const at = next?.lower === 'password' && tokens[k + 2]?.lower !== '(' ? k + 2 : k + 1;
      maskValue(tokens, at, spans, true);
    } else if (replication && word.endsWith('password') && next?.lower === '=') {
      maskValue(tokens, k + 2, spans, true);
    } else if (account && word.endsWith('password')) {
      // Only a literal: `password VARCHAR(64)` of a CREATE TABLE is no password.
      maskValue(tokens, k + 1, spans, false);
    } else if (ddl && word === 'connection') {
      // A FEDERATED table's CONNECTION [=] 'mysql://user:password@host/db/table'.
      const value = tokens[next?.lower === '=' ? k + 2 : k + 1];
      if (value?.kind === 'run' && URI_PASSWORD.test(sql.slice(value.start, value.end))) {
        spans.push({ start: value.start, end: value.end });
      }
    }
  });
}

const POSTGRES_ROLE = new Set(['role', 'user', 'group']);
/**
 * A subscription's conninfo that may hold a password: any that names one, or a URI with one
 * (`postgresql://u:x@host`).
 */
const CONNECTION_SECRET = /password|:\/\/[^\s@/]{0,128}:[^\s@]{0,256}@/i;
/**
 * A setting's value that holds a conninfo password: a `password=x` (also `sslpassword=`, an
 * environment's `PGPASSWORD=`, a URI's `?password=`), or a URI's `u:x@host`. A value that only
 * names the word (`SET password_encryption = 'scram-sha-256'`) is no secret.
 */
const CONNINFO_PASSWORD = /password\s*=|:\/\/[^\s@/]{0,128}:[^\s@]{0,256}@/i;

function postgresPlaces(sql: string, tokens: Token[], spans: Span[]): void {
  const [first, second] = headOf(tokens);
  const ddl = first === 'create' || first === 'alter';
  if (!ddl && first !== 'set') return;
  const role = ddl && POSTGRES_ROLE.has(second);
  // After SET (`SET x = …`, `ALTER SYSTEM SET primary_conninfo = …`): a setting's value.
  let setting = !ddl;
  tokens.forEach((token, k) => {
    if (setting && token.kind === 'run') {
      if (CONNINFO_PASSWORD.test(sql.slice(token.start, token.end))) {
        spans.push({ start: token.start, end: token.end });
      }
      return;
    }
    if (token.kind !== 'word' || !ddl) return;
    const next = tokens[k + 1];
    if (token.lower === 'set') {
      setting = true;
    } else if (token.lower.endsWith('password')) {
      // A bare word only after a role's own PASSWORD (`ALTER ROLE app_password LOGIN` keeps LOGIN).
      maskValue(tokens, k + 1, spans, role && token.lower === 'password');
    } else if (token.lower === 'connection' && next?.kind === 'run') {
      if (CONNECTION_SECRET.test(sql.slice(next.start, next.end))) {
        spans.push({ start: next.start, end: next.end });
      }
    }
  });
}

/** The text with the spans (of every reading, perhaps overlapping) masked. */
function apply(sql: string, spans: Span[]): ScrubbedText {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  let text = '';
  let from = 0;
  const secrets: string[] = [];
  for (const span of merged) {
    text += sql.slice(from, span.start) + PASSWORD_MASK;
    secrets.push(sql.slice(span.start, span.end));
    from = span.end;
  }
  return { text: text + sql.slice(from), secrets };
}
