/**
 * Reads MySQL/MariaDB texts with node-sql-parser (its MySQL grammar, which reads more of what
 * MariaDB clients send than its MariaDB one). mysql-lexer.ts splits the text and rewrites
 * comments, versioned comments and backslashes first, so that each statement the parser gets is
 * one the server would run. Tables come from the parser's tableList ("op::db::table", every
 * table in subqueries, CTEs, joins and INSERT ... SELECT sources).
 *
 * The grammar has gaps (for example SET NAMES, SHOW VARIABLES, SAVEPOINT, REVOKE, NATURAL JOIN,
 * index hints, PREPARE/EXECUTE): such statements are unreadable, so refused when rules apply,
 * except a short list of session statements recognised by their first words (readSessionStatement).
 */
import mysqlParser from 'node-sql-parser/build/mysql.js';
import type { AST } from 'node-sql-parser';
import { LruCache } from './cache';
import { firstWord, type LexedText, type Segment } from './lexed';
import { lexMysql, versionReadings, type MysqlLexOptions } from './mysql-lexer';
import {
  READ_KINDS,
  unreadableFacts,
  type Description,
  type StatementFacts,
  type TableAccess,
} from './types';

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
  for (const backslashEscapes of hasBackslash ? [true, false] : [true]) {
    if (!backslashEscapes) options.push({ ...DEFAULT_READING, backslashEscapes });
    for (const reading of versions) options.push({ backslashEscapes, versions: reading });
  }
  for (const option of options) {
    const lexed = lexMysql(sql, option);
    if (seen.has(lexed.canonical)) continue;
    seen.add(lexed.canonical);
    readings.push(readLexed(sql, lexed, readings.length === 0));
  }
  return { readings };
}

/** The facts with another text, built field by field (a spread is a runtime call per text). */
const withText = (facts: StatementFacts, text: string): StatementFacts => ({
  text,
  kind: facts.kind,
  accesses: facts.accesses,
  tablesUnknown: facts.tablesUnknown,
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
 * bytes, multibyte-readings.ts), with backslashes escaping and not: each is judged as a reading
 * other than the default (a last statement that ends inside a string is dropped; the server
 * fails on it too).
 */
export function describeOtherMysql(sql: string): StatementFacts[][] {
  const readings: StatementFacts[][] = [];
  for (const backslashEscapes of sql.includes('\\') ? [true, false] : [true]) {
    readings.push(readLexed(sql, lexMysql(sql, { ...DEFAULT_READING, backslashEscapes }), false));
  }
  return readings;
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
    const facts = readStatement(text, code) ?? readSessionStatement(text, lexed, segment);
    if (facts) {
      statements.push(facts);
    } else if (primary || !segment.unterminated) {
      // Another reading's last piece that ends inside a string fails on the server too.
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

/** Kinds named by node-sql-parser's `type` where ours differ. */
const KIND_OF_TYPE: Record<string, string> = { desc: 'describe', load_data: 'load' };

/** Transaction actions (node-sql-parser's `transaction` statement) as kinds. */
const KIND_OF_ACTION: Record<string, string> = {
  begin: 'begin',
  start: 'begin',
  commit: 'commit',
  rollback: 'rollback',
};

const OPAQUE_TYPES = new Set(['call']);

/* node-sql-parser's AST types are a partial union; the few fields read here are checked. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseAst = Record<string, any>;

/**
 * SETs that are not session state: an account's password (the connect account's, which every
 * later login through the gateway needs) and the server's global or persisted settings.
 */
const SERVER_SET = /^\s*set\s+(?:password\b|global\b|persist(?:_only)?\b)|@@(?:global|persist)/i;
/** MariaDB's sequence functions, which move a sequence from any statement, a SELECT too. */
const SEQUENCE_CHANGE = /\b(?:setval|nextval)\s*\(|\bnext\s+value\s+for\b/i;

function factsOf(text: string, node: AST, tableList: string[], code: string): StatementFacts {
  const ast = node as LooseAst;
  const type = String(ast.type).toLowerCase();
  let kind = KIND_OF_TYPE[type] ?? type;
  if (type === 'explain') kind = String((ast.expr as LooseAst | undefined)?.type ?? 'other');
  if (type === 'transaction') {
    const action = String(ast.expr?.action?.value ?? '').toLowerCase();
    kind = KIND_OF_ACTION[action] ?? 'other';
  }
  const accesses: TableAccess[] = [];
  for (const entry of tableList) {
    const [op = '', db = 'null', table = 'null'] = entry.split('::');
    if (table === 'null') continue; // show::null::null, use::db::null
    accesses.push(access(op.toLowerCase() === 'rename' ? 'alter' : op, table, db));
  }
  let tablesUnknown = false;
  let writesFile = false;
  if (type === 'replace') {
    // REPLACE deletes the rows it replaces.
    for (const a of [...accesses]) if (a.op === 'insert') accesses.push({ ...a, op: 'delete' });
  }
  if (type === 'insert' && ast.on_duplicate_update) {
    for (const a of [...accesses]) if (a.op === 'insert') accesses.push({ ...a, op: 'update' });
  }
  if (type === 'load_data' && ast.table?.table) {
    accesses.push(access('insert', String(ast.table.table), String(ast.table.db ?? 'null')));
  }
  if (type === 'select' && ast.into?.position) {
    // INTO @var sets a variable; INTO OUTFILE / DUMPFILE writes a file on the server.
    writesFile = String(ast.into.keyword ?? '').toLowerCase() !== 'var';
  }
  if (type === 'grant' || type === 'revoke') {
    const levels = (ast.on?.priv_level ?? []) as { prefix?: string; name?: string }[];
    for (const level of levels) {
      if (!level.name || level.name === '*') tablesUnknown = true;
      else accesses.push(access(type, level.name, level.prefix ?? 'null'));
    }
    if (levels.length === 0) tablesUnknown = true;
  }
  if (type === 'drop' && (ast.keyword === 'database' || ast.keyword === 'schema')) {
    tablesUnknown = true; // drops every table in it
  }
  const opaque = OPAQUE_TYPES.has(type);
  const changes =
    opaque ||
    writesFile ||
    (kind === 'set' && SERVER_SET.test(code)) ||
    SEQUENCE_CHANGE.test(code) ||
    !READ_KINDS.has(kind) ||
    accesses.some((a) => a.op !== 'select' && a.op !== 'show');
  return { text, kind, accesses, tablesUnknown, changes, opaque, unreadable: false };
}

function access(op: string, table: string, db: string): TableAccess {
  const name = unquote(table);
  const schema = db === 'null' || db === '' ? undefined : unquote(db);
  return schema
    ? { op: op.toLowerCase(), table: name, schema }
    : { op: op.toLowerCase(), table: name };
}

/** node-sql-parser keeps a doubled backtick inside a quoted name as written. */
function unquote(name: string): string {
  return name.replace(/``/g, '`').toLowerCase();
}

/**
 * Session statements clients send on connect and that node-sql-parser cannot read (SET NAMES,
 * SHOW VARIABLES, SAVEPOINT ...), recognised by their first words. None of them can change data;
 * a statement with a SELECT anywhere (SHOW ... WHERE (SELECT ...)) is not recognised.
 */
function readSessionStatement(
  text: string,
  lexed: LexedText,
  segment: Segment,
): StatementFacts | undefined {
  const words = (lexed.skeleton.slice(segment.start, segment.end).match(/[A-Za-z_]+/g) ?? []).map(
    (word) => word.toLowerCase(),
  );
  if (words.includes('select')) return undefined;
  const [first, second, third] = words;
  let kind: string | undefined;
  if (first === 'show') kind = 'show';
  else if (first === 'savepoint') kind = 'savepoint';
  else if (first === 'release' && second === 'savepoint') kind = 'release';
  else if (first === 'rollback' && (second === 'to' || second === 'work')) kind = 'rollback';
  else if (first === 'deallocate' || (first === 'drop' && second === 'prepare'))
    kind = 'deallocate';
  else if (
    first === 'set' &&
    ['names', 'charset', 'character', 'transaction'].includes(second ?? '')
  )
    kind = 'set';
  else if (
    first === 'set' &&
    ['session', 'local'].includes(second ?? '') &&
    third === 'transaction'
  )
    kind = 'set';
  if (!kind) return undefined;
  return {
    text,
    kind,
    accesses: [],
    tablesUnknown: false,
    changes: false,
    opaque: false,
    unreadable: false,
  };
}
