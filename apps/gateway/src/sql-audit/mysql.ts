/**
 * Reads MySQL/MariaDB texts with node-sql-parser (its MySQL grammar, which reads more of what
 * MariaDB clients send than its MariaDB one). mysql-lexer.ts splits the text and rewrites
 * comments, versioned comments and backslashes first, so that each statement the parser gets is
 * one the server would run. Tables come from the parser's tableList ("op::db::table", every
 * table in subqueries, CTEs, joins and INSERT ... SELECT sources).
 *
 * The grammar has gaps (for example SET NAMES, SHOW VARIABLES, SAVEPOINT, REVOKE, NATURAL JOIN,
 * index hints, PREPARE/EXECUTE): such statements are unreadable, so refused when rules apply,
 * except a short list of session statements recognised by their words (readSessionStatement).
 * What a parsed statement does (its kind, tables, whether it changes anything) is mysql-facts.ts's.
 */
import mysqlParser from 'node-sql-parser/build/mysql.js';
import type { AST } from 'node-sql-parser';
import { LruCache } from './cache';
import { firstWord, type LexedText, type Segment } from './lexed';
import { lexMysql, versionReadings, type MysqlLexOptions } from './mysql-lexer';
import { factsOf, readSessionStatement } from './mysql-facts';
import { unreadableFacts, type Description, type StatementFacts } from './types';

const parser = new mysqlParser.Parser();
const PARSE_OPTIONS = { database: 'MySQL' };

/** The default reading: escapes on, every versioned comment code (a current server). */
const DEFAULT_READING: MysqlLexOptions = {
  backslashEscapes: true,
  versions: { upTo: 999_999, mariadb: false },
};

/** Splits without parsing: the statement texts and their first words. */
export function splitMysql(sql: string): { text: string; word: string }[] {
  const lexed = lexMysql(sql, DEFAULT_READING);
  return lexed.segments
    .map((segment) => ({
      text: sql.slice(segment.start, segment.end).trim(),
      word: firstWord(lexed.skeleton, segment),
    }))
    .filter((statement) => statement.word !== '' || statement.text !== '');
}

/**
 * Facts of texts that differ only in their literals: `SELECT c FROM sbtest1 WHERE id = 4711` is
 * parsed once for every id. Keyed by {@link shapeOf}; the texts are left out of an entry (a hit
 * gets the current text's own), and only readable texts are kept, so a text the parser fails
 * on is never refused on another text's account.
 */
const shapes = new LruCache<StatementFacts[]>(1000);

export function describeMysql(sql: string): Description {
  // A plain text of a shape seen before needs no lexing: its facts, with its own text.
  const plain = plainShape(sql);
  if (plain) {
    const known = shapes.get(plain.shape);
    const facts = known?.length === 1 ? known[0]! : undefined;
    if (facts) return { readings: [[withText(facts, plain.text)]], byShape: facts };
  }
  const hasBackslash = sql.includes('\\');
  const hasVersioned = sql.includes('/*!') || sql.includes('/*M!');
  // Without backslashes or versioned comments every reading is the same: one is enough.
  if (!hasBackslash && !hasVersioned) return describeByShape(sql);
  const readings: StatementFacts[][] = [];
  const seen = new Set<string>();
  const versions = hasVersioned ? versionReadings(sql) : [];
  const options: MysqlLexOptions[] = [DEFAULT_READING];
  for (const mode of escapeModes(sql)) {
    if (mode !== BOTH_ESCAPE) options.push({ ...DEFAULT_READING, ...mode });
    for (const reading of versions) options.push({ ...mode, versions: reading });
  }
  for (const option of options) {
    const lexed = lexMysql(sql, option);
    if (seen.has(lexed.canonical)) continue;
    seen.add(lexed.canonical);
    readings.push(readLexed(sql, lexed, readings.length === 0));
  }
  return { readings };
}

type EscapeMode = Pick<MysqlLexOptions, 'backslashEscapes' | 'doubleQuoteEscapes'>;

/** Backslashes escape in '...' and "..." strings: the default sql_mode. */
const BOTH_ESCAPE: EscapeMode = { backslashEscapes: true, doubleQuoteEscapes: true };
/**
 * Every way a server may read backslashes in quotes: both escape; neither (NO_BACKSLASH_ESCAPES);
 * only '...' (ANSI_QUOTES, where "..." is a name and a backslash in it is plain); and only "...",
 * which no mode gives, judged anyway so that no mix of the two is left unread.
 */
const ESCAPE_MODES: EscapeMode[] = [
  BOTH_ESCAPE,
  { backslashEscapes: false, doubleQuoteEscapes: false },
  { backslashEscapes: true, doubleQuoteEscapes: false },
  { backslashEscapes: false, doubleQuoteEscapes: true },
];

/** The escape modes that may read `sql` differently (without a `"`, the mixed ones cannot). */
function escapeModes(sql: string): EscapeMode[] {
  if (!sql.includes('\\')) return [BOTH_ESCAPE];
  return sql.includes('"') ? ESCAPE_MODES : ESCAPE_MODES.slice(0, 2);
}

/** The facts with another text, built field by field (a spread is a runtime call per text). */
const withText = (facts: StatementFacts, text: string): StatementFacts => ({
  text,
  kind: facts.kind,
  accesses: facts.accesses,
  changes: facts.changes,
  opaque: facts.opaque,
  unreadable: facts.unreadable,
});

/** A text's code as the server reads it: comments and versioned-comment markers blanked. */
export function mysqlCode(sql: string): string {
  return lexMysql(sql, DEFAULT_READING).canonical;
}

/**
 * The readings of a text the server may or may not see (another character set's reading of the
 * bytes, multibyte-readings.ts), in every escape mode: each is judged as a reading other than
 * the default (a last statement that ends inside a string is dropped; the server fails on it too).
 */
export function describeOtherMysql(sql: string): StatementFacts[][] {
  return escapeModes(sql).map((mode) =>
    readLexed(sql, lexMysql(sql, { ...DEFAULT_READING, ...mode }), false),
  );
}

function describeByShape(sql: string): Description {
  const lexed = lexMysql(sql, DEFAULT_READING);
  // A text ending inside a string, name or comment would take the shape of a closed one.
  if (lexed.segments.some((segment) => segment.unterminated)) {
    return { readings: [readLexed(sql, lexed, true)] };
  }
  const shape = shapeOf(lexed.canonical);
  const known = shapes.get(shape);
  if (known) {
    const texts = statementSegments(sql, lexed).map(({ text }) => text);
    if (known.length === texts.length) {
      return { readings: [known.map((facts, i) => ({ ...facts, text: texts[i]! }))] };
    }
  }
  const statements = readLexed(sql, lexed, true);
  if (statements.every((facts) => !facts.unreadable)) {
    shapes.set(
      shape,
      statements.map((facts) => ({ ...facts, text: '' })),
    );
  }
  return { readings: [statements] };
}

/** The segments that hold a statement (not only comments), with its text and its code. */
function statementSegments(
  sql: string,
  lexed: LexedText,
): { segment: Segment; text: string; code: string }[] {
  return lexed.segments
    .map((segment) => ({
      segment,
      text: sql.slice(segment.start, segment.end).trim(),
      code: lexed.canonical.slice(segment.start, segment.end).trim(),
    }))
    .filter(({ code }) => code !== ''); // only comments: the server answers "Query was empty"
}

const NAME_CHAR = /[0-9A-Za-z_$\u0080-\uffff]/;

/**
 * A lexed text (comments already blank, no backslashes) with the values of its literals left
 * out: each single-quoted string becomes `''` and each number made only of digits `0`. Names are
 * kept whole, quoted or not (`t1`, `"orders"` under ANSI_QUOTES, `` `x` ``), and so is anything
 * else that holds a digit (`1e5`, `0x1f`, `9t` is a name), so two whole texts of one shape
 * differ only in values a rule never looks at. (A text cut inside a string is not whole: its
 * shape is a closed string's, so describeByShape reads it the long way.)
 */
export function shapeOf(canonical: string): string {
  let out = '';
  let i = 0;
  const n = canonical.length;
  while (i < n) {
    const c = canonical[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n && !(canonical[j] === c && canonical[j + 1] !== c)) {
        j += canonical[j] === c ? 2 : 1;
      }
      out += c === "'" ? "''" : canonical.slice(i, j + 1);
      i = j + 1;
    } else if (NAME_CHAR.test(c)) {
      let j = i + 1;
      while (j < n && NAME_CHAR.test(canonical[j]!)) j++;
      const word = canonical.slice(i, j);
      out += /^[0-9]+$/.test(word) ? '0' : word;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Characters that start a string, a quoted name, an escape or a comment (`#`, `--`, `/*`). */
const NOT_PLAIN = /['"`\\#]|--|\/\*/;
/** A number made only of digits, as a whole word: no {@link NAME_CHAR} either side (as shapeOf). */
const DIGITS_WORD = new RegExp(`(?<!${NAME_CHAR.source})[0-9]+(?!${NAME_CHAR.source})`, 'g');

/**
 * The shape and statement text of a plain text: one statement (a `;` only at the end) with no
 * quote, backslash or comment in it. Lexing such a text changes nothing (its canonical form is
 * itself, with one segment), so {@link shapeOf} of the text itself is the shape the long way
 * finds, and a digits-only word is all it replaces. Most statements an application sends with
 * values in place (`SELECT c FROM sbtest1 WHERE id=4711`) are plain: they skip the lexer.
 */
export function plainShape(sql: string): { shape: string; text: string } | undefined {
  if (NOT_PLAIN.test(sql)) return undefined;
  const semicolon = sql.indexOf(';');
  if (semicolon !== -1 && sql.slice(semicolon + 1).trim() !== '') return undefined;
  const text = (semicolon === -1 ? sql : sql.slice(0, semicolon)).trim();
  if (text === '') return undefined;
  return { shape: sql.replace(DIGITS_WORD, '0'), text };
}

function readLexed(sql: string, lexed: LexedText, primary: boolean): StatementFacts[] {
  const statements: StatementFacts[] = [];
  for (const { segment, text, code } of statementSegments(sql, lexed)) {
    const facts = readStatement(text, code) ?? readSessionStatement(text, code, lexed, segment);
    if (facts) {
      statements.push(facts);
    } else if (primary || !segment.endsInQuote) {
      // Another reading's last piece that ends inside a string or quoted name fails on the
      // server too (`'it\'s'` read without escapes must not refuse the text). One that ends
      // inside a comment is unreadable, as in the default reading: fail closed.
      statements.push(unreadableFacts(text));
    }
  }
  return statements;
}

function readStatement(text: string, code: string): StatementFacts | undefined {
  let ast: AST[] | AST;
  let tableList: string[];
  try {
    ({ ast, tableList } = parser.parse(code, PARSE_OPTIONS));
  } catch {
    return undefined;
  }
  const asts = Array.isArray(ast) ? ast : [ast];
  // The lexer already split at every `;`: more than one statement here means the parser and the
  // lexer disagree on the text's shape.
  if (asts.length !== 1 || !asts[0]) return undefined;
  return factsOf(text, asts[0], tableList, code);
}
