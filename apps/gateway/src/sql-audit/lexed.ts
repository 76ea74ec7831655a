/**
 * The shape both lexers (mysql-lexer.ts, postgres-lexer.ts) return: the text rewritten so a
 * parser cannot read it differently from the server, with every position kept (each rewrite
 * replaces a character by one character), and the statements found in it.
 */

/** One statement's range in the text, [start, end), without its `;`. */
export interface Segment {
  start: number;
  end: number;
  /** The text ends inside a string, quoted name or comment that this segment opened. */
  unterminated: boolean;
  /**
   * MySQL: it ends inside a string or quoted name (not a comment): the server refuses such a
   * statement in every mode, so a reading of the text in which it does is no statement to judge.
   */
  endsInQuote?: boolean;
}

export interface LexedText {
  /** Same length as the input; what the parser is given (see each lexer for the rewrites). */
  canonical: string;
  /** Same length; comments and quoted strings and names blanked: only keywords and symbols. */
  skeleton: string;
  segments: Segment[];
}

/** The first word of a statement's skeleton, lower-case ('' if none): a best-effort kind. */
export function firstWord(skeleton: string, segment: Segment): string {
  const match = /[A-Za-z_]+/.exec(skeleton.slice(segment.start, segment.end));
  return match ? match[0].toLowerCase() : '';
}

/** Kinds named by a statement's first word, for the statement log when nothing is parsed. */
const KIND_OF_WORD: Record<string, string> = {
  select: 'select',
  with: 'select',
  table: 'select',
  values: 'values',
  insert: 'insert',
  replace: 'replace',
  update: 'update',
  delete: 'delete',
  merge: 'merge',
  create: 'create',
  alter: 'alter',
  drop: 'drop',
  truncate: 'truncate',
  rename: 'rename',
  grant: 'grant',
  revoke: 'revoke',
  set: 'set',
  reset: 'set',
  show: 'show',
  use: 'use',
  describe: 'describe',
  desc: 'describe',
  explain: 'explain',
  begin: 'begin',
  start: 'begin',
  commit: 'commit',
  end: 'commit',
  rollback: 'rollback',
  abort: 'rollback',
  savepoint: 'savepoint',
  release: 'release',
  copy: 'copy',
  load: 'load',
  call: 'call',
  do: 'do',
  execute: 'execute',
  prepare: 'prepare',
};

/**
 * The same, by word as written in lower or upper case (a Map: no word reaches Object's own
 * properties, and the usual `SELECT` or `select` needs no lower-casing).
 */
const FIRST_WORD_KINDS = new Map(
  Object.entries(KIND_OF_WORD).flatMap(([word, kind]) => [
    [word, kind],
    [word.toUpperCase(), kind],
  ]),
);

/** A statement's kind by its first word, in any case ('other' for a word not listed). */
export function kindOfFirstWord(word: string): string {
  return FIRST_WORD_KINDS.get(word) ?? FIRST_WORD_KINDS.get(word.toLowerCase()) ?? 'other';
}
