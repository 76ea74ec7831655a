/**
 * The terminal's current line as the target drew it, from the target's output: a second view
 * of a command line, for the lines whose keys the gateway cannot replay (Tab completion,
 * history recall: see line-editor.ts). The shell echoes what the line became, so the drawn
 * line minus the prompt is what will run.
 *
 * It renders only what line editors use: printable text (overwriting at the cursor), CR, LF,
 * Backspace, and the CSI sequences K (erase), C and D (move), P (delete), @ (insert) and G
 * (column); OSC sequences (window titles in prompts) are skipped. Limits: a line longer than
 * the terminal's width wraps and is seen only from its last row; full-screen programs are
 * not followed.
 */

const ESC = '\x1b';
const BEL = '\x07';
/** The longest line kept; beyond it, characters are dropped (a flood is not a command line). */
const LINE_MAX = 16 * 1024;

export class ScreenLine {
  private chars: string[] = [];
  private cursor = 0;
  private readonly decoder = new TextDecoder('utf-8');
  /** An escape sequence still arriving. */
  private escape: string | null = null;

  feed(data: Buffer): void {
    for (const ch of this.decoder.decode(data, { stream: true })) this.char(ch);
  }

  text(): string {
    return this.chars.join('').trimEnd();
  }

  private char(ch: string): void {
    if (this.escape !== null) return this.onEscape(ch);
    if (ch === ESC) this.escape = '';
    else if (ch === '\n') {
      this.chars = [];
      this.cursor = 0;
    } else if (ch === '\r') this.cursor = 0;
    else if (ch === '\b') this.cursor = Math.max(0, this.cursor - 1);
    else if (ch >= ' ' && ch !== '\x7f' && this.cursor < LINE_MAX) {
      while (this.chars.length < this.cursor) this.chars.push(' ');
      this.chars[this.cursor] = ch;
      this.cursor += 1;
    }
  }

  private onEscape(ch: string): void {
    const seq = (this.escape += ch);
    const kind = seq[0];
    if (kind === ']') {
      // OSC: ends with BEL or ESC \ (the ESC starts a new sequence, the \ is then ignored).
      if (ch === BEL) this.escape = null;
      else if (ch === ESC) this.escape = '';
      return;
    }
    if (kind !== '[') {
      this.escape = null; // a two-byte escape (charset, keypad mode …): nothing drawn
      return;
    }
    if (seq.length < 2 || !/[@-~]/.test(ch)) return;
    this.escape = null;
    this.csi(seq.slice(1, -1), ch);
  }

  private csi(params: string, final: string): void {
    const n = Math.max(1, Number.parseInt(params, 10) || 1);
    const table: Record<string, () => void> = {
      K: () => {
        if (params === '' || params === '0')
          this.chars.length = Math.min(this.chars.length, this.cursor);
        else if (params === '1') this.chars.fill(' ', 0, this.cursor + 1);
        else this.chars = [];
      },
      C: () => (this.cursor = Math.min(LINE_MAX, this.cursor + n)),
      D: () => (this.cursor = Math.max(0, this.cursor - n)),
      P: () => this.chars.splice(this.cursor, n),
      '@': () => this.chars.splice(this.cursor, 0, ...Array<string>(n).fill(' ')),
      G: () => (this.cursor = Math.min(LINE_MAX, n - 1)),
    };
    table[final]?.();
  }
}

/**
 * The command part of a drawn line: after the prompt seen when the member began typing, or
 * else after the first `$ `, `# `, `% ` or `> ` (the usual prompt ends), or the whole line.
 */
export function commandOf(drawn: string, prompt: string): string {
  if (prompt !== '' && drawn.startsWith(prompt)) return drawn.slice(prompt.length).trimStart();
  const ends = ['$ ', '# ', '% ', '> '].map((p) => drawn.indexOf(p)).filter((i) => i >= 0);
  return ends.length > 0 ? drawn.slice(Math.min(...ends) + 2).trimStart() : drawn;
}
