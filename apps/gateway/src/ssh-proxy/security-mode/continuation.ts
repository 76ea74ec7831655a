/**
 * Whether a submitted line is only the start of a command: the shell asks for more (its PS2
 * prompt) when the text so far ends in an unescaped backslash, inside a quote, or inside a
 * here-document that has not met its delimiter. Security mode then judges the lines joined
 * (`r\⏎m x` runs `rm x`; `echo 'a⏎'; rm x` runs rm), as well as each line alone.
 *
 * Limits: the open constructs of other shells' syntax, and `$(…)` spanning lines, are not
 * followed (each line is still judged alone); a here-document's delimiter is one plain word.
 */

/** Characters that end an unquoted word. */
const WORD_END = /[\s;&|()<>]/;

interface HereDoc {
  delimiter: string;
  /** `<<-`: tabs before the delimiter line are ignored. */
  strip: boolean;
}

/** What the scan carries from one physical line to the next. */
interface ScanState {
  quote: "'" | '"' | '`' | "$'" | null;
  /** Here-documents whose bodies start after this line, in order. */
  pending: HereDoc[];
  /** The here-document whose body is being read. */
  body: HereDoc | null;
  /** The last line ended in an unescaped backslash. */
  joined: boolean;
}

/**
 * Reads a command's physical lines one at a time (lines mode holds a script's lines while
 * they continue, and must not rescan the block at each one).
 */
export class ContinuationScanner {
  private state: ScanState = fresh();

  /** Reads one more line (without its newline); true when the command goes on after it. */
  push(line: string): boolean {
    scanLine(line, this.state);
    const { joined, quote, body, pending } = this.state;
    return joined || quote !== null || body !== null || pending.length > 0;
  }

  reset(): void {
    this.state = fresh();
  }
}

function fresh(): ScanState {
  return { quote: null, pending: [], body: null, joined: false };
}

/** True when the shell would read another line before running `text`. */
export function continues(text: string): boolean {
  const scanner = new ContinuationScanner();
  let open = false;
  for (const line of text.split('\n')) open = scanner.push(line);
  return open;
}

function scanLine(line: string, state: ScanState): void {
  if (state.body) {
    const body = state.body;
    if ((body.strip ? line.replace(/^\t+/, '') : line) === body.delimiter) {
      state.body = state.pending.shift() ?? null;
    }
    return;
  }
  state.joined = false;
  for (let i = 0; i < line.length; i++) i = scanChar(line, i, state);
  // The newline after this line starts the bodies it opened (unless it is escaped).
  if (!state.joined && state.quote === null && state.pending.length > 0) {
    state.body = state.pending.shift() ?? null;
  }
}

/** Reads the character at `i`; returns the index of the last character it consumed. */
function scanChar(line: string, i: number, state: ScanState): number {
  const ch = line[i]!;
  const { quote } = state;
  if (quote === "'") {
    if (ch === "'") state.quote = null;
    return i;
  }
  if (ch === '\\') {
    if (i === line.length - 1) state.joined = quote === null || quote === '"' || quote === '`';
    return i + 1;
  }
  if (quote !== null) {
    if (ch === quote || (quote === "$'" && ch === "'")) state.quote = null;
    return i;
  }
  const wordStart = i === 0 || WORD_END.test(line[i - 1]!);
  if (ch === '#' && wordStart) return line.length; // a comment, to the end of the line
  if (ch === '$' && line[i + 1] === "'") {
    state.quote = "$'";
    return i + 1;
  }
  if (ch === "'" || ch === '"' || ch === '`') state.quote = ch;
  else if (line.startsWith('<<', i) && line[i + 2] !== '<') return hereDoc(line, i, state);
  else if (line.startsWith('<<<', i)) return i + 2;
  return i;
}

/** `<<EOF`, `<<-EOF`, `<< 'EOF'`: notes the here-document; returns the delimiter's end. */
function hereDoc(line: string, at: number, state: ScanState): number {
  const strip = line[at + 2] === '-';
  let i = at + (strip ? 3 : 2);
  while (line[i] === ' ' || line[i] === '\t') i++;
  let delimiter = '';
  let quote: string | null = null;
  for (; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else delimiter += ch;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '\\') delimiter += line[++i] ?? '';
    else if (WORD_END.test(ch)) break;
    else delimiter += ch;
  }
  if (delimiter !== '') state.pending.push({ delimiter, strip });
  return i - 1;
}
