/**
 * The judge: applies a session's SqlPolicy to a parsed description of the text (cached by
 * dialect and text, so a repeated statement is parsed once). Per statement, in order: a
 * statement the parser cannot read is refused; a block rule that matches refuses; a statement
 * that runs what cannot be seen (DO, CALL, EXECUTE) is refused when any rule applies; in
 * approval mode a change is refused; notice rules that match are collected. The first refusal
 * refuses the whole text. Without a policy nothing is parsed: the text is only split, for the
 * statement log.
 *
 * Rule tables: compared case-insensitively, without quotes, on the table name; a rule naming
 * `shop.orders` matches `shop.orders` and unqualified `orders` (the search_path or current
 * database may resolve it to shop), not `other.orders`; a rule naming `orders` matches it in
 * every schema. A statement that renames a table or moves it (to another schema, under a parent
 * table) matches every rule naming that table, whatever the rule's op: after it, the table's
 * rows are reached by a name no rule names.
 */
import type { SqlPolicy, SqlRule } from '@portcullis/contract';
import { LruCache } from './cache';
import { kindOfFirstWord, firstWord } from './lexed';
import { describeMysql, describeOtherMysql, splitMysql } from './mysql';
import { lexPostgres } from './postgres-lexer';
import { describeOtherPostgres, describePostgres, postgresParserReady } from './postgres';
import {
  EVERY_TABLE,
  RENAMES,
  type Description,
  type StatementFacts,
  type TableAccess,
} from './types';

export type SqlDialect = 'mysql' | 'postgresql';

export interface JudgedStatement {
  text: string;
  /** Lower-case statement kind: select, insert, set, show, begin, ..., other. */
  op: string;
  /** Lower-case, unqualified names of the tables it touches. */
  tables: string[];
}

export type SqlVerdict =
  | { action: 'pass'; statements: JudgedStatement[]; notices: SqlRule[] }
  | {
      action: 'block';
      reason: 'rule' | 'approval' | 'unreadable';
      rule?: SqlRule;
      /** English, for the client's error. */
      message: string;
    };

const BLOCKED = 'Portcullis blocked this statement';
/** Per dialect, keyed by the text itself (a key made by concatenation is a new string to hash). */
const caches: Record<SqlDialect, LruCache<Description>> = {
  mysql: new LruCache<Description>(1000),
  postgresql: new LruCache<Description>(1000),
};

/**
 * Judges one text a client sent (a query, a prepared statement's text). Synchronous: it runs for
 * every statement. Without a policy (or an empty one) it passes without parsing.
 */
export function judgeSql(
  dialect: SqlDialect,
  sql: string,
  policy: SqlPolicy | undefined,
  /**
   * Other texts the server may read in its place (the bytes in another character set,
   * multibyte-readings.ts): the statement passes only if they do, those that cannot run aside.
   */
  otherReadings: readonly string[] = [],
): SqlVerdict {
  const cache = caches[dialect];
  if (!policy || (!policy.block.length && !policy.notice.length && !policy.approval)) {
    // A plain statement needs neither the cache (a lookup hashes the whole text) nor a lexer.
    const plain = plainStatement(sql);
    if (plain) return { action: 'pass', statements: [plain], notices: [] };
    const cached = cache.get(sql);
    const statements = cached ? judged(cached.readings[0] ?? []) : split(dialect, sql);
    return { action: 'pass', statements, notices: [] };
  }
  if (dialect === 'postgresql' && !postgresParserReady()) {
    return block(
      'unreadable',
      `${BLOCKED}: the SQL parser is not loaded, and this database has rules`,
    );
  }
  let description = cache.get(sql);
  if (!description) {
    description = dialect === 'mysql' ? describeMysql(sql) : describePostgres(sql);
    if (!description.byShape) cache.set(sql, description);
  }
  if (otherReadings.length === 0) {
    return description.byShape
      ? verdictByShape(description, description.byShape, policy)
      : applyPolicy(description, policy);
  }
  const readings = [...description.readings];
  for (const other of otherReadings) {
    readings.push(
      ...(dialect === 'mysql' ? describeOtherMysql(other) : describeOtherPostgres(other)),
    );
  }
  return applyPolicy({ readings }, policy);
}

/**
 * Per policy (one per session), the verdict on each shape's facts: every plain text of a shape
 * gets the same one, with its own text, and the rules are applied once per shape, not per
 * text (an application sends the same few shapes with new values all day).
 */
const shapeVerdicts = new WeakMap<SqlPolicy, WeakMap<StatementFacts, SqlVerdict>>();

function verdictByShape(
  description: Description,
  shape: StatementFacts,
  policy: SqlPolicy,
): SqlVerdict {
  let verdicts = shapeVerdicts.get(policy);
  if (!verdicts) {
    verdicts = new WeakMap();
    shapeVerdicts.set(policy, verdicts);
  }
  const known = verdicts.get(shape);
  if (!known) {
    const verdict = applyPolicy(description, policy);
    verdicts.set(shape, verdict);
    return verdict;
  }
  if (known.action === 'block') return known;
  const [first] = known.statements;
  const [facts] = description.readings[0] ?? [];
  // A plain text is one statement; were it not, another text's statement must not be reused.
  if (!first || !facts) return applyPolicy(description, policy);
  return {
    action: 'pass',
    statements: [{ text: facts.text, op: first.op, tables: first.tables }],
    notices: known.notices,
  };
}

function applyPolicy(description: Description, policy: SqlPolicy): SqlVerdict {
  const notices = new Set<SqlRule>();
  const hasRules = policy.block.length > 0 || policy.notice.length > 0;
  for (const statements of description.readings) {
    for (const statement of statements) {
      if (statement.unreadable) {
        return block(
          'unreadable',
          `${BLOCKED}: the statement could not be parsed, and this database has rules`,
        );
      }
      const rule = firstMatch(byOp(policy.block), statement);
      if (rule) return block('rule', `${BLOCKED}: rule ${describeRule(rule)}`, rule);
      if (statement.opaque && hasRules) {
        return block(
          'unreadable',
          `${BLOCKED}: ${statement.kind.toUpperCase()} runs statements that cannot be checked, and this database has rules`,
        );
      }
      // Opaque statements count as changes, so approval mode refuses them here.
      if (policy.approval && statement.changes) {
        return block(
          'approval',
          `${BLOCKED}: it changes data or schema: submit a SQL application to run it`,
        );
      }
      for (const candidate of candidatesFor(byOp(policy.notice), statement)) {
        if (ruleMatches(candidate.rule, statement)) notices.add(candidate.rule);
      }
    }
  }
  return {
    action: 'pass',
    statements: judged(description.readings[0] ?? []),
    notices: [...notices],
  };
}

interface IndexedRule {
  rule: SqlRule;
  /** Its place in the policy: the first rule that matches is the one named. */
  order: number;
}

/** A policy's rules by op, made once per rule list (a rule only matches statements of its op). */
const indexes = new WeakMap<SqlRule[], Map<string, IndexedRule[]>>();

function byOp(rules: SqlRule[]): Map<string, IndexedRule[]> {
  const known = indexes.get(rules);
  if (known) return known;
  const index = new Map<string, IndexedRule[]>();
  rules.forEach((rule, order) => {
    const list = index.get(rule.op) ?? [];
    list.push({ rule, order });
    index.set(rule.op, list);
  });
  indexes.set(rules, index);
  return index;
}

/**
 * The rules whose op is the statement's kind or one of its accesses', in policy order; every
 * rule for a statement that renames a table (it may match a rule of any op).
 */
function candidatesFor(
  index: Map<string, IndexedRule[]>,
  statement: StatementFacts,
): IndexedRule[] {
  if (index.size === 0) return [];
  const ops = new Set([statement.kind, ...statement.accesses.map((a) => a.op)]);
  const found: IndexedRule[] = [];
  const renames = ops.has(RENAMES);
  for (const op of renames ? index.keys() : ops) found.push(...(index.get(op) ?? []));
  // From more than one op's list, they are put back in policy order.
  return renames || ops.size > 1 ? found.sort((a, b) => a.order - b.order) : found;
}

function firstMatch(
  index: Map<string, IndexedRule[]>,
  statement: StatementFacts,
): SqlRule | undefined {
  return candidatesFor(index, statement).find((c) => ruleMatches(c.rule, statement))?.rule;
}

function block(
  reason: 'rule' | 'approval' | 'unreadable',
  message: string,
  rule?: SqlRule,
): SqlVerdict {
  return rule ? { action: 'block', reason, rule, message } : { action: 'block', reason, message };
}

/** "DELETE on orders", or "DELETE (every table)". */
export function describeRule(rule: SqlRule): string {
  return `${rule.op.toUpperCase()} ${rule.table ? `on ${rule.table}` : '(every table)'}`;
}

export function ruleMatches(rule: SqlRule, statement: StatementFacts): boolean {
  if (!rule.table) {
    return statement.kind === rule.op || statement.accesses.some((a) => a.op === rule.op);
  }
  const target = ruleTarget(rule);
  return statement.accesses.some(
    (a) => (a.op === rule.op || a.op === RENAMES) && tableMatches(target, a),
  );
}

interface RuleTarget {
  table: string;
  schema?: string;
}

/** Rules live as long as their session's policy: each table name is read once, not per statement. */
const targets = new WeakMap<SqlRule, RuleTarget>();

/** A rule's table, read (called for rules that name one). */
function ruleTarget(rule: SqlRule): RuleTarget {
  let target = targets.get(rule);
  if (!target) {
    target = readRuleTable(rule.table ?? '');
    targets.set(rule, target);
  }
  return target;
}

function readRuleTable(table: string): RuleTarget {
  const parts = table.split('.').map((part) =>
    part
      .trim()
      .replace(/^[`"]|[`"]$/g, '')
      .toLowerCase(),
  );
  const name = parts.at(-1) ?? '';
  const schema = parts.length > 1 ? parts.at(-2) : undefined;
  return schema ? { table: name, schema } : { table: name };
}

function tableMatches(target: RuleTarget, access: TableAccess): boolean {
  if (access.table !== target.table && access.table !== EVERY_TABLE) return false;
  return !target.schema || !access.schema || access.schema === target.schema;
}

function judged(statements: StatementFacts[]): JudgedStatement[] {
  return statements.map((statement) => {
    const tables = new Set(statement.accesses.map((a) => a.table));
    tables.delete(EVERY_TABLE); // not a table's name
    return { text: statement.text, op: statement.kind, tables: [...tables] };
  });
}

/**
 * A text that is plainly one statement: no `;` but perhaps one at the end, no comment, and its
 * first word before any quote. Most statements an application sends look like this; they need no lexing.
 */
const SPLITS_OR_COMMENTS = /;|--|\/\*|#/;
const FIRST_WORD = /[A-Za-z_]+/;
const QUOTE = /['"`$]/;

function plainStatement(sql: string): JudgedStatement | undefined {
  // One `;` at the very end (psql and pgbench send one) ends the statement and splits nothing.
  const semicolon = sql.indexOf(';');
  const body = semicolon === -1 ? sql : sql.slice(0, semicolon);
  if (semicolon !== -1 && sql.slice(semicolon + 1).trim() !== '') return undefined;
  // A quote before it may leave the `;` inside a string (`SELECT 'a;`): the lexer knows.
  if (semicolon !== -1 && QUOTE.test(body)) return undefined;
  if (SPLITS_OR_COMMENTS.test(body)) return undefined;
  const word = FIRST_WORD.exec(body);
  if (!word || QUOTE.test(body.slice(0, word.index))) return undefined;
  return { text: body.trim(), op: kindOfFirstWord(word[0]), tables: [] };
}

/**
 * The no-policy path for a text that is not plainly one statement (plainStatement): statement
 * texts and a kind from the first word, no parse.
 */
function split(dialect: SqlDialect, sql: string): JudgedStatement[] {
  if (dialect === 'mysql') {
    return splitMysql(sql).map(({ text, word }) => ({
      text,
      op: kindOfFirstWord(word),
      tables: [],
    }));
  }
  const lexed = lexPostgres(sql, { standardStrings: true });
  return lexed.segments
    .filter((segment) => lexed.skeleton.slice(segment.start, segment.end).trim() !== '')
    .map((segment) => ({
      text: sql.slice(segment.start, segment.end).trim(),
      op: kindOfFirstWord(firstWord(lexed.skeleton, segment)),
      tables: [],
    }));
}
