/**
 * Does a shell command line run one of the cluster's intercept or notice commands?
 *
 * The line is read the way a POSIX shell would split it, without running anything: every
 * simple command of a list (`;`, `&&`, `||`, `|`, `&`, newlines, subshells, `{ …; }`), every
 * command substitution (`$(…)`, backquotes, `<(…)`), after quote removal (`'rm'`, `r"m"`,
 * `\rm`), skipping variable assignments and wrappers (`sudo`, `env`, `nohup`, `xargs`, `time`,
 * `command`, `exec`, …), reading `sh -c '…'`, `eval …` and `find -exec …` as command lines of
 * their own, and comparing the command's file name (`/usr/bin/rm` is `rm`; a glob such as
 * `/bin/r?` counts when it could name it).
 *
 * A rule is a command with optional arguments: `rm` matches every rm; `rm -rf` matches an rm
 * whose options include r and f (`-fr`, `-r -f`); other arguments must appear as words.
 *
 * Limits: what the shell only knows when it runs the line is not seen: aliases and functions,
 * variables (`$CMD`), `$'\x72m'` quoting, brace expansion, history expansion (`!!`), scripts and
 * interpreters (`python -c`, `perl -e`), decoded text (`echo … | base64 -d | sh`).
 */

export interface Match {
  rule: string;
}

/** Wrappers that run their arguments as a command, and options that take a value. */
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S']),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  nice: new Set(['-n']),
  ionice: new Set(['-c', '-n', '-p']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  stdbuf: new Set(['-i', '-o', '-e']),
  timeout: new Set(['-s', '-k']),
  xargs: new Set(['-a', '-d', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '-P', '-s']),
  busybox: new Set(),
  chroot: new Set(),
  setsid: new Set(),
  watch: new Set(['-n', '-d']),
};
/** Shell words before a command that are not the command. */
const KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'su', 'fish']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** Deeper nesting is refused as a match (fail closed), so a crafted line cannot recurse forever. */
const MAX_DEPTH = 8;

/** The first rule (intercept list order) the line runs, or null. */
export function matchCommand(line: string, rules: readonly string[]): Match | null {
  const parsed = rules.map((rule) => ({ rule, words: words(rule) })).filter((r) => r.words[0]);
  if (parsed.length === 0) return null;
  const commands: string[][] = [];
  if (!collect(line, commands, 0)) return { rule: parsed[0]!.rule };
  for (const { rule, words: ruleWords } of parsed) {
    if (commands.some((cmd) => runs(cmd, ruleWords))) return { rule };
  }
  return null;
}

/**
 * Whether an exec's input is command lines: a shell started without `-c` (`ssh host bash`,
 * `ssh host 'sudo sh'`) reads them from its input. Any other command's input is data (rsync's
 * and git's protocols, a file piped to `cat`), which a line filter must not hold back.
 */
export function readsCommands(command: string): boolean {
  const cmd = commandWords(words(command));
  return cmd.length > 0 && SHELLS.has(basename(cmd[0]!)) && !cmd.includes('-c');
}

/** Adds every simple command of the line; false when nested too deep. */
function collect(line: string, out: string[][], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const { outer, nested } = splitSubstitutions(line);
  for (const inner of nested) if (!collect(inner, out, depth + 1)) return false;
  for (const segment of splitList(outer)) {
    const cmd = commandWords(words(segment));
    if (cmd.length === 0) continue;
    out.push(cmd);
    const name = basename(cmd[0]!);
    const scriptArg = SHELLS.has(name) ? cmd.indexOf('-c') : -1;
    if (scriptArg >= 0 && cmd[scriptArg + 1] !== undefined) {
      if (!collect(cmd[scriptArg + 1]!, out, depth + 1)) return false;
    }
    if (name === 'eval' && !collect(cmd.slice(1).join(' '), out, depth + 1)) return false;
    cmd.forEach((word, i) => {
      if (!FIND_EXEC.has(word)) return;
      const end = cmd.findIndex((w, j) => j > i && (w === ';' || w === '+'));
      out.push(cmd.slice(i + 1, end < 0 ? undefined : end));
    });
  }
  return true;
}

/**
 * Takes out `$(…)`, `` `…` ``, `<(…)` and `>(…)` (outside single quotes), returning the line
 * with each replaced by a plain word, and their contents.
 */
function splitSubstitutions(line: string): { outer: string; nested: string[] } {
  const nested: string[] = [];
  let outer = '';
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\' && quote !== "'") {
      outer += ch + (line[i + 1] ?? '');
      i++;
      continue;
    }
    if (quote === "'") {
      if (ch === "'") quote = null;
      outer += ch;
      continue;
    }
    if (ch === "'" && quote === null) quote = "'";
    else if (ch === '"') quote = quote === '"' ? null : '"';
    const opens = (ch === '$' || ch === '<' || ch === '>') && line[i + 1] === '(';
    if (opens || ch === '`') {
      const start = i + (opens ? 2 : 1);
      const end = opens ? closingParen(line, start) : line.indexOf('`', start);
      const stop = end < 0 ? line.length : end;
      nested.push(line.slice(start, stop));
      outer += 'x';
      i = stop;
      continue;
    }
    outer += ch;
  }
  return { outer, nested };
}

function closingParen(line: string, from: number): number {
  let depth = 1;
  let quote: string | null = null;
  for (let i = from; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"') i++;
    } else if (ch === '\\') i++;
    else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Splits on the list and pipe operators and parentheses outside quotes. */
function splitList(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      current += ch;
      if (ch === '\\' && quote === '"') current += line[++i] ?? '';
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '\\') {
      current += ch + (line[++i] ?? '');
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    if (';&|()\n'.includes(ch)) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

/** Words of one simple command after quote removal (`r"m"` → `rm`, `\rm` → `rm`). */
export function words(segment: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
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
      inWord = true;
    } else if (ch === '\\') {
      word += segment[++i] ?? '';
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

/** Drops assignments, redirections, keywords and wrappers before the command's name. */
function commandWords(all: string[]): string[] {
  let i = 0;
  while (i < all.length) {
    const word = all[i]!;
    if (KEYWORDS.has(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || /^\d*[<>]/.test(word)) {
      i++;
      continue;
    }
    const valued = WRAPPERS[basename(word)];
    if (!valued) break;
    i++;
    while (i < all.length && all[i]!.startsWith('-')) i += valued.has(all[i]!) ? 2 : 1;
    // env NAME=value …, timeout 10 …: the value words before the command.
    while (i < all.length && /^([A-Za-z_][A-Za-z0-9_]*=|\d+[smhd]?$)/.test(all[i]!)) i++;
  }
  return all.slice(i);
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Whether a command's file-name word could name `name` (a glob counts when it could). */
function names(word: string, name: string): boolean {
  const base = basename(word);
  if (base === name) return true;
  if (!/[*?[]/.test(base)) return false;
  const pattern = base
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  try {
    return new RegExp(`^${pattern}$`).test(name);
  } catch {
    return true; // an unreadable glob: fail closed
  }
}

function runs(cmd: string[], rule: string[]): boolean {
  if (!names(cmd[0]!, rule[0]!)) return false;
  const args = cmd.slice(1);
  const shortFlags = new Set(args.filter((a) => /^-[^-]/.test(a)).flatMap((a) => [...a.slice(1)]));
  return rule
    .slice(1)
    .every((want) =>
      /^-[A-Za-z0-9]+$/.test(want)
        ? [...want.slice(1)].every((flag) => shortFlags.has(flag)) || args.includes(want)
        : args.includes(want),
    );
}
