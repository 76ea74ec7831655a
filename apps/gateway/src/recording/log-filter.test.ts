// The log filter on its own (log-filter.ts), then through the recorder to the spool. The
// end-to-end path (a filter set through the API, a real sshd session, the stored recording)
// is apps/server/.../sessions/log-filter.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOG_FILTER_HIDDEN } from '@portcullis/contract';
import { silentLogger } from '../core/logger';
import {
  createLineFilter,
  hideMatch,
  HOLD_MS,
  KEEP_MS,
  logFilterMatcher,
  matchText,
  type LineFilterOptions,
} from './log-filter';
import { createSessionRecorder } from './recorder';

const HIDDEN = LOG_FILTER_HIDDEN.line;

/** A filter for `secret-token` (and `hunter2`); returns what it wrote so far, joined. */
function filter(
  breaks: LineFilterOptions['breaks'] = 'output',
  options: Partial<LineFilterOptions> = {},
) {
  const writes: string[] = [];
  const matcher = logFilterMatcher(['Secret-Token', 'hunter2'])!;
  const f = createLineFilter(matcher, { breaks, write: (t) => writes.push(t), ...options });
  return { f, writes, stored: () => writes.join('') };
}

describe('log filter matching', () => {
  it('has nothing to do without conditions, and ignores blank ones', () => {
    expect(logFilterMatcher(undefined)).toBeUndefined();
    expect(logFilterMatcher([])).toBeUndefined();
    expect(logFilterMatcher(['  ', '', 'two\nlines'])).toBeUndefined();
  });

  it('matches a case-insensitive substring, with escape sequences and controls taken out', () => {
    const m = logFilterMatcher(['secret-token'])!;
    expect(m.hides('cat SECRET-TOKEN.txt')).toBe(true);
    expect(m.hides('secret-\x1b[1;31mtoken\x1b[0m')).toBe(true);
    expect(m.hides('secret\x07-token')).toBe(true);
    // A window title's text is text.
    expect(m.hides('\x1b]0;user@host: ~/secret-token\x07$ ')).toBe(true);
    expect(m.hides('secret token')).toBe(false);
    expect(matchText('\x1b(B\x1b7A\x1b[?1049hb\x1b8')).toBe('ab');
  });

  it('finds the start of a condition at the end of a partial line', () => {
    const m = logFilterMatcher(['secret-token', 'ssh-key'])!;
    expect(m.startAtEnd('echo \x1b[1mSecret-to')).toBe('Secret-to'.length);
    expect(m.startAtEnd('echo s')).toBe(1);
    expect(m.startAtEnd('echo ssh-')).toBe(4);
    expect(m.startAtEnd('echo secret-tax')).toBe(0);
    // A whole condition is a match, not a start.
    expect(m.startAtEnd('ssh-key')).toBe(0);
  });

  it('hides an alarm command or a file name that matches, and only those', () => {
    const m = logFilterMatcher(['secret-token']);
    expect(hideMatch(m, 'curl -H "x: secret-token"', 'hidden')).toBe('hidden');
    expect(hideMatch(m, 'ls', 'hidden')).toBe('ls');
    expect(hideMatch(undefined, 'secret-token', 'hidden')).toBe('secret-token');
  });
});

describe('the line filter', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('stores a matching line as the placeholder, with its CRLF, and the others as they were', () => {
    const { f, stored } = filter();
    f.push('one\r\nthe secret-token is here\r\nthree\r\n');
    expect(stored()).toBe(`one\r\n${HIDDEN}\r\nthree\r\n`);
  });

  it('holds a line split mid-line and mid-condition until it ends', () => {
    const { f, writes, stored } = filter();
    f.push('before\r\nthe sec');
    expect(stored()).toBe('before\r\n');
    f.push('ret-to');
    f.push('ken! and more');
    expect(writes).toHaveLength(1);
    f.push('\r\nafter\r\n');
    expect(stored()).toBe(`before\r\n${HIDDEN}\r\nafter\r\n`);
  });

  it('keeps colour codes (not text) of a hidden line, so playback colours stay right', () => {
    const { f, stored } = filter();
    f.push('\x1b[31mERROR secret-\x1b[1mtoken\x1b[0m\r\nok\r\n');
    expect(stored()).toBe(`\x1b[31m\x1b[1m\x1b[0m${HIDDEN}\r\nok\r\n`);
  });

  it('writes a partial line after the hold, checked, at the time it is written', () => {
    const { f, writes } = filter();
    f.push('Password: ');
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['Password: ']);
    f.push('hunter2');
    vi.advanceTimersByTime(HOLD_MS);
    expect(writes).toEqual(['Password: ', HIDDEN]);
    // The rest of that line stays hidden; the next line does not.
    f.push('\r\n$ ls\r\n');
    expect(writes.join('')).toBe(`Password: ${HIDDEN}\r\n$ ls\r\n`);
  });

  it('keeps back the start of a condition being typed, so the whole of it is hidden', () => {
    const { f, writes, stored } = filter('input');
    for (const key of 'echo secret-to') {
      f.push(key);
      vi.advanceTimersByTime(150); // typed slower than the hold
    }
    expect(writes.join('')).toBe('echo ');
    for (const key of 'ken; ls\r') {
      f.push(key);
      vi.advanceTimersByTime(150);
    }
    expect(stored()).toBe(`echo ${HIDDEN}\r`);
    // An ending that stops looking like a condition goes out with the next release.
    f.push('cat secret-tax');
    vi.advanceTimersByTime(HOLD_MS);
    expect(writes.at(-1)).toBe('cat secret-tax');
  });

  it('keeps a possible start back at most KEEP_MS; the rest of the line is still hidden', () => {
    const { f, writes, stored } = filter();
    f.push('echo secret-');
    vi.advanceTimersByTime(HOLD_MS);
    expect(writes).toEqual(['echo ']);
    vi.advanceTimersByTime(KEEP_MS - 1);
    expect(writes).toEqual(['echo ']);
    vi.advanceTimersByTime(HOLD_MS); // the next hold's end after KEEP_MS
    expect(writes).toEqual(['echo ', 'secret-']);
    f.push('token; echo done\r\n');
    expect(stored()).toBe(`echo secret-${HIDDEN}\r\n`);
  });

  it('checks a long line without a break in pieces at the size cap', () => {
    const { f, writes } = filter('output', { holdMaxChars: 16 });
    f.push('a'.repeat(20));
    expect(writes).toEqual(['a'.repeat(20)]);
    f.push('hunt');
    f.push('er2 in a long run');
    expect(writes).toEqual(['a'.repeat(20), HIDDEN]);
    // A condition's start at the cap waits for the rest of it.
    f.push('\r\nbbbbbbbbbsecret-');
    expect(writes.at(-1)).toBe('\r\nbbbbbbbbb');
    f.push('token yy\r\nnext\r\n');
    expect(writes.join('')).toBe(`${'a'.repeat(20)}${HIDDEN}\r\nbbbbbbbbb${HIDDEN}\r\nnext\r\n`);
  });

  it('splits input at Enter (CR) and LF, keystroke by keystroke', () => {
    const { f, stored } = filter('input');
    for (const key of 'ls\recho SECRET-TOKEN\r') f.push(key);
    f.push('pwd\n');
    expect(stored()).toBe(`ls\r${HIDDEN}\rpwd\n`);
  });

  it('tells what it holds as it would be stored, without writing or changing it', () => {
    const { f, stored } = filter('input');
    f.push('cat secret-tok');
    expect(f.pending()).toBe('cat secret-tok');
    f.push('en');
    // Whole now: stored as the placeholder, and asking twice changes nothing.
    expect(f.pending()).toBe(HIDDEN);
    expect(f.pending()).toBe(HIDDEN);
    expect(stored()).toBe('');
    f.push(' more\r');
    expect(stored()).toBe(`${HIDDEN}\r`);
    expect(f.pending()).toBe('');
  });

  it('releases what it holds when the stream ends', () => {
    const { f, stored } = filter();
    f.push('$ ');
    f.end();
    expect(stored()).toBe('$ ');
    const hidden = filter();
    hidden.f.push('$ cat secret-token');
    hidden.f.end();
    expect(hidden.stored()).toBe(HIDDEN);
    vi.advanceTimersByTime(HOLD_MS);
    expect(hidden.writes).toHaveLength(1);
  });
});

describe('the recorder with log filters', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('spools placeholders for matching lines and releases held text on close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-logfilter-'));
    dirs.push(dir);
    const recorder = createSessionRecorder(
      dir,
      1,
      silentLogger,
      () => undefined,
      undefined,
      logFilterMatcher(['secret-token']),
    );
    const tap = recorder.channel({ cols: 80, rows: 24 }, { input: true });
    tap.input(Buffer.from('cat secret-token.txt\r'));
    tap.output(Buffer.from('cat secret-token.txt\r\nvalue 42\r\n$ '));
    tap.resize(100, 30);
    await recorder.close(); // the channel never ended: the prompt is released here
    const lines = fs.readFileSync(path.join(dir, '1.cast'), 'utf8').trimEnd().split('\n');
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.map((e) => [e[1], e[2]])).toEqual([
      ['i', `${HIDDEN}\r`],
      ['o', `${HIDDEN}\r\nvalue 42\r\n`],
      ['r', '100x30'],
      ['o', '$ '],
    ]);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]![0]).toBeGreaterThanOrEqual(events[i - 1]![0]);
    }
    expect(lines.join('\n')).not.toContain('secret-token');
  });
});
