/**
 * Security mode on one terminal channel's input: each command line the member submits is
 * checked against the session's policy before its Enter reaches the target.
 *
 * - `terminal` (a pty: the SSH shell with -t, the web terminal): keys pass through as typed, so
 *   the target echoes them; the line is rebuilt by {@link LineEditor}. A line is judged at each
 *   key that may run it: Enter, Ctrl-J, Ctrl-O, Ctrl-D on a non-empty line (a canonical-mode
 *   shell such as dash takes the text then), a newline inside a paste, and any key only the
 *   shell knows (Tab, Alt-keys, Ctrl-T …: `bind` may have made it accept-line; history keys
 *   judge the typed text only, so browsing history is not blocked by what it passes). An
 *   intercept command's key is not sent: the block keys go instead (see BLOCK_KEYS), and the
 *   rest of that input chunk (a paste) is dropped too. Until the target prints a new line
 *   after a block or a Ctrl-C, the line is also read as if the shell had ignored them, so an
 *   Enter then is judged with the old text still in the line (`stty intr undef`).
 *   A line edited with keys only the shell understands (Tab, history) is also read as the
 *   target drew it (screen-line.ts), and blocked if any reading is an intercept command;
 *   an Enter sent before the target redrew such a line is held back once (fail closed).
 * - `lines` (a shell without a pty, `ssh host < script`): input is held a command at a time
 *   (a line, or the lines a backslash, an open quote or a here-document joins) and only a
 *   checked command is sent (a blocked one is left out, the next still run); the last is
 *   checked at end of input.
 *
 * A multi-line command is judged joined and line by line: the stricter verdict wins. A notice
 * command passes and raises an alarm. See command-match.ts and the README's "Security mode
 * limits" for what a line-based filter cannot see.
 */
import {
  ALARM_COMMAND_MAX,
  fillText,
  SECURITY_MODE_TEXT,
  type AlarmAction,
  type CommandPolicy,
} from '@portcullis/contract';
import {
  compileRules,
  matchReading,
  readLine,
  type CompiledRule,
  type Reading,
} from './command-match';
import { ContinuationScanner } from './continuation';
import { LineEditor, type KeyKind } from './line-editor';
import { commandOf, ScreenLine } from './screen-line';

export interface Blocked {
  command: string;
  rule: string;
}

export interface FilterResult {
  /** The bytes to send to the target. */
  forward: Buffer;
  /** Set when a line was blocked (the first, if several): the member must be told why. */
  blocked: Blocked | null;
}

export type OnAlarm = (action: AlarmAction, command: string, rule: string) => void;

const CTRL_C = '\x03';
const CTRL_O = '\x0f';
const PASTE_END = '\x1b[201~';
/**
 * What replaces the key that would run a blocked line: Ctrl-G (readline abandons a key
 * sequence or search in progress), Ctrl-E Ctrl-U (readline: to the end, kill back to the
 * start; a canonical-mode tty: Ctrl-U kills the line), then Ctrl-C (the shell drops the line,
 * and a `for …; do` or continuation it is part of). The killing keys hold when the shell
 * ignores Ctrl-C (`stty intr undef`). Inside a bracketed paste, the paste is ended first, or
 * readline would take these keys as pasted text.
 */
const BLOCK_KEYS = '\x07\x05\x15\x03';
/**
 * Without a pty, a command is held until its newline, but not beyond this: a longer "line"
 * (data, not a command a member typed) is judged as it stands and passed on.
 */
const HOLD_MAX = 1024 * 1024;

/** Length in bytes of a UTF-8 sequence from its lead byte (1 for a stray byte). */
function utf8Length(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

function clip(command: string): string {
  return command.length > ALARM_COMMAND_MAX
    ? `${command.slice(0, ALARM_COMMAND_MAX - 1)}…`
    : command;
}

/** What the member's terminal shows in place of a blocked line, in English and Chinese. */
export function blockedNotice(blocked: Blocked): string {
  // Control characters of the line are not echoed back raw to the member's terminal.
  const values = {
    command: [...clip(blocked.command)].filter((c) => c >= ' ' && c !== '\x7f').join(''),
    rule: blocked.rule,
  };
  const text = SECURITY_MODE_TEXT.blocked;
  return `\r\n${fillText(text.en, values)}\r\n${fillText(text.zh, values)}\r\n`;
}

export interface Verdict {
  action: AlarmAction;
  rule: string;
}

/** A reading of the line and its verdict. */
interface Judged {
  command: string;
  verdict: Verdict | null;
}

/** A session's policy with each rule's words split once, so an Enter only parses the line. */
interface CompiledPolicy {
  intercept: CompiledRule[];
  notice: CompiledRule[];
}

function compilePolicy(policy: CommandPolicy): CompiledPolicy {
  return { intercept: compileRules(policy.intercept), notice: compileRules(policy.notice) };
}

/**
 * The strictest verdict over readings of a line (first intercept, else first notice). A
 * multi-line reading is also judged line by line: the shell may run its lines apart (a
 * here-document's end, which the parser does not follow, or a paste into a shell without
 * bracketed paste). Each line is parsed once, and its parse matched against both lists.
 */
function strictest(policy: CompiledPolicy, readings: string[], notices: boolean): Judged {
  const lists = notices ? (['intercept', 'notice'] as const) : (['intercept'] as const);
  if (lists.every((action) => policy[action].length === 0)) {
    return { command: readings[0] ?? '', verdict: null };
  }
  const parsed: { command: string; reading: Reading | null }[] = [];
  for (const command of readings) {
    if (command.trim() === '') continue;
    const parts = command.includes('\n') ? [command, ...command.split('\n')] : [command];
    for (const part of parts) parsed.push({ command, reading: readLine(part) });
  }
  for (const action of lists) {
    for (const { command, reading } of parsed) {
      const match = matchReading(reading, policy[action]);
      if (match) return { command, verdict: { action, rule: match.rule } };
    }
  }
  return { command: readings[0] ?? '', verdict: null };
}

/** Checks one command line and reports an intercept or notice through `onAlarm`. */
export function judge(policy: CommandPolicy, line: string, onAlarm: OnAlarm): Verdict | null {
  return judgeCompiled(compilePolicy(policy), line, onAlarm);
}

function judgeCompiled(policy: CompiledPolicy, line: string, onAlarm: OnAlarm): Verdict | null {
  const { verdict } = strictest(policy, [line], true);
  if (verdict) onAlarm(verdict.action, clip(line), verdict.rule);
  return verdict;
}

export class CommandFilter {
  /** The line as readline edits it. */
  private editor = new LineEditor();
  /**
   * The line as if no Ctrl-C (the member's, or the block's keys) reached the shell since the
   * target last printed a new line: a shell with `stty intr undef` still holds it.
   */
  private unheard: LineEditor | null = null;
  /** The prompt the unheard line was typed after: the screen back to it means it is gone. */
  private unheardPrompt: string | null = null;
  /** The line as a canonical-mode shell (dash) holds it after Ctrl-D handed part of it over. */
  private canonical: LineEditor | null = null;
  /** The line as the target drew it, and the prompt it showed when typing began (terminal). */
  private readonly screen = new ScreenLine();
  private prompt: string | null = null;
  /** The editor's blind-key count when the target last drew something. */
  private drawnAt = 0;
  /** A UTF-8 character still arriving, in terminal mode. */
  private partial: number[] = [];
  /** The command held back so far (lines mode), and the bytes of its unfinished line. */
  private held: Buffer[] = [];
  private heldSize = 0;
  private lineParts: Buffer[] = [];
  /** Complete lines in `held` (lines mode): none means the command is one line. */
  private heldLines = 0;
  private readonly scanner = new ContinuationScanner();
  private readonly policy: CompiledPolicy;

  constructor(
    policy: CommandPolicy,
    private readonly mode: 'terminal' | 'lines',
    private readonly onAlarm: OnAlarm,
  ) {
    this.policy = compilePolicy(policy);
  }

  input(data: Buffer): FilterResult {
    return this.mode === 'terminal' ? this.terminal(data) : this.lines(data);
  }

  /** The target's output, so a line the keys alone do not tell can be read as drawn. */
  output(data: Buffer): void {
    if (this.mode !== 'terminal') return;
    this.screen.feed(data);
    this.drawnAt = this.editor.blindKeys;
    if (this.unheard) this.onRedrawn(data);
  }

  /**
   * Whether the shell showed it dropped the line a Ctrl-C or a block was for: a new line
   * (bash prints one after an interrupt), or the screen's line back to its bare prompt
   * (readline redraws it so after the block's Ctrl-U when the interrupt key is undefined;
   * the earlier lines of a continuation then stay).
   */
  private onRedrawn(data: Buffer): void {
    if (!data.includes(0x0a)) {
      if (this.screen.text() !== this.unheardPrompt) return;
      this.unheard!.killLine();
      if (!this.unheard!.empty) return;
    }
    this.unheard = null;
    this.unheardPrompt = null;
  }

  /** Starts (once) the reading in which the shell ignores Ctrl-C and the block keys. */
  private notHeard(): LineEditor {
    if (!this.unheard) {
      this.unheard = this.editor.clone(true);
      this.unheardPrompt = this.prompt;
    }
    return this.unheard;
  }

  /** End of input: a held last command without its newline is checked (lines mode). */
  end(): FilterResult {
    const rest = Buffer.concat(this.held);
    this.scanner.reset();
    if (rest.length === 0) {
      this.release();
      return { forward: rest, blocked: null };
    }
    return this.release(rest, rest.toString('utf8').replace(/\r?\n$/, ''));
  }

  /** Empties the held command; `bytes` (whose text is `text`) go on unless it is blocked. */
  private release(bytes: Buffer = Buffer.alloc(0), text = ''): FilterResult {
    this.held = [];
    this.lineParts = [];
    this.heldSize = 0;
    this.heldLines = 0;
    if (bytes.length === 0) return { forward: bytes, blocked: null };
    const verdict = judgeCompiled(this.policy, text, this.onAlarm);
    if (verdict?.action === 'intercept') {
      return { forward: Buffer.alloc(0), blocked: { command: text, rule: verdict.rule } };
    }
    return { forward: bytes, blocked: null };
  }

  private terminal(data: Buffer): FilterResult {
    for (let i = 0; i < data.length; i++) {
      const byte = data[i]!;
      if (this.partial.length > 0 && (byte & 0xc0) !== 0x80) {
        // A UTF-8 sequence cut short: it is one invalid character, and this byte a key of its
        // own (a lead byte must not swallow the Enter after it).
        this.partial = [];
        const stop = this.key('\ufffd', data, i);
        if (stop) return stop;
      }
      let ch: string;
      if (this.partial.length === 0 && byte < 0x80) ch = String.fromCharCode(byte);
      else {
        this.partial.push(byte);
        if (this.partial.length < utf8Length(this.partial[0]!)) continue;
        ch = Buffer.from(this.partial).toString('utf8');
        this.partial = [];
      }
      const stop = this.key(ch, data, i);
      if (stop) return stop;
    }
    return { forward: data, blocked: null };
  }

  /** One key at `data[i]`: null to go on, or what to send when the input stops here. */
  private key(ch: string, data: Buffer, i: number): FilterResult | null {
    this.prompt ??= this.screen.text();
    if (ch === CTRL_C && (!this.editor.empty || this.canonical)) this.notHeard();
    const kind: KeyKind = this.editor.feed(ch);
    this.unheard?.feed(ch);
    this.canonical?.feed(ch);
    if (this.canonical?.empty) this.canonical = null;
    switch (kind) {
      case 'text':
        return null;
      case 'submit':
        return this.submit(ch, data, i);
      case 'eof':
        return this.check(true, data, i) ?? this.handOver();
      case 'history':
        return this.check(false, data, i);
      case 'blind':
      case 'paste-newline':
        return this.check(true, data, i);
    }
  }

  /** Enter, Ctrl-J or Ctrl-O: the line runs unless it is an intercept command. */
  private submit(ch: string, data: Buffer, i: number): FilterResult | null {
    if (this.drawnAt < this.editor.blindKeys) {
      // Enter right after a Tab or history key, before the shell redrew the line: the
      // gateway cannot know what would run. This Enter (and what follows it in the chunk) is
      // held back once; the member presses Enter again once the line is on screen.
      this.drawnAt = this.editor.blindKeys;
      return { forward: data.subarray(0, i), blocked: null };
    }
    const { command, verdict } = this.judgeLine(true, true);
    if (verdict) this.onAlarm(verdict.action, clip(command), verdict.rule);
    if (verdict?.action === 'intercept') return this.block(command, verdict.rule, data, i);
    for (const reading of [this.editor, this.unheard, this.canonical]) reading?.accept();
    if (this.unheard?.empty) this.unheard = this.unheardPrompt = null;
    if (this.canonical?.empty) this.canonical = null;
    // Ctrl-O puts the next history line in the buffer: what it holds, only the shell knows.
    if (ch === CTRL_O) this.editor.markBlind();
    this.prompt = null;
    this.drawnAt = 0;
    return null;
  }

  /**
   * Before a key that may run the line goes on (one only the shell knows, a newline inside a
   * paste, Ctrl-D): an intercept command stops the input here.
   */
  private check(drawnToo: boolean, data: Buffer, i: number): FilterResult | null {
    const { command, verdict } = this.judgeLine(drawnToo, false);
    if (!verdict) return null;
    this.onAlarm(verdict.action, clip(command), verdict.rule);
    return this.block(command, verdict.rule, data, i);
  }

  /** Ctrl-D passed on a non-empty line: readline deletes a character, dash takes the text. */
  private handOver(): null {
    if (this.canonical) this.canonical.commit();
    else {
      this.canonical = this.editor.clone(false);
      this.canonical.commit();
    }
    this.editor.deleteForward();
    this.unheard?.deleteForward();
    return null;
  }

  /**
   * The line's readings: typed (and the other states the shell may hold), and for an
   * uncertain one also as drawn (what Tab or history made of it). The strictest wins.
   */
  private judgeLine(drawnToo: boolean, notices: boolean): Judged {
    const readings = [this.editor.text];
    if (this.unheard) readings.push(this.unheard.text);
    if (this.canonical) readings.push(this.canonical.text);
    if (drawnToo && (this.editor.uncertain || this.unheard?.uncertain)) {
      readings.push(this.editor.continued + commandOf(this.screen.text(), this.prompt ?? ''));
    }
    return strictest(this.policy, readings, notices);
  }

  /** Sends the block keys in place of `data[i]` and what follows it. */
  private block(command: string, rule: string, data: Buffer, i: number): FilterResult {
    const keys = (this.editor.inPaste ? PASTE_END : '') + BLOCK_KEYS;
    // Until the target prints a new line, the shell may still hold the line (see unheard).
    const unheard = this.notHeard();
    if (unheard.inPaste) for (const ch of PASTE_END) unheard.feed(ch);
    this.editor.reset();
    this.canonical = null;
    this.prompt = null;
    this.drawnAt = 0;
    return {
      forward: Buffer.concat([data.subarray(0, i), Buffer.from(keys)]),
      blocked: { command, rule },
    };
  }

  /**
   * Each whole command on its own: a blocked one is left out and the commands after it still
   * run (as a script's would), whatever chunks they arrived in. A line the shell continues
   * (a trailing backslash, an open quote, a here-document) is held with the next.
   */
  private lines(data: Buffer): FilterResult {
    const out: Buffer[] = [];
    let blocked: Blocked | null = null;
    let from = 0;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, from)) {
      const piece = data.subarray(from, nl + 1);
      from = nl + 1;
      const bytes = this.lineParts.length === 0 ? piece : Buffer.concat([...this.lineParts, piece]);
      // Without its newline (`\r\n` or `\n`); ASCII bytes, so cut before decoding.
      const cut = bytes.length > 1 && bytes[bytes.length - 2] === 0x0d ? 2 : 1;
      const line = bytes.toString('utf8', 0, bytes.length - cut);
      const open = this.scanner.push(line);
      let command: FilterResult;
      if (!open && this.heldLines === 0) {
        // A command of one line (the common case): judged as decoded for the scanner, and
        // passed on without copying it again. The scanner is back in its start state.
        command = this.release(bytes, line);
      } else {
        this.lineParts = [];
        this.hold(piece);
        this.heldLines += 1;
        if (open && this.heldSize <= HOLD_MAX) continue;
        command = this.end();
      }
      out.push(command.forward);
      blocked ??= command.blocked;
    }
    if (from < data.length) {
      this.hold(data.subarray(from));
      this.lineParts.push(data.subarray(from));
    }
    if (this.heldSize > HOLD_MAX) {
      const rest = this.end();
      out.push(rest.forward);
      blocked ??= rest.blocked;
    }
    return { forward: Buffer.concat(out), blocked };
  }

  private hold(bytes: Buffer): void {
    this.held.push(bytes);
    this.heldSize += bytes.length;
  }
}
