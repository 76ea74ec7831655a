/**
 * Rebuilds the command line a member types into a terminal from the keys they send, the way
 * readline (bash's emacs mode) would: printable text at the cursor, Backspace, Ctrl-U, Ctrl-W,
 * Ctrl-K, Ctrl-A/E/B/F, Ctrl-D, Home, End, Delete, Left and Right, bracketed paste.
 *
 * Limits (this is an audit aid with a best-effort block, not a sandbox): keys whose effect only
 * the shell knows (Tab completion, history recall with Up, Down, Ctrl-R, Ctrl-P/N, yank,
 * Alt-word motions, vi mode) are not replayed; the line is then marked `uncertain` and what
 * was typed is still checked. Programs that read keys themselves (editors, pagers) are seen as
 * lines too.
 */

export interface SubmittedLine {
  text: string;
  /** A key was used whose effect on the line the gateway cannot know. */
  uncertain: boolean;
}

const ESC = '\x1b';

/** CSI / SS3 final bytes the editor understands (`ESC [ 3 ~` is Delete). */
const MOTIONS: Record<string, 'left' | 'right' | 'home' | 'end' | 'history'> = {
  A: 'history',
  B: 'history',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
};

export class LineEditor {
  private chars: string[] = [];
  private cursor = 0;
  /** Keys of the current line whose effect only the shell knows. */
  private blind = 0;
  /** Bytes of an escape sequence still arriving (a sequence may span two chunks). */
  private escape: string | null = null;

  /** How many keys of the line being typed only the shell knows the effect of. */
  get blindKeys(): number {
    return this.blind;
  }

  /** Feeds one character; returns the line when it is an Enter (CR or LF). */
  feed(ch: string): SubmittedLine | null {
    if (this.escape !== null) {
      this.escape += ch;
      this.onEscape();
      return null;
    }
    if (ch === '\r' || ch === '\n') return this.submit();
    const table: Record<string, () => void> = {
      '\x7f': () => this.deleteBack(1),
      '\b': () => this.deleteBack(1),
      '\x15': () => this.deleteBack(this.cursor),
      '\x17': () => this.deleteBack(this.wordBefore()),
      '\x0b': () => this.chars.splice(this.cursor),
      '\x03': () => this.reset(),
      '\x01': () => (this.cursor = 0),
      '\x05': () => (this.cursor = this.chars.length),
      '\x02': () => this.move(-1),
      '\x06': () => this.move(1),
      '\x04': () => this.chars.splice(this.cursor, 1),
      [ESC]: () => (this.escape = ESC),
    };
    const action = table[ch];
    if (action) action();
    // Tab, Ctrl-R, Ctrl-P/N, Ctrl-Y, Ctrl-T …: only the shell knows what they did.
    else if (ch < ' ') this.blind += 1;
    else this.insert(ch);
    return null;
  }

  private submit(): SubmittedLine {
    const line = { text: this.chars.join(''), uncertain: this.blind > 0 };
    this.reset();
    return line;
  }

  private reset(): void {
    this.chars = [];
    this.cursor = 0;
    this.blind = 0;
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
  private onEscape(): void {
    const seq = this.escape!;
    if (seq.length < 2) return;
    const kind = seq[1];
    if (kind !== '[' && kind !== 'O') {
      this.escape = null;
      this.blind += 1; // Alt-b, Alt-f, Alt-d, Alt-. …
      return;
    }
    if (seq.length < 3) return;
    const final = seq[seq.length - 1]!;
    if (kind === '[' && !/[@-~]/.test(final)) return; // parameters still arriving
    this.escape = null;
    const params = seq.slice(2, -1);
    if (final === '~') {
      if (params === '3') this.chars.splice(this.cursor, 1);
      else if (params === '1' || params === '7') this.cursor = 0;
      else if (params === '4' || params === '8') this.cursor = this.chars.length;
      // 200~ / 201~ bracket a paste: the text between is typed text.
      else if (params !== '200' && params !== '201') this.blind += 1;
      return;
    }
    const motion = MOTIONS[final];
    // `ESC [ 1 ; 5 D` (Ctrl-Left) moves by words, as the shell defines them.
    if (params !== '') this.blind += 1;
    else if (motion === 'left') this.move(-1);
    else if (motion === 'right') this.move(1);
    else if (motion === 'home') this.cursor = 0;
    else if (motion === 'end') this.cursor = this.chars.length;
    else this.blind += 1;
  }
}
