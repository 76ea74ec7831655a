/**
 * What one MySQL/MariaDB statement does, from node-sql-parser's tree and tableList
 * ("op::db::table", every table in subqueries, CTEs, joins and INSERT ... SELECT sources): its
 * kind, the tables it touches and how, whether it changes data or schema. Where the tableList
 * is wrong or silent (a multi-table DELETE's targets, a rename, LOAD DATA ... REPLACE) the tree
 * is read instead. Also the session statements the grammar cannot read, recognised by their
 * words (readSessionStatement).
 */
import type { AST } from 'node-sql-parser';
import type { LexedText, Segment } from './lexed';
import {
  READ_KINDS,
  RENAMES,
  everyTableAccesses,
  type StatementFacts,
  type TableAccess,
} from './types';

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
 * later login through the gateway needs) and the server's global or persisted settings, first
 * or anywhere in the SET's list (MariaDB runs `SET @x = 1, PASSWORD = PASSWORD('…')`, which
 * node-sql-parser reads as setting a variable named PASSWORD). A `, password` in a string or an
 * argument list counts too: more rather than fewer.
 */
const SERVER_SET =
  /(?:^\s*set|,)\s*(?:password\b|global\b|persist(?:_only)?\b)|@@(?:global|persist)/i;
/** LOAD DATA ... REPLACE INTO TABLE (node-sql-parser reads the word but leaves it out of its tree). */
const LOAD_REPLACE = /\breplace\s+into\s+table\b/i;
/** MariaDB's sequence functions, which move a sequence from any statement, a SELECT too. */
const SEQUENCE_CHANGE = /\b(?:setval|nextval)\s*\(|\bnext\s+value\s+for\b/i;

export function factsOf(
  text: string,
  node: AST,
  tableList: string[],
  code: string,
): StatementFacts {
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
    if (op.toLowerCase() === 'rename') {
      accesses.push(access('alter', table, db));
    } else if (type === 'delete' && op.toLowerCase() === 'delete') {
      // node-sql-parser marks the FROM tables outside a JOIN as deleted, whatever the targets
      // say: read here, and the targets' tables are added below.
      accesses.push(access('select', table, db));
    } else {
      accesses.push(access(op, table, db));
    }
  }
  if (type === 'delete') accesses.push(...deleteTargets(ast));
  if (type === 'rename' || type === 'alter') accesses.push(...renamedTables(ast));
  let reachesUnnamed = false;
  let writesFile = false;
  if (type === 'replace') {
    // REPLACE deletes the rows it replaces.
    for (const a of [...accesses]) if (a.op === 'insert') accesses.push({ ...a, op: 'delete' });
  }
  if (type === 'insert' && ast.on_duplicate_update) {
    for (const a of [...accesses]) if (a.op === 'insert') accesses.push({ ...a, op: 'update' });
  }
  if (type === 'load_data' && ast.table?.table) {
    const { table, db } = ast.table as { table: unknown; db?: unknown };
    accesses.push(access('insert', String(table), String(db ?? 'null')));
    // LOAD DATA ... REPLACE deletes the rows it replaces, as REPLACE does.
    if (LOAD_REPLACE.test(code))
      accesses.push(access('delete', String(table), String(db ?? 'null')));
  }
  if (type === 'select' && ast.into?.position) {
    // INTO @var sets a variable; INTO OUTFILE / DUMPFILE writes a file on the server.
    writesFile = String(ast.into.keyword ?? '').toLowerCase() !== 'var';
  }
  if (type === 'grant' || type === 'revoke') {
    const levels = (ast.on?.priv_level ?? []) as { prefix?: string; name?: string }[];
    for (const level of levels) {
      if (!level.name || level.name === '*') reachesUnnamed = true;
      else accesses.push(access(type, level.name, level.prefix ?? 'null'));
    }
    if (levels.length === 0) reachesUnnamed = true;
  }
  if (type === 'drop' && (ast.keyword === 'database' || ast.keyword === 'schema')) {
    reachesUnnamed = true; // drops every table in it
  }
  const opaque = OPAQUE_TYPES.has(type);
  const changes =
    opaque ||
    writesFile ||
    (kind === 'set' && SERVER_SET.test(code)) ||
    SEQUENCE_CHANGE.test(code) ||
    !READ_KINDS.has(kind) ||
    accesses.some((a) => a.op !== 'select' && a.op !== 'show');
  if (reachesUnnamed) accesses.push(...everyTableAccesses(kind, accesses));
  return { text, kind, accesses, changes, opaque, unreadable: false };
}

/** A FROM entry or DELETE target as node-sql-parser gives it (a subquery has `expr`). */
interface TableRef {
  db?: string | null;
  table?: string | null;
  as?: string | null;
  expr?: unknown;
}

const same = (a: string | null | undefined, b: string | null | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && unquote(a) === unquote(b);

/**
 * The tables a DELETE deletes from: each target (`DELETE o, s FROM ...`; a single-table DELETE's
 * one table) resolved through FROM, by alias or by name. Every FROM table the target may mean is
 * taken (a name that is both an alias and a table is both); a target that FROM does not resolve
 * to a table (a subquery's alias, which the server refuses to delete from, or a shape not known
 * here) makes every FROM table a target: more rather than fewer (fail closed).
 */
function deleteTargets(ast: LooseAst): TableAccess[] {
  const from = (Array.isArray(ast.from) ? ast.from : []) as TableRef[];
  const targets = (Array.isArray(ast.table) ? ast.table : []) as TableRef[];
  const found: TableAccess[] = [];
  const everyFromTable = (): TableAccess[] =>
    from.flatMap((entry) =>
      typeof entry.table === 'string'
        ? [access('delete', entry.table, String(entry.db ?? 'null'))]
        : [],
    );
  if (targets.length === 0) return everyFromTable();
  for (const target of targets) {
    if (typeof target.table !== 'string') return everyFromTable();
    const meant = from.filter(
      (entry) =>
        same(entry.as, target.table) ||
        (same(entry.table, target.table) && (!target.db || !entry.db || same(entry.db, target.db))),
    );
    if (meant.some((entry) => typeof entry.table !== 'string')) return everyFromTable();
    if (meant.length === 0) meant.push(target);
    for (const entry of meant) {
      found.push(access('delete', String(entry.table), String(entry.db ?? target.db ?? 'null')));
    }
  }
  return found;
}

/**
 * The tables a RENAME TABLE or ALTER TABLE ... RENAME gives a new name (or database), as
 * {@link RENAMES} accesses: judge.ts matches them against every rule naming the table.
 */
function renamedTables(ast: LooseAst): TableAccess[] {
  if (ast.type === 'rename') {
    const pairs = (Array.isArray(ast.table) ? ast.table : []) as TableRef[][];
    return pairs.flatMap(([from]) =>
      typeof from?.table === 'string'
        ? [access(RENAMES, from.table, String(from.db ?? 'null'))]
        : [],
    );
  }
  const actions = (Array.isArray(ast.expr) ? ast.expr : []) as LooseAst[];
  // RENAME COLUMN is `resource: 'column'`, and leaves the table's name alone.
  if (!actions.some((a) => a.action === 'rename' && a.resource === 'table')) return [];
  const tables = (Array.isArray(ast.table) ? ast.table : []) as TableRef[];
  return tables.flatMap((table) =>
    typeof table.table === 'string'
      ? [access(RENAMES, table.table, String(table.db ?? 'null'))]
      : [],
  );
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

/** A character set or collation: a name, quoted or not. */
const CHARSET_NAME = /(?:[\w$]+|'[^'\\]*'|"[^"\\]*"|`[^`]*`)/.source;
/**
 * The whole of a SET NAMES or SET CHARACTER SET, in a statement's code (comments blank). A SET
 * is a list (`SET NAMES utf8mb4, GLOBAL general_log = 0`): anything after the character set is
 * left to the parser, which cannot read it, so the statement is unreadable.
 */
const SET_CHARSET = new RegExp(
  `^\\s*set\\s+(?:names|charset|character\\s+set)\\s+${CHARSET_NAME}(?:\\s+collate\\s+${CHARSET_NAME})?\\s*$`,
  'i',
);
const ISOLATION =
  /isolation\s+level\s+(?:read\s+uncommitted|read\s+committed|repeatable\s+read|serializable)|read\s+(?:write|only)/
    .source;
/** The whole of a SET [SESSION] TRANSACTION: its characteristics and nothing else. */
const SET_TRANSACTION = new RegExp(
  `^\\s*set\\s+(?:(?:session|local)\\s+)?transaction\\s+(?:${ISOLATION})(?:\\s*,\\s*(?:${ISOLATION}))*\\s*$`,
  'i',
);

/**
 * Session statements clients send on connect and that node-sql-parser cannot read (SET NAMES,
 * SHOW VARIABLES, SAVEPOINT ...), recognised by their first words, or for a SET by its whole
 * code (a SET's list may hold a server setting or a password after them). None of them can
 * change data; a statement with a SELECT anywhere (SHOW ... WHERE (SELECT ...)) is not recognised.
 */
export function readSessionStatement(
  text: string,
  code: string,
  lexed: LexedText,
  segment: Segment,
): StatementFacts | undefined {
  const words = (lexed.skeleton.slice(segment.start, segment.end).match(/[A-Za-z_]+/g) ?? []).map(
    (word) => word.toLowerCase(),
  );
  if (words.includes('select')) return undefined;
  const [first, second] = words;
  let kind: string | undefined;
  if (first === 'show') kind = 'show';
  else if (first === 'savepoint') kind = 'savepoint';
  else if (first === 'release' && second === 'savepoint') kind = 'release';
  else if (first === 'rollback' && (second === 'to' || second === 'work')) kind = 'rollback';
  else if (first === 'deallocate' || (first === 'drop' && second === 'prepare'))
    kind = 'deallocate';
  else if (first === 'set' && (SET_CHARSET.test(code) || SET_TRANSACTION.test(code))) kind = 'set';
  if (!kind) return undefined;
  return {
    text,
    kind,
    accesses: [],
    changes: false,
    opaque: false,
    unreadable: false,
  };
}
