/**
 * Reads PostgreSQL texts with libpg-query: PostgreSQL's own parser (libpg_query, PostgreSQL 18
 * grammar) compiled to WASM, so what it reads is what the server reads. The JSON tree is walked
 * for every relation (RangeVar) with the verb that touches it: the target of INSERT, UPDATE,
 * DELETE and MERGE (also inside a CTE), the object of DDL, GRANT and TRUNCATE, `select` for
 * everything read (FROM, JOIN, subqueries, CTEs, USING, INSERT ... SELECT sources).
 *
 * Choices: EXPLAIN is judged as the statement it explains (EXPLAIN ANALYZE runs it); PREPARE
 * and DECLARE CURSOR as their query; SELECT ... INTO creates a table (kind create); SELECT ...
 * FOR UPDATE is a read; INSERT ... ON CONFLICT DO UPDATE also counts as an update; DO, CALL and
 * EXECUTE are opaque; a CASCADE matches rules of its op on every table (it reaches tables it
 * does not name); role memberships given by ALTER GROUP or CREATE ROLE, default privileges, a
 * table's new owner and REASSIGN OWNED count as grants; a rename or move of a table matches
 * every rule naming it (judge.ts); COMMIT PREPARED and ROLLBACK PREPARED are changes. Functions called inside a read are not looked into (a function that writes
 * passes as a read): that is a limit of any statement judge.
 */
import { loadModule, parseSync } from 'libpg-query';
import { lexPostgres } from './postgres-lexer';
import {
  EVERY_TABLE,
  READ_KINDS,
  RENAMES,
  everyTableAccesses,
  unreadableFacts,
  type Description,
  type StatementFacts,
  type TableAccess,
} from './types';

let loaded: Promise<void> | undefined;
let ready = false;

/** Loads the WASM module once. */
export function loadPostgresParser(): Promise<void> {
  loaded ??= loadModule().then(() => {
    ready = true;
  });
  return loaded;
}

export function postgresParserReady(): boolean {
  return ready;
}

/* The parse tree is JSON (libpg-query's @pgsql/types); the walk reads it generically. */
type Node = Record<string, unknown>;

export function describePostgres(sql: string): Description {
  const readings = [readText(sql, sql, true)];
  if (sql.includes('\\')) {
    // The same text as a server with standard_conforming_strings = off would split it.
    const other = lexPostgres(sql, { standardStrings: false }).canonical;
    if (other !== sql) {
      const statements = readText(sql, other, false);
      if (statements) readings.push(statements);
    }
  }
  // readText returns undefined only for a non-primary reading.
  return { readings: readings.filter((r): r is StatementFacts[] => r !== undefined) };
}

/**
 * Parses `code` (same length as `sql`) and describes each statement with its text cut from
 * `sql`. A reading other than the default that does not parse is dropped: the server in that
 * mode would refuse the whole text too (PostgreSQL parses a simple Query whole before running it).
 */
function readText(sql: string, code: string, primary: boolean): StatementFacts[] | undefined {
  let stmts: { stmt?: Node; stmt_location?: number; stmt_len?: number }[];
  try {
    stmts = parseSync(code).stmts as typeof stmts;
  } catch {
    return primary ? [unreadableFacts(sql.trim())] : undefined;
  }
  const cut = textCutter(sql);
  return (stmts ?? []).map((entry) => {
    const text = cut(entry.stmt_location ?? 0, entry.stmt_len ?? 0);
    return entry.stmt ? describeStatement(text, entry.stmt) : unreadableFacts(text);
  });
}

/** libpg_query's locations are UTF-8 byte offsets; a length of 0 means "to the end". */
function textCutter(sql: string): (location: number, length: number) => string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(sql)) {
    return (location, length) => sql.slice(location, length ? location + length : undefined).trim();
  }
  const bytes = Buffer.from(sql, 'utf8');
  return (location, length) =>
    bytes
      .subarray(location, length ? location + length : undefined)
      .toString('utf8')
      .trim();
}

const TRANSACTION_KINDS: Record<string, string> = {
  TRANS_STMT_BEGIN: 'begin',
  TRANS_STMT_START: 'begin',
  TRANS_STMT_COMMIT: 'commit',
  TRANS_STMT_ROLLBACK: 'rollback',
  TRANS_STMT_SAVEPOINT: 'savepoint',
  TRANS_STMT_RELEASE: 'release',
  TRANS_STMT_ROLLBACK_TO: 'rollback',
  // They end a transaction another session prepared, writing (or discarding) its changes: not
  // this session's transaction control, so changes (not in READ_KINDS).
  TRANS_STMT_COMMIT_PREPARED: 'commit prepared',
  TRANS_STMT_ROLLBACK_PREPARED: 'rollback prepared',
  TRANS_STMT_PREPARE: 'prepare transaction',
};

/** Node types whose kind is fixed (the rest: Create* create, Alter* alter, Drop* drop). */
const KIND_OF_NODE: Record<string, string> = {
  InsertStmt: 'insert',
  UpdateStmt: 'update',
  DeleteStmt: 'delete',
  MergeStmt: 'merge',
  TruncateStmt: 'truncate',
  CopyStmt: 'copy',
  ViewStmt: 'create',
  IndexStmt: 'create',
  RuleStmt: 'create',
  DefineStmt: 'create',
  CompositeTypeStmt: 'create',
  RenameStmt: 'alter',
  VariableSetStmt: 'set',
  VariableShowStmt: 'show',
  DiscardStmt: 'discard',
  DeallocateStmt: 'deallocate',
  FetchStmt: 'fetch',
  ClosePortalStmt: 'close',
  ListenStmt: 'listen',
  UnlistenStmt: 'unlisten',
  LockStmt: 'lock',
  DoStmt: 'do',
  CallStmt: 'call',
  ExecuteStmt: 'execute',
};

const OPAQUE_NODES = new Set(['DoStmt', 'CallStmt', 'ExecuteStmt']);
/** Query-wrapping statements judged as the query they hold. */
const WRAPPERS = new Set(['ExplainStmt', 'PrepareStmt', 'DeclareCursorStmt']);
/** DROP of these removes a table's data; their names are the tables. */
const TABLE_LIKE = new Set([
  'OBJECT_TABLE',
  'OBJECT_VIEW',
  'OBJECT_MATVIEW',
  'OBJECT_FOREIGN_TABLE',
  'OBJECT_SEQUENCE',
]);

/**
 * A text that may call a sequence function that moves a sequence (a SELECT nextval(...) changes
 * it): one naming them, or with a U&"..." name, which may spell them in escapes
 * (`U&"\0073etval"`). Only then is the tree looked into.
 */
const SEQUENCE_WORD = /setval|nextval|u&/i;
const SEQUENCE_CALL = /"sval":"(?:setval|nextval)"/i;

/** Whether a statement calls setval or nextval (looked for only when the text names them). */
function callsSequenceChange(body: Node): boolean {
  return SEQUENCE_CALL.test(JSON.stringify(body));
}

function describeStatement(text: string, stmt: Node): StatementFacts {
  const [type, body] = onlyEntry(stmt);
  if (WRAPPERS.has(type) && isNode(body.query)) return describeStatement(text, body.query);
  const kind = kindOf(type, body);
  const accesses: TableAccess[] = [];
  // CASCADE reaches tables the statement does not name: TRUNCATE a CASCADE empties the tables
  // referencing a, DROP DOMAIN d CASCADE drops their columns of that domain (and so on for
  // types, functions, extensions, servers), ALTER TABLE ... DROP ... CASCADE other tables'
  // foreign keys. A rule of the statement's op on any table matches it (fail closed).
  let reachesUnnamed = cascades(type, body);
  if (type === 'DropStmt') {
    const removeType = String(body.removeType);
    if (TABLE_LIKE.has(removeType)) accesses.push(...droppedTables(body.objects));
    else if (removeType === 'OBJECT_SCHEMA') reachesUnnamed = true;
  } else if (
    type === 'DropdbStmt' ||
    type === 'DropOwnedStmt' ||
    type === 'GrantRoleStmt' ||
    type === 'AlterDefaultPrivilegesStmt' ||
    (type === 'AlterRoleStmt' && kind !== 'alter')
  ) {
    reachesUnnamed = true;
  } else if (type === 'GrantStmt') {
    const onTables = body.objtype === 'OBJECT_TABLE' && body.targtype === 'ACL_TARGET_OBJECT';
    if (onTables) walk(body.objects, kind, accesses);
    else reachesUnnamed = true;
  } else if (type === 'CopyStmt') {
    walk(body.relation, body.is_from ? 'insert' : 'select', accesses);
    walk(body.query, 'select', accesses);
  } else {
    walk({ [type]: body }, kind, accesses);
    accesses.push(...renamesAndGrants(type, body));
  }
  const opaque = OPAQUE_NODES.has(type);
  // COPY FROM loads rows; COPY TO a server file or a program writes outside the database.
  const copyWrites =
    type === 'CopyStmt' && Boolean(body.is_from || body.filename || body.is_program);
  const changes =
    opaque ||
    copyWrites ||
    (SEQUENCE_WORD.test(text) && callsSequenceChange(body)) ||
    (type !== 'CopyStmt' && !READ_KINDS.has(kind)) ||
    accesses.some((a) => a.op !== 'select');
  if (reachesUnnamed) accesses.push(...everyTableAccesses(kind, accesses));
  return { text, kind, accesses, changes, opaque, unreadable: false };
}

function kindOf(type: string, body: Node): string {
  if (type === 'SelectStmt') {
    if (body.intoClause) return 'create'; // SELECT ... INTO new_table
    return body.valuesLists && !body.fromClause ? 'values' : 'select';
  }
  if (type === 'TransactionStmt') return TRANSACTION_KINDS[String(body.kind)] ?? 'other';
  if (type === 'GrantStmt' || type === 'GrantRoleStmt') return body.is_grant ? 'grant' : 'revoke';
  // ALTER DEFAULT PRIVILEGES ... GRANT: a grant on tables yet to be made.
  if (type === 'AlterDefaultPrivilegesStmt') {
    return isNode(body.action) && !body.action.is_grant ? 'revoke' : 'grant';
  }
  // ALTER GROUP g ADD USER u is GRANT g TO u in older words (DROP USER: REVOKE).
  if (type === 'AlterRoleStmt' && hasOption(body.options, ROLE_MEMBERS)) {
    return Number(body.action) < 0 ? 'revoke' : 'grant';
  }
  const fixed = KIND_OF_NODE[type];
  if (fixed) return fixed;
  if (type.startsWith('Create')) return 'create';
  if (type.startsWith('Alter')) return 'alter';
  if (type.startsWith('Drop')) return 'drop';
  return type.replace(/Stmt$/, '').toLowerCase() || 'other';
}

/**
 * Records every relation under `value` with `op`, switching verb where a nested statement does:
 * a SELECT reads (its INTO creates), INSERT/UPDATE/DELETE/MERGE write their target and read the
 * rest, a foreign key's referenced table is read.
 */
function walk(value: unknown, op: string, out: TableAccess[]): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, op, out);
    return;
  }
  if (!isNode(value)) return;
  if (typeof value.relname === 'string') {
    out.push(relation(op, value));
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (!isNode(child) && !Array.isArray(child)) continue;
    if (key === 'SelectStmt' && isNode(child)) {
      for (const [field, part] of Object.entries(child)) {
        walk(part, field === 'intoClause' ? 'create' : 'select', out);
      }
    } else if (key in WRITE_TARGETS && isNode(child)) {
      const ops = writeOps(key, child);
      for (const [field, part] of Object.entries(child)) {
        if (field === 'relation') for (const target of ops) walk(part, target, out);
        else walk(part, 'select', out);
      }
    } else if (key === 'pktable') {
      walk(child, 'select', out);
    } else {
      walk(child, op, out);
    }
  }
}

const WRITE_TARGETS: Record<string, string> = {
  InsertStmt: 'insert',
  UpdateStmt: 'update',
  DeleteStmt: 'delete',
  MergeStmt: 'merge',
};

function writeOps(key: string, body: Node): string[] {
  if (key === 'MergeStmt') return ['insert', 'update', 'delete'];
  const conflict = body.onConflictClause as Node | undefined;
  if (key === 'InsertStmt' && conflict?.action === 'ONCONFLICT_UPDATE') return ['insert', 'update'];
  return [WRITE_TARGETS[key] ?? 'other'];
}

function relation(op: string, rangeVar: Node): TableAccess {
  const table = String(rangeVar.relname).toLowerCase();
  const schema = typeof rangeVar.schemaname === 'string' ? rangeVar.schemaname.toLowerCase() : '';
  return schema ? { op, table, schema } : { op, table };
}

/** Statements with a CASCADE, which reaches objects they do not name. */
function cascades(type: string, body: Node): boolean {
  if (type === 'DropStmt' || type === 'TruncateStmt') return body.behavior === 'DROP_CASCADE';
  if (type !== 'AlterTableStmt' || !Array.isArray(body.cmds)) return false;
  return body.cmds.some(
    (cmd: unknown) =>
      isNode(cmd) && isNode(cmd.AlterTableCmd) && cmd.AlterTableCmd.behavior === 'DROP_CASCADE',
  );
}

/** CREATE ROLE options that make it a member of roles or give it members: a role grant. */
const ROLE_MEMBERS = new Set(['addroleto', 'rolemembers', 'adminmembers']);

function hasOption(options: unknown, names: Set<string>): boolean {
  return (
    Array.isArray(options) &&
    options.some(
      (option: unknown) =>
        isNode(option) && isNode(option.DefElem) && names.has(String(option.DefElem.defname)),
    )
  );
}

/**
 * The accesses of a statement beyond the relations it names with its own op: a rename or move
 * of a table (judge.ts matches it against every rule naming the table), and grants made without
 * GRANT (a role's members given at CREATE ROLE, a table's new owner).
 */
function renamesAndGrants(type: string, body: Node): TableAccess[] {
  const found: TableAccess[] = [];
  if (type === 'RenameStmt') {
    const renamed = String(body.renameType);
    if (TABLE_LIKE.has(renamed)) walk(body.relation, RENAMES, found);
    // A schema's new name escapes rules naming schema.table.
    if (renamed === 'OBJECT_SCHEMA' && typeof body.subname === 'string') {
      found.push({ op: RENAMES, table: EVERY_TABLE, schema: body.subname.toLowerCase() });
    }
  } else if (type === 'AlterObjectSchemaStmt') {
    if (TABLE_LIKE.has(String(body.objectType))) walk(body.relation, RENAMES, found);
  } else if (type === 'CreateRoleStmt') {
    if (hasOption(body.options, ROLE_MEMBERS)) found.push({ op: 'grant', table: EVERY_TABLE });
  } else if (type === 'ReassignOwnedStmt') {
    found.push({ op: 'grant', table: EVERY_TABLE }); // hands every object of a role to another
  } else if (type === 'AlterTableStmt' && Array.isArray(body.cmds)) {
    for (const item of body.cmds) {
      const cmd = isNode(item) && isNode(item.AlterTableCmd) ? item.AlterTableCmd : undefined;
      const subtype = String(cmd?.subtype);
      // A new owner holds every privilege on the table.
      if (subtype === 'AT_ChangeOwner') walk(body.relation, 'grant', found);
      // Under a parent (INHERIT p), a DELETE FROM p reaches the table's rows.
      if (subtype === 'AT_AddInherit') walk(body.relation, RENAMES, found);
      // ATTACH PARTITION t: the same for the partition, under this table.
      if (subtype === 'AT_AttachPartition' && isNode(cmd?.def)) {
        walk(cmd.def.PartitionCmd, RENAMES, found);
      }
    }
  }
  return found;
}

/** DROP TABLE a, s.b: each object is a List of String names, the last the table's. */
function droppedTables(objects: unknown): TableAccess[] {
  if (!Array.isArray(objects)) return [];
  return objects.flatMap((object: unknown) => {
    const items = (
      (object as { List?: { items?: { String?: { sval?: string } }[] } }).List?.items ?? []
    ).map((item) => item.String?.sval ?? '');
    const table = items.at(-1);
    if (!table) return [];
    return [relation('drop', { relname: table, schemaname: items.at(-2) })];
  });
}

function onlyEntry(node: Node): [string, Node] {
  const [entry] = Object.entries(node);
  if (!entry || !isNode(entry[1])) return ['Unknown', {}];
  return [entry[0], entry[1]];
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The readings of a text the server may or may not see (another character set's reading of the
 * bytes, multibyte-readings.ts), in both standard_conforming_strings modes: each is judged as a
 * reading other than the default, so one that does not parse is dropped.
 */
export function describeOtherPostgres(sql: string): StatementFacts[][] {
  const readings: StatementFacts[][] = [];
  for (const code of new Set([sql, lexPostgres(sql, { standardStrings: false }).canonical])) {
    const statements = readText(sql, code, false);
    if (statements) readings.push(statements);
  }
  return readings;
}
