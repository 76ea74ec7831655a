/**
 * Masks secrets typed as command arguments before a security-mode alarm row (and so its notice
 * mail) keeps the command (house rule: no secret in a log). The session's recording is not
 * changed: what was typed stays there for audit. Called only when an alarm is raised, never on
 * the keystroke path.
 *
 * Each value below becomes {@link SECRET_MASK}; the option or name before it stays:
 * - the MySQL family (`mysql`, `mariadb`, `mysqldump`, `mysqladmin`, `mariadb-dump`, … named
 *   earlier in the same simple command, so `sudo mysql -pX` and `ssh host mysql -pX` count):
 *   `-p<value>`, `--password[1-3]=<value>` and `--password <value>`. `-p` alone prompts and
 *   stays; `-p` of other tools (`ssh -p 2222`, `grep -p`) is not a password and stays;
 * - `--password=<value>` and `--…-password=<value>` (`--passwd`) of any command;
 * - `sshpass -p <value>` and `sshpass -p<value>` (sshpass's own options only: `sshpass -p x
 *   ssh -p 2222 host` keeps the port);
 * - a `NAME=value` word whose NAME ends with PASSWORD, PASSWD, PWD, PASS, TOKEN or SECRET, any
 *   case (`PGPASSWORD=x psql`, `MYSQL_PWD=x mysql`, `export API_TOKEN=x`, `docker run -e
 *   DB_PASS=x`), but not the shell's directories `PWD` and `OLDPWD`;
 * - curl's `-u user:pass`, `-uuser:pass`, `--user user:pass`, `--user=user:pass`: what follows
 *   the first colon (without one curl prompts);
 * - a URL's password, `scheme://user:pass@host`, anywhere in the text.
 * A quoted value is masked whole with its quotes (`-p'a b'` gives `-p********`), and the text
 * inside a quoted word is read as a command too (`ssh host "mysql -pX"`, `bash -c '…'`).
 *
 * Limits: the reading is lexical, without expansions: a secret in a variable (`-p"$PW"` is
 * masked as typed, `$PW`'s value is never seen), a password passed on standard input (`echo pw |
 * sudo -S …`, which is not an argument) or in an option this list does not know (`redis-cli -a
 * x`, `--token x`) stays as typed. A word naming a MySQL tool earlier in a command makes that
 * command's `-p…` words masked even where the tool is an argument (`grep mysql -pX`): more is
 * hidden, never less.
 */

/** What a secret becomes in an alarm's command. */
export const SECRET_MASK = '********';

/** A word of a simple command: where it is in the text, and its text with the quotes kept. */
interface Word {
  start: number;
  end: number;
  raw: string;
  /** The insides of its quoted parts, where they are in the text. */
  quoted: Span[];
}

/** A span of the text to mask, [start, end). */
type Span = [number, number];

const MYSQL_FAMILY = /^(?:mysql|mariadb)[\w-]*$/;
const SECRET_NAME = /^([A-Za-z_][A-Za-z0-9_]*?(?:PASSWORD|PASSWD|PWD|PASS|TOKEN|SECRET))=/i;
const NOT_SECRET_NAMES = new Set(['PWD', 'OLDPWD']);
/** `--password=`, `--db-password=`, `--passwd=` of any command. */
const PASSWORD_OPTION = /^--(?:[\w-]*-)?passw(?:or)?d=/i;
/** MySQL's `--password`, its unambiguous prefixes (`--pass`) and MySQL 8's `--password1..3`. */
const MYSQL_PASSWORD_OPTION = /^--pass(?:w(?:o(?:r(?:d)?)?)?)?[123]?(?==|$)/;
/** After a URL's `://`: `user:pass@`, the password captured. */
const URL_PASSWORD = /[^\s:/@'"]*:([^\s@/'"]+)@/y;
/** sshpass's options that take a value (besides -p). */
const SSHPASS_WITH_VALUE = new Set(['-f', '-d', '-P']);
/** Quoted text deeper than this is not read again as a command. */
const MAX_DEPTH = 3;

const basename = (word: string): string => word.replace(/['"\\]/g, '').replace(/^.*\//, '');

/**
 * Splits `text` into simple commands of words, quotes kept. Outside quotes, whitespace, `<` and
 * `>` end a word; `;`, `|`, `&`, `(`, `)`, a newline and a backquote also end the command.
 */
function commands(text: string): Word[][] {
  const out: Word[][] = [];
  let current: Word[] = [];
  let start = -1;
  let quote: "'" | '"' | null = null;
  let quoteStart = 0;
  let quoted: Span[] = [];
  const endWord = (i: number): void => {
    if (start >= 0) current.push({ start, end: i, raw: text.slice(start, i), quoted });
    start = -1;
    quoted = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") {
        quote = null;
        quoted.push([quoteStart, i]);
      }
      continue;
    }
    if (ch === '\\') {
      if (start < 0) start = i;
      i++;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') {
        quote = null;
        quoted.push([quoteStart, i]);
      }
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (start < 0) start = i;
      quote = ch;
      quoteStart = i + 1;
    } else if (/[\s<>]/.test(ch) && ch !== '\n') {
      endWord(i);
    } else if (/[;|&()`\n]/.test(ch)) {
      endWord(i);
      if (current.length > 0) out.push(current);
      current = [];
    } else if (start < 0) {
      start = i;
    }
  }
  if (quote) quoted.push([quoteStart, text.length]);
  endWord(text.length);
  if (current.length > 0) out.push(current);
  return out;
}

/** The spans to mask in one simple command. */
function commandSpans(words: Word[]): Span[] {
  const spans: Span[] = [];
  const valueAfter = (word: Word, prefix: number): void => {
    if (word.end > word.start + prefix) spans.push([word.start + prefix, word.end]);
  };
  let mysql = false;
  let curl = false;
  /** 'options' while reading sshpass's own options; 'value' when the next word is -p's. */
  let sshpass: 'options' | 'value' | 'skip' | null = null;
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    const raw = word.raw;
    if (sshpass === 'value') {
      spans.push([word.start, word.end]);
      sshpass = 'options';
      continue;
    }
    if (sshpass === 'skip') {
      sshpass = 'options';
      continue;
    }
    if (sshpass === 'options') {
      if (raw === '-p') {
        sshpass = 'value';
        continue;
      }
      if (raw.startsWith('-p')) {
        valueAfter(word, 2);
        continue;
      }
      if (SSHPASS_WITH_VALUE.has(raw)) {
        sshpass = 'skip';
        continue;
      }
      if (!raw.startsWith('-')) sshpass = null; // the command sshpass runs
    }
    const name = SECRET_NAME.exec(raw)?.[1];
    if (name && !NOT_SECRET_NAMES.has(name.toUpperCase())) {
      valueAfter(word, name.length + 1);
      continue;
    }
    const passwordOption = PASSWORD_OPTION.exec(raw);
    if (passwordOption) {
      valueAfter(word, passwordOption[0].length);
      continue;
    }
    if (mysql) {
      const long = MYSQL_PASSWORD_OPTION.exec(raw);
      if (long) {
        if (raw[long[0].length] === '=') valueAfter(word, long[0].length + 1);
        else if (words[k + 1] && !words[k + 1]!.raw.startsWith('-')) {
          const next = words[++k]!;
          spans.push([next.start, next.end]);
        }
        continue;
      }
      if (/^-p./.test(raw)) {
        valueAfter(word, 2);
        continue;
      }
    }
    if (curl) {
      const attached = /^(?:-u|--user=)/.exec(raw);
      const value =
        raw === '-u' || raw === '--user' ? words[++k] : attached && raw.length > 2 ? word : null;
      if (value) {
        const from = value === word ? attached![0].length : 0;
        const colon = value.raw.indexOf(':', from);
        if (colon >= 0) valueAfter(value, colon + 1);
        continue;
      }
    }
    const tool = basename(raw);
    if (MYSQL_FAMILY.test(tool)) mysql = true;
    else if (tool === 'curl') curl = true;
    else if (tool === 'sshpass') sshpass = 'options';
  }
  return spans;
}

/** The spans to mask in `text` (a command line, or the inside of a quoted word). */
function spansOf(text: string, offset: number, depth: number): Span[] {
  const spans: Span[] = [];
  for (const words of commands(text)) {
    for (const [start, end] of commandSpans(words)) spans.push([offset + start, offset + end]);
    if (depth >= MAX_DEPTH) continue;
    // A quoted word with a space in it may be a command of its own (`ssh host "mysql -pX"`).
    for (const word of words) {
      for (const [start, end] of word.quoted) {
        const inner = text.slice(start, end);
        if (/\s/.test(inner)) spans.push(...spansOf(inner, offset + start, depth + 1));
      }
    }
  }
  // From each `://` after a scheme's letter: no scan goes past the next `/`, so all are linear.
  for (let at = text.indexOf('://'); at > 0; at = text.indexOf('://', at + 3)) {
    if (!/[A-Za-z0-9+.-]/.test(text[at - 1]!)) continue;
    URL_PASSWORD.lastIndex = at + 3;
    const match = URL_PASSWORD.exec(text);
    if (!match) continue;
    const end = match.index + match[0].length - 1; // before the `@`
    spans.push([offset + end - match[1]!.length, offset + end]);
  }
  return spans;
}

/** `command` with the secrets it was typed with masked (see the file's comment). */
export function scrubCommandSecrets(command: string): string {
  const spans = spansOf(command, 0, 0).sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  if (spans.length === 0) return command;
  let out = '';
  let copied = 0;
  for (const [start, end] of spans) {
    if (end <= copied) continue; // inside a span already masked
    out += command.slice(copied, Math.max(start, copied)) + (start >= copied ? SECRET_MASK : '');
    copied = end;
  }
  return out + command.slice(copied);
}
