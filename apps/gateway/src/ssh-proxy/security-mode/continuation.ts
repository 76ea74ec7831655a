/**
 * Whether a submitted line is only the start of a command: the shell asks for more (its PS2
 * prompt) when the text so far ends in an unescaped backslash, inside a quote, or inside a
 * here-document that has not met its delimiter. Security mode then judges the lines joined
 * (`r\⏎m x` runs `rm x`; `echo 'a⏎'; rm x` runs rm), as well as each line alone.
 *
 * Limits: the open constructs of other shells' syntax, and `$(…)` spanning lines, are not
 * followed (each line is still judged alone); a here-document's delimiter is one plain word.
 * Backquotes are read as bash reads them: dash lets a quote inside them run on to later lines
 * (`` echo `echo '` `` goes on there), which is read as ended (each line is judged alone).
 */

import { joinsLines, quoteStep, type Quote } from './shell-syntax';

/** Characters that end an unquoted word. */
const WORD_END = /[\s;&|()<>]/;

interface HereDoc {
  delimiter: string;
  /** `<<-`: tabs before the delimiter line are ignored. */
  strip: boolean;
}

/** What the scan carries from one physical line to the next. */
interface ScanState {
  quote: Quote;
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

/**
 * Reads the character at `i`; returns the index of the last character it consumed. Quotes
 * are shell-syntax.ts's quoteStep, as the parser reads them; this adds what only matters to
 * whether a line goes on: a backslash before the newline, comments and here-documents.
 */
function scanChar(line: string, i: number, state: ScanState): number {
  const ch = line[i]!;
  const { quote } = state;
  if (ch === '\\' && quote !== "'" && i === line.length - 1) {
    state.joined = joinsLines(quote);
    return i;
  }
  if (quote === null) {
    const wordStart = i === 0 || WORD_END.test(line[i - 1]!);
    if (ch === '#' && wordStart) return line.length; // a comment, to the end of the line
    if (line.startsWith('<<<', i)) return i + 2;
    if (line.startsWith('<<', i)) return hereDoc(line, i, state);
  }
  const [next, skip] = quoteStep(line, i, quote);
  state.quote = next;
  return i + skip;
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
