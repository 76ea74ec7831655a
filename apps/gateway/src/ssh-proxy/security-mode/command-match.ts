/**
 * Does a shell command line run one of the cluster's intercept or notice commands?
 *
 * The line is read the way a POSIX shell would split it (shell-syntax.ts), without running
 * anything: every simple command of a list (`;`, `&&`, `||`, `|`, `&`, newlines, subshells,
 * `{ …; }`, `function f { …; }`, `coproc`), every command substitution (`$(…)`, backquotes,
 * `<(…)`), after quote removal (`'rm'`, `r"m"`, `\rm`) and backslash-newline joining,
 * skipping redirections wherever they stand (`> /dev/null rm x`), variable assignments and
 * keywords, and reading through wrappers (`sudo -u root`, `env --unset X`, `timeout 1.5`,
 * `chroot /`, `nohup`, `xargs`, …: both the wrapper and what it runs are commands of the line).
 * Command lines inside a command are read too: `sh -c '…'` (`bash -lc`, `sh -ec`, `-c --`),
 * `su -c`/`--command=`, a here-string into a shell (`bash <<< '…'`), `eval`, `find -exec`,
 * `env -S`, `flock -c`, `script -c`, `watch`, `trap '…' EXIT`, `bind -x`, and what
 * `PROMPT_COMMAND=` and the prompts' substitutions will run. The command's file name is
 * compared (`/usr/bin/rm` is `rm`; a glob such as `/bin/r?` counts when it could name it).
 *
 * A rule is a command with optional arguments: `rm` matches every rm; `rm -rf` matches an rm
 * whose options include r and f (`-fr`, `-r -f`); other arguments must appear as words.
 *
 * Limits: what the shell only knows when it runs the line is not seen: aliases and functions,
 * variables (`$CMD`), `$'\x72m'` quoting, brace expansion, history expansion (`!!`), scripts and
 * interpreters (`python -c`, `perl -e`), text piped into a shell (`echo … | sh`, base64),
 * wrappers not listed in command-options.ts.
 */
import { parseOptions, SCRIPT_OPTIONS, WRAPPERS } from './command-options';
import {
  joinContinuations,
  splitList,
  splitSubstitutions,
  tokens,
  type Token,
} from './shell-syntax';

export interface Match {
  rule: string;
}

/** Commands that start a shell reading its input when no command line is given to them. */
const SHELL_STARTERS = new Set(['su', 'runuser', 'script']);

/** Shell words before a command that are not the command. */
const KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'fish']);
/** Builtins whose `NAME=value` arguments are assignments (`export PROMPT_COMMAND=…`). */
const DECLARES = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
/** Prompts whose command substitutions the shell runs each time it shows them. */
const PROMPTS = new Set(['PS0', 'PS1', 'PS2', 'PS4']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/;
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** Deeper nesting is refused as a match (fail closed), so a crafted line cannot recurse forever. */
const MAX_DEPTH = 8;

/** What a command line runs, as far as its text tells. */
export interface Reading {
  /** Every command, name first: each stage of a wrapper chain (`sudo rm x`: sudo, then rm). */
  commands: string[][];
  /** Some command starts a shell that reads commands from its input (`bash`, `sudo -i`). */
  shell: boolean;
}

/** A rule with its words split once (the policy is fixed for a session). */
export interface CompiledRule {
  rule: string;
  words: string[];
}

/** Splits each rule into its words, dropping rules with none. */
export function compileRules(rules: readonly string[]): CompiledRule[] {
  return rules.map((rule) => ({ rule, words: ruleWords(rule) })).filter((r) => r.words[0]);
}

/** The first rule (list order) of a line's reading (see {@link readLine}), or null. */
export function matchReading(
  reading: Reading | null,
  rules: readonly CompiledRule[],
): Match | null {
  if (rules.length === 0) return null;
  if (!reading) return { rule: rules[0]!.rule }; // too deep to read: fail closed
  for (const { rule, words: wanted } of rules) {
    if (reading.commands.some((cmd) => runs(cmd, wanted))) return { rule };
  }
  return null;
}

/** The first rule (intercept list order) the line runs, or null. */
export function matchCommand(line: string, rules: readonly string[]): Match | null {
  const compiled = compileRules(rules);
  return compiled.length === 0 ? null : matchReading(readLine(line), compiled);
}

/**
 * Whether an exec's input is command lines: a command of it starts a shell without a command
 * line of its own (`ssh host bash`, `'cd /tmp && bash'`, `'cat | sh'`, `'bash -c bash'`,
 * `'sudo -i'`, `su`), so the shell reads commands from the input. Any other command's input is
 * data (rsync's and git's protocols, a file piped to `cat`), which a line filter must not hold.
 */
export function readsCommands(command: string): boolean {
  const reading = readLine(command);
  return reading === null || reading.shell;
}

/** The words of a rule, as written by an administrator. */
function ruleWords(rule: string): string[] {
  return tokens(rule).map((t) => t.text);
}

/** Every command the line runs; null when nested too deep to read. */
export function readLine(line: string): Reading | null {
  const reading: Reading = { commands: [], shell: false };
  return collect(line, reading, 0) ? reading : null;
}

/** Adds every command of the line; false when nested too deep. */
function collect(line: string, reading: Reading, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const { outer, nested } = splitSubstitutions(joinContinuations(line));
  for (const inner of nested) if (!collect(inner, reading, depth + 1)) return false;
  for (const segment of splitList(outer)) {
    const scripts: string[] = [];
    readSimple(tokens(segment), reading, scripts);
    for (const script of scripts) if (!collect(script, reading, depth + 1)) return false;
  }
  return true;
}

/** One simple command: its redirections set apart, then the words before its name skipped. */
function readSimple(all: Token[], reading: Reading, scripts: string[]): void {
  const words: string[] = [];
  const redirects: { op: string; target: string }[] = [];
  for (let i = 0; i < all.length; i++) {
    if (!all[i]!.redirect) words.push(all[i]!.text);
    else redirects.push({ op: all[i]!.text, target: all[++i]?.text ?? '' });
  }
  const start = skipPrefix(words, scripts);
  if (start === words.length) return;
  // Rules may name a redirection (`echo > /dev/sda`): the command keeps them as arguments.
  const extra = redirects.flatMap((r) => [r.op, r.target]);
  const hereStrings = redirects.filter((r) => r.op.endsWith('<<<')).map((r) => r.target);
  readCommand(words.slice(start), extra, hereStrings, reading, scripts);
}

/** Index of the command's name: after keywords, `function NAME`, `coproc` and assignments. */
function skipPrefix(words: string[], scripts: string[]): number {
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    const assigned = ASSIGNMENT.exec(word);
    if (assigned) hookScripts(assigned[1]!, word.slice(assigned[0].length), scripts);
    if (KEYWORDS.has(word) || assigned) i += 1;
    // `function f { …; }`: f is a name being defined, not a command being run.
    else if (word === 'function') i += 2;
    // `coproc NAME { …; }` names the coprocess; `coproc rm x` runs rm.
    else if (word === 'coproc') i += KEYWORDS.has(words[i + 2] ?? '') ? 2 : 1;
    else break;
  }
  return Math.min(i, words.length);
}

/** A command and, through wrappers, the command it runs, each added to the reading. */
function readCommand(
  first: string[],
  extra: string[],
  hereStrings: string[],
  reading: Reading,
  scripts: string[],
): void {
  let cmd: string[] | null = first;
  while (cmd && cmd.length > 0) {
    reading.commands.push(extra.length > 0 ? [...cmd, ...extra] : cmd);
    const name = basename(cmd[0]!);
    const args = cmd.slice(1);
    if (readScripts(name, args, scripts)) {
      reading.shell = true;
      scripts.push(...hereStrings); // `bash <<< 'rm x'`: the shell's input is this word
    }
    cmd.forEach((word, i) => {
      if (!FIND_EXEC.has(word)) return;
      const end = cmd!.findIndex((w, j) => j > i && (w === ';' || w === '+'));
      readCommand(cmd!.slice(i + 1, end < 0 ? undefined : end), [], [], reading, scripts);
    });
    cmd = unwrap(name, args, reading, scripts);
  }
}

/**
 * Adds the command lines a command runs from its arguments (`sh -c`, `su -c`, `eval`, `trap`,
 * `bind -x`, `export PROMPT_COMMAND=…`); true when it starts a shell that reads its input.
 */
function readScripts(name: string, args: string[], scripts: string[]): boolean {
  if (SHELLS.has(name)) {
    const script = shellScript(args);
    if (script === null) return true;
    scripts.push(script);
    return false;
  }
  const scriptSpec = SCRIPT_OPTIONS[name];
  if (scriptSpec) {
    const given = parseOptions(args, scriptSpec, true).options.filter((o) =>
      scriptSpec.names.includes(o.name),
    );
    for (const o of given) scripts.push(o.value ?? '');
    const runuserCommand = name === 'runuser' && args.some((a) => /^(-u|--user)/.test(a));
    if (given.length === 0 && SHELL_STARTERS.has(name) && !runuserCommand) return true;
  }
  if (name === 'eval') scripts.push(args.join(' '));
  if (name === 'trap' && args[0] !== '-p' && args[0] !== '-l') {
    const rest = args[0] === '--' ? args.slice(1) : args;
    if (rest.length >= 2) scripts.push(rest[0]!); // `trap INT` alone resets, runs nothing
  }
  if (name === 'bind') {
    const { options, operands } = parseOptions(args, { short: 'mfqurxX' }, true);
    for (const o of options) if (o.name === '-x') scripts.push(bindCommand(o.value ?? ''));
    // `bind '"\C-t": "rm x\n"'`: a macro types its text (and its Enter) for the member.
    for (const binding of operands) scripts.push(bindMacro(binding));
  }
  // `alias x=rm`: what the alias will run is a command line of its own.
  if (name === 'alias') {
    for (const arg of args) if (arg.includes('=')) scripts.push(arg.slice(arg.indexOf('=') + 1));
  }
  if (DECLARES.has(name)) {
    for (const arg of args) {
      const assigned = ASSIGNMENT.exec(arg);
      if (assigned) hookScripts(assigned[1]!, arg.slice(assigned[0].length), scripts);
    }
  }
  return false;
}

/**
 * The script of `bash -c SCRIPT` (also `-lc`, `-ec`, `-c -- SCRIPT`, fish's `--command`);
 * null when the shell reads commands from its input (or from a script file).
 */
function shellScript(args: string[]): string | null {
  let dashC = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') return dashC ? (args[i + 1] ?? '') : null;
    if (arg.startsWith('--command=')) return arg.slice('--command='.length);
    if (arg === '--command') return args[i + 1] ?? '';
    if (arg.startsWith('--')) {
      if (arg === '--rcfile' || arg === '--init-file') i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(arg)) {
      if (arg[0] === '-' && arg.includes('c')) dashC = true;
      if (/[oO]$/.test(arg)) i++; // `-o posix`, `+O extglob`
      continue;
    }
    return dashC ? arg : null;
  }
  return dashC ? '' : null;
}

/** `"\C-t": rm x` → `rm x`: the shell command of a `bind -x` key binding. */
function bindCommand(binding: string): string {
  const quoted = /^\s*"(?:[^"\\]|\\.)*"\s*:(.*)$/s.exec(binding);
  if (quoted) return quoted[1]!;
  const colon = binding.indexOf(':');
  return colon < 0 ? '' : binding.slice(colon + 1);
}

/** `"\C-t": "rm x\n"` → `rm x⏎`: the text a readline macro types; '' for a function name. */
function bindMacro(binding: string): string {
  const macro = /^\s*"(?:[^"\\]|\\.)*"\s*:\s*["'](.*)["']\s*$/s.exec(binding);
  if (!macro) return '';
  return macro[1]!.replace(/\\(.)/gs, (_, ch: string) =>
    ch === 'n' || ch === 'r' ? '\n' : ch === 't' ? '\t' : ch,
  );
}

/** Variables whose value the shell runs later: PROMPT_COMMAND, and the prompts' `$(…)`. */
function hookScripts(name: string, value: string, scripts: string[]): void {
  if (name === 'PROMPT_COMMAND') scripts.push(value);
  else if (PROMPTS.has(name)) scripts.push(...splitSubstitutions(value).nested);
}

/** The command a wrapper runs (maybe none), or null when `name` is not a wrapper. */
function unwrap(
  name: string,
  args: string[],
  reading: Reading,
  scripts: string[],
): string[] | null {
  const spec = WRAPPERS[name];
  if (!spec) return null;
  const { options, rest } = parseOptions(args, spec, false);
  if (options.some((o) => spec.query?.includes(o.name))) return null;
  let i = rest + (spec.operands ?? 0);
  if (spec.assignments) while (i < args.length && ASSIGNMENT.test(args[i]!)) i++;
  const inner = args.slice(i);
  if (inner.length === 0) {
    const shell = spec.bareShell || options.some((o) => spec.shell?.includes(o.name));
    if (shell) reading.shell = true;
  }
  // `watch 'rm x'`: one word that is a whole command line.
  if (spec.joined && inner.length > 0) scripts.push(inner.join(' '));
  return inner;
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
