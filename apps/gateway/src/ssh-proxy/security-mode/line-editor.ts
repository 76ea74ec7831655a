/**
 * Rebuilds the command line a member types into a terminal from the keys they send, the way
 * readline (bash's emacs mode) would: printable text at the cursor, Backspace, Ctrl-U, Ctrl-W,
 * Ctrl-K, Ctrl-A/E/B/F, Ctrl-D, Ctrl-V, Home, End, Delete, Left and Right, and bracketed paste
 * (`ESC [200~ … ESC [201~`: every key between is text, as readline inserts it; a newline in it
 * stays in the line). Earlier lines of a command the shell continues (`r\⏎`, an open quote)
 * stay in `text` but out of reach of the line's editing keys, as in readline.
 *
 * Limits (this is an audit aid with a best-effort block, not a sandbox): keys whose effect only
 * the shell knows (Tab completion, history recall with Up, Down, Ctrl-R, Ctrl-P/N, yank,
 * Alt-word motions, keys rebound with `bind`, vi mode) are not replayed; the line is then
 * marked `uncertain` and what was typed is still checked. Programs that read keys themselves
 * (editors, pagers) are seen as lines too.
 */
import { continues } from './continuation';

/**
 * What a key does, for the filter: `submit` runs the line (Enter, Ctrl-J, Ctrl-O); `eof`
 * (Ctrl-D on a non-empty line) hands it to a shell reading in canonical mode (dash);
 * `paste-newline` is a newline inside a bracketed paste; `blind` and `history` are keys only
 * the shell knows the effect of (either may be rebound to run the line); `text` is the rest.
 */
export type KeyKind = 'text' | 'submit' | 'eof' | 'paste-newline' | 'blind' | 'history';

const ESC = '\x1b';
const CTRL_C = '\x03';
const CTRL_O = '\x0f';
const PASTE_END = '\x1b[201~';

/** CSI / SS3 final bytes the editor understands (`ESC [ 3 ~` is Delete). */
const MOTIONS: Record<string, 'left' | 'right' | 'home' | 'end' | 'history'> = {
  A: 'history',
  B: 'history',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
};
/** Control keys that move through history (readline's defaults). */
const HISTORY_KEYS = new Set(['\x10', '\x0e', '\x12', '\x13']);

export class LineEditor {
  /** The current physical line, and the cursor in it. */
  private chars: string[] = [];
  private cursor = 0;
  /** Earlier lines of the same command (a continuation), each ending in a newline. */
  private before = '';
  /** Keys of the current line whose effect only the shell knows. */
  private blind = 0;
  /** Bytes of an escape sequence still arriving (a sequence may span two chunks). */
  private escape: string | null = null;
  /** Inside a bracketed paste; `pasteEnd` holds what may be the start of its end marker. */
  private pasting = false;
  private pasteEnd = '';
  /** Ctrl-V: the next key is inserted as it is. */
  private quoted = false;

  /**
   * @param ignoresInterrupt a reading of the line in which Ctrl-C did not reach the shell as
   *   an interrupt (`stty intr undef`): readline ignores the key, a paste inserts it.
   */
  constructor(readonly ignoresInterrupt = false) {}

  /** How many keys of the line being typed only the shell knows the effect of. */
  get blindKeys(): number {
    return this.blind;
  }

  /** The command so far: earlier continued lines and the current one. */
  get text(): string {
    return this.before + this.chars.join('');
  }

  /** The lines before the current one (what a redrawn current line continues). */
  get continued(): string {
    return this.before;
  }

  /** A key was used whose effect on the line the gateway cannot know. */
  get uncertain(): boolean {
    return this.blind > 0;
  }

  get inPaste(): boolean {
    return this.pasting;
  }

  /** Nothing typed, nothing continued, no paste open. */
  get empty(): boolean {
    return this.chars.length === 0 && this.before === '' && !this.pasting;
  }

  clone(ignoresInterrupt = this.ignoresInterrupt): LineEditor {
    const copy = new LineEditor(ignoresInterrupt);
    copy.chars = [...this.chars];
    copy.cursor = this.cursor;
    copy.before = this.before;
    copy.blind = this.blind;
    copy.escape = this.escape;
    copy.pasting = this.pasting;
    copy.pasteEnd = this.pasteEnd;
    copy.quoted = this.quoted;
    return copy;
  }

  /**
   * Feeds one character and says what kind of key it was. A `submit` or `eof` key is not
   * applied: the filter judges the line first, then calls accept() or deleteForward().
   */
  feed(ch: string): KeyKind {
    // The terminal turns Ctrl-C into an interrupt before readline sees it, paste or not.
    if (ch === CTRL_C && !this.ignoresInterrupt) {
      this.reset();
      return 'text';
    }
    if (this.pasting) return this.pasted(ch);
    if (this.quoted) {
      this.quoted = false;
      this.insert(ch);
      return 'text';
    }
    if (this.escape !== null) {
      this.escape += ch;
      return this.onEscape();
    }
    return this.key(ch);
  }

  /** The line ran (its Enter passed): the next line continues it, or starts afresh. */
  accept(): void {
    const text = this.text;
    this.clearLine();
    this.before = continues(text) ? `${text}\n` : '';
  }

  /** The shell put a line there the keys do not tell (Ctrl-O's next history line). */
  markBlind(): void {
    this.blind += 1;
  }

  /**
   * Ctrl-D in canonical mode: the text so far is handed to the shell, out of reach of later
   * editing keys (`rm x ^D ^U ⏎` still runs rm under dash).
   */
  commit(): void {
    this.before = this.text;
    this.clearLine();
  }

  /** Ctrl-D as readline reads it on a non-empty line: delete the character at the cursor. */
  deleteForward(): void {
    this.chars.splice(this.cursor, 1);
  }

  /** The current line killed (Ctrl-U did it); earlier continued lines stay with the shell. */
  killLine(): void {
    this.clearLine();
  }

  reset(): void {
    this.clearLine();
    this.before = '';
    this.pasting = false;
    this.pasteEnd = '';
  }

  private clearLine(): void {
    this.chars = [];
    this.cursor = 0;
    this.blind = 0;
    this.escape = null;
    this.quoted = false;
  }

  /** A key outside a paste and an escape sequence (a switch: no closures per keystroke). */
  private key(ch: string): KeyKind {
    switch (ch) {
      case '\r':
      case '\n':
      case CTRL_O: // operate-and-get-next: runs the line like Enter
        return 'submit';
      case '\x04':
        return this.chars.length > 0 ? 'eof' : 'text';
      case '\x7f':
      case '\b':
        this.deleteBack(1);
        return 'text';
      case '\x15':
        this.deleteBack(this.cursor);
        return 'text';
      case '\x17':
        this.deleteBack(this.wordBefore());
        return 'text';
      case '\x0b':
        this.chars.splice(this.cursor);
        return 'text';
      case '\x01':
        this.cursor = 0;
        return 'text';
      case '\x05':
        this.cursor = this.chars.length;
        return 'text';
      case '\x02':
        this.move(-1);
        return 'text';
      case '\x06':
        this.move(1);
        return 'text';
      case CTRL_C: // only a reading that ignores interrupts gets here: readline rings the bell
        return 'text';
      case ESC:
        this.escape = ESC;
        return 'text';
      case '\x16':
        this.quoted = true;
        this.blind += 1; // it may be rebound; the drawn line tells
        return 'blind';
    }
    if (ch >= ' ') {
      this.insert(ch);
      return 'text';
    }
    // Tab, Ctrl-R, Ctrl-P/N, Ctrl-Y, Ctrl-T …: only the shell knows what they did.
    this.blind += 1;
    return HISTORY_KEYS.has(ch) ? 'history' : 'blind';
  }

  /** A key inside a bracketed paste: text, up to the end marker. */
  private pasted(ch: string): KeyKind {
    const candidate = this.pasteEnd + ch;
    if (PASTE_END.startsWith(candidate)) {
      this.pasteEnd = candidate === PASTE_END ? '' : candidate;
      if (candidate === PASTE_END) this.pasting = false;
      return 'text';
    }
    // Not the end marker after all: what was held back is text too.
    for (const held of this.pasteEnd) this.insert(held);
    this.pasteEnd = '';
    if (ch === ESC) {
      this.pasteEnd = ESC;
      return 'text';
    }
    if (ch === '\r' || ch === '\n') {
      this.insert('\n'); // readline keeps a pasted newline in the line
      return 'paste-newline';
    }
    this.insert(ch);
    return 'text';
  }

  private insert(ch: string): void {
    // Appending is the common case (typing, a paste): push keeps a long paste linear.
    if (this.cursor === this.chars.length) this.chars.push(ch);
    else this.chars.splice(this.cursor, 0, ch);
    this.cursor += 1;
  }

  private move(by: number): void {
    this.cursor = Math.max(0, Math.min(this.chars.length, this.cursor + by));
  }

  private deleteBack(count: number): void {
    const n = Math.min(count, this.cursor);
    this.chars.splice(this.cursor - n, n);
    this.cursor -= n;
  }

  /** unix-word-rubout: the spaces before the cursor, then the word before them. */
  private wordBefore(): number {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.chars[i - 1]!)) i--;
    while (i > 0 && !/\s/.test(this.chars[i - 1]!)) i--;
    return this.cursor - i;
  }

  /** `ESC [ params final` (CSI), `ESC O final` (SS3), or ESC and one key (Alt-key). */
  private onEscape(): KeyKind {
    const seq = this.escape!;
    if (seq.length < 2) return 'text';
    const kind = seq[1]!;
    if (kind !== '[' && kind !== 'O') {
      this.escape = null;
      this.blind += 1; // Alt-b, Alt-f, Alt-d, Alt-. …
      return kind === '<' || kind === '>' ? 'history' : 'blind';
    }
    if (seq.length < 3) return 'text';
    const final = seq[seq.length - 1]!;
    if (kind === '[' && final >= ' ' && final <= '?') return 'text'; // parameters arriving
    this.escape = null;
    if (final < '@' || final > '~') {
      // Not a sequence after all (`ESC [ ⏎`): readline gives up on it and reads the key.
      this.blind += 1;
      return this.key(final);
    }
    return this.sequence(seq.slice(2, -1), final);
  }

  /** A complete CSI or SS3 sequence: its parameters and final byte. */
  private sequence(params: string, final: string): KeyKind {
    if (final === '~') {
      if (params === '3') this.chars.splice(this.cursor, 1);
      else if (params === '1' || params === '7') this.cursor = 0;
      else if (params === '4' || params === '8') this.cursor = this.chars.length;
      else if (params === '200') this.pasting = true;
      else if (params !== '201') {
        this.blind += 1;
        return params === '5' || params === '6' ? 'history' : 'blind'; // PgUp, PgDn
      }
      return 'text';
    }
    const motion = MOTIONS[final];
    // `ESC [ 1 ; 5 D` (Ctrl-Left) moves by words, as the shell defines them.
    if (params !== '' || motion === undefined || motion === 'history') {
      this.blind += 1;
      return motion === 'history' && params === '' ? 'history' : 'blind';
    }
    if (motion === 'left') this.move(-1);
    else if (motion === 'right') this.move(1);
    else if (motion === 'home') this.cursor = 0;
    else this.cursor = this.chars.length;
    return 'text';
  }
}
