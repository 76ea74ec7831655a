/**
 * Security mode on one terminal channel's input: each command line the member submits is
 * checked against the session's policy before its Enter reaches the target.
 *
 * - `terminal` (a pty: the SSH shell with -t, the web terminal): keys pass through as typed, so
 *   the target echoes them; the line is rebuilt by {@link LineEditor}. At Enter, an intercept
 *   command's Enter is not sent: a Ctrl-C goes instead (the shell drops the line, also inside a
 *   `for …; do` continuation), and the rest of that input chunk (a paste) is dropped too.
 *   A line edited with keys only the shell understands (Tab, history) is also read as the
 *   target drew it (screen-line.ts), and blocked if either reading is an intercept command;
 *   an Enter sent before the target redrew such a line is held back once (fail closed).
 * - `lines` (a shell without a pty, `ssh host < script`): input is held a line at a time and
 *   only a checked line is sent (a blocked one is left out, the next still run); the last line
 *   is checked at end of input.
 *
 * A notice command passes and raises an alarm. See command-match.ts and the README's
 * "Security mode limits" for what a line-based filter cannot see.
 */
import {
  ALARM_COMMAND_MAX,
  fillText,
  SECURITY_MODE_TEXT,
  type AlarmAction,
  type CommandPolicy,
} from '@portcullis/contract';
import { matchCommand } from './command-match';
import { LineEditor, type SubmittedLine } from './line-editor';
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

const CTRL_C = Buffer.from([0x03]);
/**
 * Without a pty, a line is held until its newline, but not beyond this: a longer "line" (data,
 * not a command a member typed) is judged as it stands and passed on.
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

/** `intercept` when the line must not run, `notice` when it runs with an alarm, or null. */
function verdictOf(policy: CommandPolicy, line: string): Verdict | null {
  if (line.trim() === '') return null;
  const blocked = matchCommand(line, policy.intercept);
  if (blocked) return { action: 'intercept', rule: blocked.rule };
  const noticed = matchCommand(line, policy.notice);
  return noticed ? { action: 'notice', rule: noticed.rule } : null;
}

/** Checks one line and reports an intercept or notice through `onAlarm`. */
export function judge(policy: CommandPolicy, line: string, onAlarm: OnAlarm): Verdict | null {
  const verdict = verdictOf(policy, line);
  if (verdict) onAlarm(verdict.action, clip(line), verdict.rule);
  return verdict;
}

export class CommandFilter {
  private readonly editor = new LineEditor();
  /** The line as the target drew it, and the prompt it showed when typing began (terminal). */
  private readonly screen = new ScreenLine();
  private prompt: string | null = null;
  /** The editor's blind-key count when the target last drew something. */
  private drawnAt = 0;
  /** A UTF-8 character still arriving, in terminal mode. */
  private partial: number[] = [];
  /** The line held back so far, in lines mode. */
  private held: Buffer[] = [];

  constructor(
    private readonly policy: CommandPolicy,
    private readonly mode: 'terminal' | 'lines',
    private readonly onAlarm: OnAlarm,
  ) {}

  input(data: Buffer): FilterResult {
    return this.mode === 'terminal' ? this.terminal(data) : this.lines(data);
  }

  /** The target's output, so a line the keys alone do not tell can be read as drawn. */
  output(data: Buffer): void {
    if (this.mode !== 'terminal') return;
    this.screen.feed(data);
    this.drawnAt = this.editor.blindKeys;
  }

  /** End of input: a held last line without its newline is checked (lines mode). */
  end(): FilterResult {
    const rest = Buffer.concat(this.held);
    this.held = [];
    if (rest.length === 0) return { forward: rest, blocked: null };
    const verdict = judge(this.policy, rest.toString('utf8'), this.onAlarm);
    if (verdict?.action === 'intercept') {
      return {
        forward: Buffer.alloc(0),
        blocked: { command: rest.toString(), rule: verdict.rule },
      };
    }
    return { forward: rest, blocked: null };
  }

  private terminal(data: Buffer): FilterResult {
    for (let i = 0; i < data.length; i++) {
      const byte = data[i]!;
      let ch: string;
      if (this.partial.length > 0 || byte >= 0x80) {
        this.partial.push(byte);
        if (this.partial.length < utf8Length(this.partial[0]!)) continue;
        ch = Buffer.from(this.partial).toString('utf8');
        this.partial = [];
      } else ch = String.fromCharCode(byte);
      this.prompt ??= this.screen.text();
      if ((ch === '\r' || ch === '\n') && this.drawnAt < this.editor.blindKeys) {
        // Enter right after a Tab or history key, before the shell redrew the line: the
        // gateway cannot know what would run. This Enter (and what follows it in the chunk) is
        // held back once; the member presses Enter again once the line is on screen.
        this.drawnAt = this.editor.blindKeys;
        return { forward: data.subarray(0, i), blocked: null };
      }
      const line = this.editor.feed(ch);
      if (!line) continue;
      const { command, verdict } = this.judgeTyped(line);
      if (verdict) this.onAlarm(verdict.action, clip(command), verdict.rule);
      if (verdict?.action === 'intercept') {
        return {
          forward: Buffer.concat([data.subarray(0, i), CTRL_C]),
          blocked: { command, rule: verdict.rule },
        };
      }
    }
    return { forward: data, blocked: null };
  }

  /**
   * The typed line, and for an uncertain one also the line as drawn (what Tab or history made
   * of it): the stricter verdict of the two wins.
   */
  private judgeTyped(line: SubmittedLine): { command: string; verdict: Verdict | null } {
    const prompt = this.prompt ?? '';
    this.prompt = null;
    this.drawnAt = 0;
    const typed = { command: line.text, verdict: verdictOf(this.policy, line.text) };
    if (!line.uncertain || typed.verdict?.action === 'intercept') return typed;
    const drawn = commandOf(this.screen.text(), prompt);
    const seen = verdictOf(this.policy, drawn);
    if (!seen || (typed.verdict && seen.action !== 'intercept')) return typed;
    return { command: drawn, verdict: seen };
  }

  /**
   * Each whole line on its own: a blocked line is left out and the lines after it still run
   * (as a script's would), whatever chunks they arrived in.
   */
  private lines(data: Buffer): FilterResult {
    const out: Buffer[] = [];
    let blocked: Blocked | null = null;
    let from = 0;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, from)) {
      const line = Buffer.concat([...this.held, data.subarray(from, nl + 1)]);
      this.held = [];
      from = nl + 1;
      const text = line.toString('utf8').replace(/\r?\n$/, '');
      const verdict = judge(this.policy, text, this.onAlarm);
      if (verdict?.action !== 'intercept') out.push(line);
      else blocked ??= { command: text, rule: verdict.rule };
    }
    if (from < data.length) this.held.push(data.subarray(from));
    if (this.held.reduce((n, b) => n + b.length, 0) > HOLD_MAX) {
      const rest = this.end();
      out.push(rest.forward);
      blocked ??= rest.blocked;
    }
    return { forward: Buffer.concat(out), blocked };
  }
}
