/**
 * What the dialect readers (mysql.ts, postgres.ts) tell the judge about one text, before any
 * policy is applied. Descriptions are policy-free so that one cached description serves every
 * session, whatever its rules.
 */

/**
 * One table a statement touches, and how: `op` is a SqlOp or another lower-case verb (lock), or
 * {@link RENAMES}.
 */
export interface TableAccess {
  op: string;
  /** Lower-case, unquoted; {@link EVERY_TABLE} for every table (of `schema`, when it names one). */
  table: string;
  /** Lower-case schema (PostgreSQL) or database (MySQL), when the statement names one. */
  schema?: string;
}

/**
 * The op of an access that gives a table another name or place (RENAME, SET SCHEMA, a schema's
 * rename, putting it under a parent table): later statements reach its rows by a name that no
 * rule on the table names, so such an access matches every rule that names the table, whatever
 * the rule's op.
 */
export const RENAMES = 'rename';

/** The table of an access to every table (of its schema, when it has one). */
export const EVERY_TABLE = '*';

/**
 * For a statement that acts on tables it does not name (DROP SCHEMA, GRANT ... ON ALL TABLES,
 * GRANT ON *.*, a CASCADE): an access to every table for each op it has (its kind and its
 * accesses' ops), so that a rule of any of those ops matches it whatever the rule's table.
 * {@link RENAMES} is left out: it would match every rule naming a table, whatever its op.
 */
export function everyTableAccesses(kind: string, accesses: readonly TableAccess[]): TableAccess[] {
  const ops = new Set([kind, ...accesses.map((a) => a.op)]);
  ops.delete(RENAMES);
  return [...ops].map((op) => ({ op, table: EVERY_TABLE }));
}

/** One statement as the parser read it. */
export interface StatementFacts {
  /** The statement's text as the client sent it, trimmed. */
  text: string;
  /** Lower-case kind: select, insert, set, show, begin, ... (see READ_KINDS below). */
  kind: string;
  /** A statement that acts on tables it does not name has {@link everyTableAccesses}. */
  accesses: TableAccess[];
  /** Changes data or schema (or might: unknown kinds count as changes). */
  changes: boolean;
  /** Runs statements the parser cannot see (DO, CALL, EXECUTE). */
  opaque: boolean;
  /** The parser could not read it. */
  unreadable: boolean;
}

/**
 * A text read every way the server might read it. `readings[0]` is the ordinary reading; the
 * others exist only when a session setting could change how the server splits the text
 * (backslashes in strings, MySQL versioned comments), and are judged too.
 */
export interface Description {
  readings: StatementFacts[][];
  /**
   * Found by its shape without lexing (a plain MySQL text, mysql.ts): the shape's own facts,
   * shared by every text of the shape (their text is ''). The shape cache serves the next text
   * of that shape, so the text itself is not cached as well (with a new literal each time,
   * such entries would only churn the cache and the garbage collector), and the judge keeps
   * its verdict on the shape, which is every such text's verdict.
   */
  byShape?: StatementFacts;
}

/** Kinds that read (or only set session state). Anything else counts as a change. */
export const READ_KINDS = new Set([
  'select',
  'values',
  'show',
  'describe',
  'set',
  'use',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'discard',
  'deallocate',
  'fetch',
  'close',
  'listen',
  'unlisten',
  'unlock',
  'help',
]);

/** Facts for a statement the parser could not read. */
export function unreadableFacts(text: string): StatementFacts {
  return {
    text,
    kind: 'other',
    accesses: everyTableAccesses('other', []),
    changes: true,
    opaque: false,
    unreadable: true,
  };
}
