/**
 * The drawn line: what bash's readline sends back for typing, Backspace, Tab completion and
 * history recall (the byte sequences below are its own, as seen through a pty).
 */
import { describe, expect, it } from 'vitest';
import { commandOf, ScreenLine } from './screen-line';

const drawn = (...chunks: string[]): string => {
  const screen = new ScreenLine();
  for (const chunk of chunks) screen.feed(Buffer.from(chunk));
  return screen.text();
};

describe('ScreenLine', () => {
  it('follows echo, Backspace, erase, cursor moves and a new line', () => {
    expect(drawn('old output\r\n', 'me@box:~$ ', 'rx', '\b \b', 'm x')).toBe('me@box:~$ rm x');
    expect(drawn('me@box:~$ ls -l', '\b\b\b\b\b\x1b[K', 'rm x')).toBe('me@box:~$ rm x');
    expect(drawn('$ m x', '\x1b[3D', '\x1b[1@r')).toBe('$ rm x');
    expect(drawn('$ rmm x', '\x1b[4D', '\x1b[P')).toBe('$ rm x');
  });

  it('shows history recall and completion as the shell redrew them', () => {
    // Up: readline moves back over the old text and rewrites it, erasing what is left.
    expect(drawn('$ echo hello', '\r$ rm -rf /tmp/x\x1b[K')).toBe('$ rm -rf /tmp/x');
    // Tab: the completion is echoed after the typed prefix.
    expect(drawn('$ trunc', 'ate ', '-s 0 f')).toBe('$ truncate -s 0 f');
  });

  it('skips window-title OSC sequences and colours in prompts', () => {
    expect(drawn('\x1b]0;me@box: ~\x07\x1b[01;32mme@box\x1b[00m:~$ rm x')).toBe('me@box:~$ rm x');
  });

  it('keeps a UTF-8 character split across chunks whole', () => {
    const bytes = Buffer.from('$ echo 中文');
    const screen = new ScreenLine();
    screen.feed(bytes.subarray(0, 9));
    screen.feed(bytes.subarray(9));
    expect(screen.text()).toBe('$ echo 中文');
  });
});

describe('commandOf', () => {
  it('takes the prompt off, or falls back to the first usual prompt end', () => {
    expect(commandOf('me@box:~$ rm x', 'me@box:~$ ')).toBe('rm x');
    expect(commandOf('me@box:/tmp$ rm x > y', 'me@box:~$ ')).toBe('rm x > y');
    expect(commandOf('root@box:~# reboot', '')).toBe('reboot');
    expect(commandOf('rm x', '')).toBe('rm x');
  });
});
