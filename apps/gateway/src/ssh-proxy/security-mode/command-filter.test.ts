/**
 * Line reconstruction from keystrokes and what the filter forwards: typed input with
 * Backspace, Ctrl-U, Ctrl-W, cursor motion and pastes, in a pty (terminal) and without one
 * (lines). The end-to-end runs through the real sshd are in the server's security-mode test.
 */
import { describe, expect, it } from 'vitest';
import type { AlarmAction } from '@portcullis/contract';
import { blockedNotice, CommandFilter } from './command-filter';
import { LineEditor } from './line-editor';

const policy = { intercept: ['rm', 'reboot'], notice: ['whoami'] };
/** What the filter sends in place of a blocked line's Enter: Ctrl-G, Ctrl-E, Ctrl-U, Ctrl-C. */
const BLOCK = '\x07\x05\x15\x03';

function typed(keys: string): { text: string; uncertain: boolean } {
  const editor = new LineEditor();
  for (const ch of keys) {
    if (editor.feed(ch) === 'submit') return { text: editor.text, uncertain: editor.uncertain };
  }
  throw new Error('no Enter');
}

describe('LineEditor', () => {
  it.each([
    ['rm x\r', 'rm x'],
    ['rx\x7fm x\r', 'rm x'],
    ['ls -l\x15rm x\r', 'rm x'],
    ['echo hi rm\x17\x17\x17rm x\r', 'rm x'],
    ['m x\x1b[D\x1b[D\x1b[Dr\r', 'rm x'],
    ['m x\x01r\r', 'rm x'],
    ['rm x\x01\x06\x06\x0b\x05 y\r', 'rm y'],
    ['rmm x\x1b[D\x1b[D\x1b[D\x1b[3~\r', 'rm x'],
    ['\x1b[200~rm x\x1b[201~\r', 'rm x'],
    ['ls\x03rm x\r', 'rm x'],
    ['ls 中文\r', 'ls 中文'],
  ])('rebuilds %j as %j', (keys, line) => {
    expect(typed(keys)).toEqual({ text: line, uncertain: false });
  });

  it('marks lines the shell may have changed (completion, history, word motions) uncertain', () => {
    expect(typed('r\tx\r').uncertain).toBe(true);
    expect(typed('\x1b[A\r').uncertain).toBe(true);
    expect(typed('\x12rm\r').uncertain).toBe(true);
    expect(typed('ls\x1bb\r').uncertain).toBe(true);
    expect(typed('ls\x1b[1;5D\r').uncertain).toBe(true);
    expect(typed('rm x\r').uncertain).toBe(false);
  });
});

describe('CommandFilter', () => {
  const make = (mode: 'terminal' | 'lines') => {
    const alarms: [AlarmAction, string, string][] = [];
    const filter = new CommandFilter(policy, mode, (...a) => alarms.push(a));
    return { filter, alarms };
  };

  it('in a terminal, forwards keys as typed and swaps a blocked line’s Enter for the block keys', () => {
    const { filter, alarms } = make('terminal');
    expect(filter.input(Buffer.from('r')).forward.toString()).toBe('r');
    expect(filter.input(Buffer.from('m -rf /')).forward.toString()).toBe('m -rf /');
    const res = filter.input(Buffer.from('\r'));
    expect(res.forward.toString()).toBe(BLOCK);
    expect(res.blocked).toEqual({ command: 'rm -rf /', rule: 'rm' });
    expect(alarms).toEqual([['intercept', 'rm -rf /', 'rm']]);
    // Once the shell shows it dropped the line, the next line is judged afresh.
    filter.output(Buffer.from('^C\r\n$ '));
    expect(filter.input(Buffer.from('ls\r'))).toEqual({
      forward: Buffer.from('ls\r'),
      blocked: null,
    });
  });

  it('reads a line edited by Tab or history as the target drew it', () => {
    const { filter, alarms } = make('terminal');
    filter.output(Buffer.from('me@box:~$ '));
    // Tab completed `reb` to `reboot`: the keys alone say `reb`.
    filter.input(Buffer.from('reb\t'));
    filter.output(Buffer.from('reboot '));
    const res = filter.input(Buffer.from('\r'));
    expect(res.blocked).toEqual({ command: 'reboot', rule: 'reboot' });
    expect(alarms).toEqual([['intercept', 'reboot', 'reboot']]);
    // Up recalled a line: the keys say nothing at all.
    filter.output(Buffer.from('^C\r\nme@box:~$ '));
    filter.input(Buffer.from('\x1b[A'));
    filter.output(Buffer.from('rm -rf /tmp/x'));
    expect(filter.input(Buffer.from('\r')).blocked?.command).toBe('rm -rf /tmp/x');
    // Up and Enter at once, before the shell could redraw: the Enter is held back, once.
    filter.output(Buffer.from('^C\r\nme@box:~$ '));
    expect(filter.input(Buffer.from('\x1b[A\rls\r')).forward.toString()).toBe('\x1b[A');
    filter.output(Buffer.from('rm -rf /tmp/x'));
    expect(filter.input(Buffer.from('\r')).blocked?.command).toBe('rm -rf /tmp/x');
    // A key that draws nothing does not hold the member up more than once.
    filter.output(Buffer.from('^C\r\nme@box:~$ '));
    expect(filter.input(Buffer.from('ls\x1bb\r')).forward.toString()).toBe('ls\x1bb');
    expect(filter.input(Buffer.from('\r')).forward.toString()).toBe('\r');
    // A certain line is judged by its keys only (the echo may lag behind fast typing).
    filter.output(Buffer.from('^C\r\nme@box:~$ '));
    filter.output(Buffer.from('rm x'));
    expect(filter.input(Buffer.from('ls\r')).blocked).toBeNull();
  });

  it('drops the rest of a paste after a blocked line', () => {
    const { filter } = make('terminal');
    const res = filter.input(Buffer.from('ls\rrm x\rreboot\rid\r'));
    expect(res.forward.toString()).toBe(`ls\rrm x${BLOCK}`);
    expect(res.blocked?.command).toBe('rm x');
  });

  it('lets a notice command run and raises its alarm', () => {
    const { filter, alarms } = make('terminal');
    expect(filter.input(Buffer.from('whoami\r')).forward.toString()).toBe('whoami\r');
    expect(alarms).toEqual([['notice', 'whoami', 'whoami']]);
  });

  it('keeps a UTF-8 character split across chunks whole', () => {
    const { filter } = make('terminal');
    const bytes = Buffer.from('echo 中\r');
    expect(filter.input(bytes.subarray(0, 6)).forward).toEqual(bytes.subarray(0, 6));
    expect(filter.input(bytes.subarray(6)).blocked).toBeNull();
  });

  it('without a pty, sends only checked whole lines (leaving a blocked one out), and checks the last line at the end', () => {
    const { filter } = make('lines');
    expect(filter.input(Buffer.from('echo a\nech')).forward.toString()).toBe('echo a\n');
    expect(filter.input(Buffer.from('o b\nrm x\necho c\n'))).toEqual({
      forward: Buffer.from('echo b\necho c\n'),
      blocked: { command: 'rm x', rule: 'rm' },
    });
    filter.input(Buffer.from('reboot'));
    expect(filter.end()).toEqual({
      forward: Buffer.alloc(0),
      blocked: { command: 'reboot', rule: 'reboot' },
    });
  });

  it('passes a held line on once it outgrows the hold (data, not a typed command)', () => {
    const { filter } = make('lines');
    expect(filter.input(Buffer.alloc(512 * 1024, 0x61)).forward.length).toBe(0);
    expect(filter.input(Buffer.alloc(600 * 1024, 0x61)).forward.length).toBe(1112 * 1024);
    expect(filter.input(Buffer.from('b\n')).forward.toString()).toBe('b\n');
  });

  it('tells the member why, in English and Chinese, without echoing control characters', () => {
    const text = blockedNotice({ command: 'rm\x1b[2J x', rule: 'rm' });
    expect(text).toContain('security mode blocked this command: "rm[2J x"');
    expect(text).toContain('拦截');
    expect(text).not.toContain('\x1b');
  });
});
