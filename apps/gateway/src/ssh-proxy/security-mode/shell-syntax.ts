/**
 * The lexical layer of security mode's command reading: a shell command line split the way a
 * POSIX shell (bash) splits it, without expanding or running anything. command-match.ts reads
 * commands from the pieces; continuation.ts says whether a typed line is complete.
 *
 * What it knows: quotes and backslashes, backslash-newline continuations, the list and pipe
 * operators, parentheses, command and process substitutions, and redirection operators
 * (`2>`, `>&`, `<<<`, `{fd}>` …) as tokens of their own. What it does not: expansions of any
 * kind (variables, braces, `$'…'`), which only the running shell knows.
 */

/** A word of a simple command after quote removal, or a redirection operator. */
export interface Token {
  text: string;
  /** A redirection operator (`>`, `2>>`, `<<<` …): the next token is its target. */
  redirect: boolean;
}

/** Redirection operators, longest first; an fd number or `{name}` may come before. */
const REDIRECT = /^(?:&>>|&>|<<<|<<-|<<|<>|<&|>&|>>|>\||<|>)/;
/** Characters with no meaning to the tokenizer, from a given index (sticky). */
const PLAIN = /[^ \t\n\r'"\\<>&$]+|[&$]/y;
/** What may stand just before a redirection operator as part of it: `2>`, `{fd}>`. */
const FD_PREFIX = /^(?:\d+|\{[A-Za-z_]\w*\})$/;

/**
 * The quote in force: single, double, ANSI-C (`$'…'`, where a backslash escapes), or a
 * backquoted command substitution, at the top level or inside double quotes (`"a `b` c"`).
 * Bash reads a backquote to the next unescaped one: quotes inside are not special to finding
 * it (`` `echo '` `` ends there), and an unclosed one makes the shell read the next line.
 */
export type Quote = "'" | '"' | "$'" | '`' | '"`' | null;

/**
 * One step of quote tracking at `line[i]`: the quote in force after it, and how many more
 * characters it consumed (a backslash's escaped character, the quote after `$`).
 */
export function quoteStep(line: string, i: number, quote: Quote): [Quote, number] {
  const ch = line[i];
  if (quote === "'") return [ch === "'" ? null : quote, 0];
  if (ch === '\\') return [quote, 1];
  if (quote === "$'") return [ch === "'" ? null : quote, 0];
  if (quote === '`') return [ch === '`' ? null : quote, 0];
  if (quote === '"`') return [ch === '`' ? '"' : quote, 0];
  if (quote === '"') return [ch === '"' ? null : ch === '`' ? '"`' : quote, 0];
  if (ch === "'" || ch === '"' || ch === '`') return [ch, 0];
  // `$'\x72m'` (ANSI-C) and `$"rm"` (translated) are quotes too.
  if (ch === '$' && line[i + 1] === "'") return ["$'", 1];
  if (ch === '$' && line[i + 1] === '"') return ['"', 1];
  return [null, 0];
}

/** Whether a backslash-newline inside `quote` is removed (everywhere but `'…'` and `$'…'`). */
export function joinsLines(quote: Quote): boolean {
  return quote !== "'" && quote !== "$'";
}

/**
 * Removes backslash-newline pairs outside single quotes: the shell joins such lines before it
 * reads words, so `r\⏎m x` runs `rm x`.
 */
export function joinContinuations(line: string): string {
  if (!line.includes('\\\n')) return line; // the common case costs one scan
  let out = '';
  let copied = 0;
  let quote: Quote = null;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\' && line[i + 1] === '\n' && joinsLines(quote)) {
      out += line.slice(copied, i);
      copied = i + 2;
    }
    const [next, skip] = quoteStep(line, i, quote);
    quote = next;
    i += skip;
  }
  return out + line.slice(copied);
}

/**
 * Takes out `$(…)`, `` `…` ``, `<(…)` and `>(…)` (outside single quotes), returning the line
 * with each replaced by a plain word, and their contents. (Text is copied in slices: a held
 * "line" may be a megabyte of data.)
 */
export function splitSubstitutions(line: string): { outer: string; nested: string[] } {
  const nested: string[] = [];
  let outer = '';
  let copied = 0;
  let quote: Quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    const live = quote === null || quote === '"';
    const opens = live && (ch === '$' || ch === '<' || ch === '>') && line[i + 1] === '(';
    if (opens || (live && ch === '`')) {
      const start = i + (opens ? 2 : 1);
      const end = opens ? closingParen(line, start) : line.indexOf('`', start);
      const stop = end < 0 ? line.length : end;
      nested.push(line.slice(start, stop));
      outer += `${line.slice(copied, i)}x`;
      i = stop;
      copied = stop + 1;
      continue;
    }
    const [next, skip] = quoteStep(line, i, quote);
    quote = next;
    i += skip;
  }
  return { outer: outer + line.slice(copied), nested };
}

function closingParen(line: string, from: number): number {
  let depth = 1;
  let quote: Quote = null;
  for (let i = from; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === null && ch === '(') depth++;
    else if (quote === null && ch === ')' && --depth === 0) return i;
    const [next, skip] = quoteStep(line, i, quote);
    quote = next;
    i += skip;
  }
  return -1;
}

/** Splits on the list and pipe operators, newlines and parentheses outside quotes. */
export function splitList(line: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quote: Quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === null && ';&|()\n'.includes(ch) && !redirecting(line, i)) {
      parts.push(line.slice(start, i));
      start = i + 1;
      continue;
    }
    const [next, skip] = quoteStep(line, i, quote);
    quote = next;
    i += skip;
  }
  parts.push(line.slice(start));
  return parts;
}

/** `2>&1`, `&>file`, `>|file`: an `&` or `|` that belongs to a redirection, not a list. */
function redirecting(line: string, i: number): boolean {
  const ch = line[i];
  const before = line[i - 1];
  if (ch === '&') return before === '>' || before === '<' || line[i + 1] === '>';
  return ch === '|' && before === '>';
}

/**
 * Tokens of one simple command after quote removal (`r"m"` → `rm`, `\rm` → `rm`), with each
 * unquoted redirection operator a token of its own (`2>/dev/null` → `2>`, `/dev/null`).
 */
export function tokens(segment: string): Token[] {
  const out: Token[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  let quote: string | null = null;
  const end = (): void => {
    if (inWord) out.push({ text: word, redirect: false });
    word = '';
    inWord = false;
    quoted = false;
  };
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && '"\\$`'.includes(segment[i + 1] ?? '')) word += segment[++i];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = quoted = true;
    } else if (ch === '\\') {
      word += segment[++i] ?? '';
      inWord = quoted = true;
    } else if (ch === '$' && (segment[i + 1] === "'" || segment[i + 1] === '"')) {
      // `$'\x72m'` is rm; `$"rm"` (a translated string) is rm too.
      if (segment[i + 1] === '"') continue;
      const [text, end] = ansiC(segment, i + 1);
      word += text;
      i = end;
      inWord = quoted = true;
    } else if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') end();
    else if (ch === '<' || ch === '>' || (ch === '&' && segment[i + 1] === '>')) {
      const prefix = inWord && !quoted && FD_PREFIX.test(word) ? word : '';
      if (prefix) word = '';
      else end();
      inWord = false;
      const op = REDIRECT.exec(segment.slice(i, i + 3))![0];
      out.push({ text: prefix + op, redirect: true });
      i += op.length - 1;
    } else {
      // A run of plain characters at once (a held "line" may be a megabyte of data).
      PLAIN.lastIndex = i;
      const run = PLAIN.exec(segment)![0];
      word += run;
      i += run.length - 1;
      inWord = true;
    }
  }
  end();
  return out;
}

/** Escapes of `$'…'` that stand for one character of their own. */
const ANSI_C: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};
/** `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\NNN` (octal) and `\cX` (a control character). */
const ANSI_C_CODE =
  /^(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([0-7]{1,3})|c(.))/s;

/**
 * The text of an ANSI-C quoted string whose opening quote is at `at`, decoded as bash does,
 * and the index of its closing quote (or the end).
 */
function ansiC(segment: string, at: number): [string, number] {
  let out = '';
  let i = at + 1;
  for (; i < segment.length && segment[i] !== "'"; i++) {
    if (segment[i] !== '\\') {
      out += segment[i];
      continue;
    }
    const next = segment[i + 1] ?? '';
    const code = ANSI_C_CODE.exec(segment.slice(i + 1, i + 10));
    if (ANSI_C[next] !== undefined) {
      out += ANSI_C[next];
      i += 1;
    } else if (code) {
      const [all, hex, u4, u8, octal, control] = code;
      const point = control
        ? control.charCodeAt(0) & 0x1f
        : Number.parseInt(hex ?? u4 ?? u8 ?? octal!, octal ? 8 : 16);
      out += String.fromCodePoint(Math.min(point, 0x10ffff));
      i += all.length;
    } else out += '\\';
  }
  return [out, i];
}

/** Words of one simple command after quote removal; redirection operators are words too. */
export function words(segment: string): string[] {
  return tokens(segment).map((t) => t.text);
}

/** Outside quotes, characters that make a line more than one plain command's words. */
const SYNTAX = new Set([...';&|<>()`$\n\r']);

/**
 * True when the line is one command with plain words only: no list, pipe, redirection,
 * substitution, variable or continuation outside single quotes (double quotes may hold no
 * `$` or backquote). Globs, `~` and braces are allowed: they only name files.
 */
export function isPlainCommand(line: string): boolean {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '$' || ch === '`' || ch === '\\') return false;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '\\') {
      if (line[i + 1] === undefined || line[i + 1] === '\n') return false;
      i++;
    } else if (SYNTAX.has(ch)) return false;
  }
  return quote === null;
}
