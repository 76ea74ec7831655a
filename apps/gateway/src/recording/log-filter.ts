/**
 * A cluster's log filters (spec 2 §3, operator 'contains') applied to what the gateway stores:
 * a line of a terminal recording that contains a condition (case-insensitive substring) is
 * stored as {@link LOG_FILTER_HIDDEN}.line instead of its text. The live session is never
 * changed; only the recording is.
 *
 * Matching reads the line with its escape sequences and control characters taken out, so
 * colour codes inside or around a condition do not keep it from matching (`secret-\x1b[1mtoken`
 * matches `secret-token`); what is stored for a hidden line keeps its CSI sequences (colours, modes,
 * cursor moves: no text) and carriage returns, so playback's terminal state stays right.
 *
 * A line is held back until it ends (output at \n; input at \r or \n, Enter being \r), at
 * most {@link HOLD_MS} or {@link HOLD_MAX_CHARS}; then what is held is checked and written
 * on its own, except an ending that could be the start of a condition (`echo secret-to` while
 * `secret-token` is being typed), which waits for the rest, at most {@link KEEP_MS}. The part
 * of the line written so far is remembered (its last characters, enough for any condition),
 * so a condition split across a release still hides the rest of the line, but the part
 * already written stays. Limits: a condition drawn with cursor movement, erased and retyped
 * with Backspace, or split by the terminal's own line wrapping is not seen.
 */
import { LOG_FILTER_HIDDEN } from '@portcullis/contract';

/** How long a partial line (a prompt, a password being typed) is held before it is checked. */
export const HOLD_MS = 400;
/** The most of a partial line held; beyond it, what is held is checked and written. */
export const HOLD_MAX_CHARS = 4096;
/**
 * How long the start of a possible condition, at the end of a partial line, waits for more
 * (it goes out at the first hold's end after that).
 */
export const KEEP_MS = 3000;
/** How far back from a partial line's end a condition's start is looked for (raw characters). */
const KEEP_SCAN_MAX = 1024;

/* eslint-disable no-control-regex -- terminal escape sequences and control bytes are the point */
/**
 * CSI sequences (`ESC [ params intermediates final`), then other two-byte escapes (charset
 * designations `ESC ( B`, `ESC 7`, `ESC =`, …). OSC, DCS, APC, PM and SOS (`ESC ] P _ ^ X`)
 * lose only their introducer: a window title's text is text, and is matched.
 */
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[ -/]+[0-~]|[0-OQ-WYZ\\`-~])/g;
/** C0 controls and DEL, but tab, CR and LF (CR and LF are line breaks, never in a condition). */
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
/** What a hidden line keeps: CSI sequences and carriage returns. */
const KEPT = /\x1b\[[0-?]*[ -/]*[@-~]|\r/g;
/* eslint-enable no-control-regex */
const TRAILING_CR = /\r*$/;

/** A line as it is matched: no escape sequences or controls, lower case. */
export function matchText(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '').toLowerCase();
}

/** The cluster's conditions, ready to match; undefined when there are none. */
export interface LogFilterMatcher {
  /** Whether `text` (already through {@link matchText}) contains a condition. */
  matches(text: string): boolean;
  /** Whether `text` (raw) contains a condition. */
  hides(text: string): boolean;
  /**
   * How many characters at the end of `text` (raw) could be the start of a condition: the
   * longest ending that a condition begins with; 0 when none.
   */
  startAtEnd(text: string): number;
  /** The longest condition's length less one: the most of one that a flush can split off. */
  readonly overlap: number;
}

export function logFilterMatcher(
  conditions: readonly string[] | undefined,
): LogFilterMatcher | undefined {
  // A condition is one line's text: one with a line break in it could never match a line.
  const needles = [
    ...new Set(
      (conditions ?? [])
        .filter((c) => !/[\r\n]/.test(c))
        .map((c) => matchText(c.trim()))
        .filter((c) => c.length > 0),
    ),
  ];
  if (needles.length === 0) return undefined;
  const matches = (text: string): boolean => needles.some((n) => text.includes(n));
  const overlap = Math.max(...needles.map((n) => n.length)) - 1;
  const firsts = new Set(needles.map((n) => n[0]));
  return {
    matches,
    hides: (text) => matches(matchText(text)),
    startAtEnd(text) {
      // Every raw ending, shortest first, until it is as long as a condition as matched; a
      // longer one may begin a condition when a shorter one does not, so all are tried. One
      // that starts with an escape or a control matches as a shorter one did: skipped, as is
      // one whose first character begins no condition.
      let longest = 0;
      const stop = Math.max(0, text.length - KEEP_SCAN_MAX);
      for (let i = text.length - 1; i >= stop; i--) {
        if (!firsts.has(text[i]!.toLowerCase()[0])) continue;
        const end = matchText(text.slice(i));
        if (end.length > overlap) break;
        const begins = (n: string) => n.length > end.length && n.startsWith(end);
        if (end.length > 0 && needles.some(begins)) longest = text.length - i;
      }
      return longest;
    },
    overlap,
  };
}

/** `text` itself, or the placeholder when a log filter matches it (alarm commands, file names). */
export function hideMatch(
  matcher: LogFilterMatcher | undefined,
  text: string,
  placeholder: string,
): string {
  return matcher?.hides(text) ? placeholder : text;
}

export interface LineFilter {
  /** Takes decoded text; writes what may be stored now (checked lines) through `write`. */
  push(text: string): void;
  /** Checks and writes what is held (the stream ended, or the recording closes). */
  end(): void;
  /**
   * What {@link end} would write now, without writing it or changing anything: the held
   * partial line as it would be stored (the placeholder when it completes a condition).
   */
  pending(): string;
}

export interface LineFilterOptions {
  /** Where a line ends: output at \n; input at \r or \n (Enter sends \r). */
  breaks: 'output' | 'input';
  write(text: string): void;
  holdMs?: number;
  holdMaxChars?: number;
}

/** One stream's line filter (a channel's output, or its input). */
export function createLineFilter(
  matcher: LogFilterMatcher,
  options: LineFilterOptions,
): LineFilter {
  const { write, holdMs = HOLD_MS, holdMaxChars = HOLD_MAX_CHARS } = options;
  const lineBreak = options.breaks === 'input' ? /[\r\n]/g : /\n/g;
  const lastBreak =
    options.breaks === 'input'
      ? (text: string) => Math.max(text.lastIndexOf('\r'), text.lastIndexOf('\n'))
      : (text: string) => text.lastIndexOf('\n');
  /** The current line's partial text, not yet checked. */
  let held = '';
  let timer: NodeJS.Timeout | undefined;
  /** The end of the current line's part already written, as matched. */
  let tail = '';
  /** The current line is already stored as the placeholder: the rest of it is hidden too. */
  let hidden = false;
  /** Since when the held text's end has been kept back as a possible condition's start. */
  let keptSince: number | undefined;

  /** One piece of the current line (no line break in it), as it is stored. */
  const piece = (text: string): string => {
    if (hidden) return text.match(KEPT)?.join('') ?? '';
    const seen = tail + matchText(text);
    if (matcher.matches(seen)) {
      hidden = true;
      // Before a trailing CR, so that the line break after it starts the next line at col 0.
      const cr = TRAILING_CR.exec(text)!;
      const kept = text.slice(0, cr.index).match(KEPT)?.join('') ?? '';
      return kept + LOG_FILTER_HIDDEN.line + cr[0];
    }
    tail = matcher.overlap > 0 ? seen.slice(-matcher.overlap) : '';
    return text;
  };

  /** Whole lines, each ending in a line break. */
  const lines = (text: string): string => {
    // Most output matches nothing: one look at the whole block (a condition never spans a
    // line break, and the tail only joins the first line).
    if (!hidden && !matcher.matches(tail + matchText(text))) {
      tail = '';
      return text;
    }
    let out = '';
    let start = 0;
    lineBreak.lastIndex = 0;
    for (let m = lineBreak.exec(text); m; m = lineBreak.exec(text)) {
      out += piece(text.slice(start, m.index)) + m[0];
      start = m.index + 1;
      tail = '';
      hidden = false;
    }
    return out;
  };

  /**
   * Checks what is held and returns it as stored, but for an ending that may start a
   * condition (kept held, at most KEEP_MS), unless `all`.
   */
  const release = (all: boolean): string => {
    const now = Date.now();
    const waited = keptSince !== undefined && now - keptSince >= KEEP_MS;
    // A condition already whole in it: nothing to wait for, the piece is hidden.
    const whole = hidden || matcher.matches(tail + matchText(held));
    const keep = all || whole || waited ? 0 : matcher.startAtEnd(held);
    const text = held.slice(0, held.length - keep);
    held = held.slice(held.length - keep);
    keptSince = keep > 0 ? (keptSince ?? now) : undefined;
    return text.length > 0 ? piece(text) : '';
  };
  const onHoldEnd = (): void => {
    timer = undefined;
    const out = release(false);
    if (out.length > 0) write(out);
    if (held.length > 0) timer = setTimeout(onHoldEnd, holdMs);
  };

  return {
    push(text) {
      if (text.length === 0) return;
      held += text;
      let out = '';
      const last = lastBreak(held);
      if (last >= 0) {
        out = lines(held.slice(0, last + 1));
        held = held.slice(last + 1);
        // The partial line is a new one: it gets its own full hold.
        clearTimeout(timer);
        timer = undefined;
        keptSince = undefined;
      }
      if (held.length >= holdMaxChars) out += release(false);
      if (out.length > 0) write(out);
      if (held.length > 0) timer ??= setTimeout(onHoldEnd, holdMs);
      else {
        clearTimeout(timer);
        timer = undefined;
      }
    },
    end() {
      clearTimeout(timer);
      timer = undefined;
      const out = release(true);
      if (out.length > 0) write(out);
    },
    pending() {
      if (held.length === 0) return '';
      const state = { tail, hidden };
      const out = piece(held);
      ({ tail, hidden } = state);
      return out;
    },
  };
}
