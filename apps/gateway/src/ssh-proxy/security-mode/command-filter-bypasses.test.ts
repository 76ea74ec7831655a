/**
 * The bypasses a review found in the terminal and line filters, each as the bytes a member's
 * client sends: a line that would run must be judged first. The same attempts through a real
 * bash and dash behind sshd are in the server's security-mode test.
 */
import { describe, expect, it } from 'vitest';
import type { AlarmAction } from '@portcullis/contract';
import { CommandFilter } from './command-filter';

const policy = { intercept: ['rm', 'reboot'], notice: ['whoami'] };
/** What the filter sends in place of a blocked line's key: Ctrl-G, Ctrl-E, Ctrl-U, Ctrl-C. */
const BLOCK = '\x07\x05\x15\x03';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

function make(mode: 'terminal' | 'lines' = 'terminal') {
  const alarms: [AlarmAction, string, string][] = [];
  const filter = new CommandFilter(policy, mode, (...a) => alarms.push(a));
  const send = (keys: string | Buffer) => filter.input(Buffer.from(keys));
  return { filter, alarms, send };
}

describe('CommandFilter in a terminal', () => {
  it('does not let a UTF-8 lead byte swallow the Enter after it', () => {
    const { send } = make();
    const keys = Buffer.concat([
      Buffer.from('rm -f /tmp/v '),
      Buffer.from([0xc2]),
      Buffer.from('\r'),
    ]);
    const res = send(keys);
    expect(res.blocked).toEqual({ command: 'rm -f /tmp/v \ufffd', rule: 'rm' });
    expect(res.forward.toString('latin1')).toBe(`rm -f /tmp/v \xc2${BLOCK}`);
    // A three-byte lead cut short by Enter, and a stray continuation byte, likewise.
    expect(make().send(Buffer.from([0x72, 0x6d, 0x20, 0xe4, 0xb8, 0x0d])).blocked).not.toBeNull();
    expect(make().send(Buffer.from([0x72, 0x6d, 0x20, 0x80, 0x0d])).blocked).not.toBeNull();
  });

  it('judges the line at Ctrl-O (operate-and-get-next), which runs it', () => {
    const { send, alarms } = make();
    const res = send('rm -f /tmp/v\x0f');
    expect(res.forward.toString()).toBe(`rm -f /tmp/v${BLOCK}`);
    expect(alarms).toEqual([['intercept', 'rm -f /tmp/v', 'rm']]);
    // A passing Ctrl-O: bash then puts the next history line there, which the keys do not
    // tell, so an Enter before the shell redraws is held back once.
    const { filter, send: next } = make();
    filter.output(Buffer.from('$ '));
    expect(next('ls\x0f\r').forward.toString()).toBe('ls\x0f');
  });

  it('judges the line before a key only the shell knows, which `bind` may have made accept-line', () => {
    for (const key of ['\x14', '\t', '\x1bx', '\x1b[15~', '\x16']) {
      const { send } = make();
      const res = send(`rm -f /tmp/v${key}`);
      expect(res.blocked, JSON.stringify(key)).toEqual({ command: 'rm -f /tmp/v', rule: 'rm' });
      // The key itself is not sent (an escape sequence's last byte is not), the block keys are.
      expect(res.forward.toString().endsWith(BLOCK), JSON.stringify(key)).toBe(true);
      expect(res.forward.toString()).not.toContain(key.slice(-1) + BLOCK);
    }
    // A notice command runs only at Enter: no alarm for Tab on it.
    const { send, alarms } = make();
    expect(send('whoa\t').blocked).toBeNull();
    expect(alarms).toEqual([]);
  });

  it('judges history keys on the typed text only, so browsing past an old rm is not blocked', () => {
    const { filter, send } = make();
    filter.output(Buffer.from('$ '));
    expect(send('\x1b[A').blocked).toBeNull();
    filter.output(Buffer.from('rm -rf /tmp/old'));
    expect(send('\x1b[A').blocked).toBeNull();
    filter.output(Buffer.from('\r$ ls\x1b[K'));
    // Enter judges the line as drawn, as before.
    filter.output(Buffer.from('\r$ rm -rf /tmp/old\x1b[K'));
    expect(send('\r').blocked?.command).toBe('rm -rf /tmp/old');
    // Typed text is judged at a history key: Up may be rebound to accept-line too.
    expect(make().send('rm x\x1b[A').blocked?.command).toBe('rm x');
  });

  it('judges an Enter after a blocked line with the line still there, until the shell shows it gone', () => {
    const { filter, send } = make();
    filter.output(Buffer.from('$ '));
    expect(send('rm -f /tmp/v\r').blocked).not.toBeNull();
    // `stty intr undef`: Ctrl-C did nothing and the shell has not redrawn: a bare Enter
    // would run the held line.
    expect(send('\r').blocked).toEqual({ command: 'rm -f /tmp/v', rule: 'rm' });
    // readline killed the line (Ctrl-U) and redrew the bare prompt: the next line is new.
    filter.output(Buffer.from('\x07\r$ \x1b[K\x07'));
    expect(send('ls\r')).toEqual({ forward: Buffer.from('ls\r'), blocked: null });
  });

  it('judges an Enter after the member’s own Ctrl-C with the line as a shell ignoring it holds it', () => {
    const { filter, send } = make();
    filter.output(Buffer.from('$ '));
    expect(send('rm -f /tmp/v\x03\r').blocked).toEqual({ command: 'rm -f /tmp/v', rule: 'rm' });
    // With the interrupt working, bash prints a new line: the line is gone.
    const other = make();
    other.filter.output(Buffer.from('$ '));
    expect(other.send('rm -f /tmp/v\x03').blocked).toBeNull();
    other.filter.output(Buffer.from('^C\r\n$ '));
    expect(other.send('ls\r').blocked).toBeNull();
    // Ctrl-C on an empty line changes nothing.
    expect(make().send('\x03ls\r').blocked).toBeNull();
  });

  it('reads every key inside a bracketed paste as text, as readline inserts it', () => {
    const { send } = make();
    expect(send(`${PASTE_START}rm -f /tmp/v \x15${PASTE_END}`).blocked).toBeNull();
    expect(send('\r').blocked?.command).toBe('rm -f /tmp/v \x15');
    for (const edit of ['\x7f\x7f', '\x17', '\x01\x0b', '\x1b[D\x1b[3~']) {
      const res = make().send(`${PASTE_START}rm -f /tmp/v${edit}${PASTE_END}\r`);
      expect(res.blocked?.rule, JSON.stringify(edit)).toBe('rm');
    }
    // A marker that is not the end stays text too.
    expect(make().send(`${PASTE_START}rm x\x1b[201${PASTE_END}\r`).blocked?.rule).toBe('rm');
  });

  it('judges a newline inside a paste, and ends the paste before the block keys', () => {
    const { send } = make();
    const res = send(`${PASTE_START}echo a\nrm -f /tmp/v\necho b\n${PASTE_END}`);
    expect(res.forward.toString()).toBe(`${PASTE_START}echo a\nrm -f /tmp/v${PASTE_END}${BLOCK}`);
    expect(res.blocked?.rule).toBe('rm');
    // readline keeps pasted lines in one buffer: edits reach back across them.
    const other = make();
    expect(other.send(`${PASTE_START}echo a\nm x${PASTE_END}`).blocked).toBeNull();
    expect(other.send('\x1b[D\x1b[D\x1b[Dr\r').blocked?.command).toBe('echo a\nrm x');
  });

  it('judges a Ctrl-C inside a paste both ways: an interrupt, or (intr undefined) text', () => {
    // Interrupted: the rest of the paste is typed keys, and its newline runs a line.
    const res = make().send(`${PASTE_START}ls\x03rm x\n`);
    expect(res.blocked?.command).toBe('rm x');
    // Not interrupted: readline pastes the Ctrl-C as text, and the line runs at Enter.
    const pasted = make().send(`${PASTE_START}rm x\x03${PASTE_END}\r`);
    expect(pasted.blocked?.command).toBe('rm x\x03');
  });

  it('joins a line the shell continues (backslash, open quote) with the next', () => {
    const { send } = make();
    expect(send('r\\\r').blocked).toBeNull();
    expect(send('m -f /tmp/v\r').blocked).toEqual({ command: 'r\\\nm -f /tmp/v', rule: 'rm' });
    const quoted = make();
    expect(quoted.send("echo 'a\r").blocked).toBeNull();
    expect(quoted.send("'; rm x\r").blocked?.rule).toBe('rm');
    // A complete line starts afresh.
    const done = make();
    expect(done.send('echo a\\\\\r').blocked).toBeNull();
    expect(done.send('m x\r').blocked).toBeNull();
  });

  it('reads Ctrl-D on a non-empty line as dash in canonical mode does: the text is handed over', () => {
    const { send } = make();
    const res = send('rm -f /tmp/v \x04\x15\r');
    expect(res.forward.toString()).toBe(`rm -f /tmp/v ${BLOCK}`);
    // Handed over, `r` stays in the line whatever Ctrl-U does after.
    expect(make().send('r\x04\x15m -f /tmp/v\r').blocked?.command).toBe('rm -f /tmp/v');
    // readline's reading (Ctrl-D deletes under the cursor) is still judged too.
    expect(make().send('rmm x\x01\x06\x06\x04\r').blocked?.command).toBe('rm x');
  });

  it('does not let a broken escape sequence swallow the Enter', () => {
    for (const keys of ['rm x\x1b[\r', 'rm x\x1b[1;\n', 'rm x\x1bO\r']) {
      const { filter, send } = make();
      // Held back as after any key only the shell knows; judged once the shell redrew.
      const res = send(keys);
      expect(res.forward.toString(), JSON.stringify(keys)).toBe(keys.slice(0, -1));
      filter.output(Buffer.from('\x07'));
      expect(send('\r').blocked?.command, JSON.stringify(keys)).toBe('rm x');
    }
  });
});

describe('CommandFilter without a pty', () => {
  it('holds a line that continues and judges the command whole; a blocked one is left out whole', () => {
    const { send } = make('lines');
    expect(send('r\\\n').forward.length).toBe(0);
    expect(send('m -f /tmp/v\necho ok\n')).toEqual({
      forward: Buffer.from('echo ok\n'),
      blocked: { command: 'r\\\nm -f /tmp/v', rule: 'rm' },
    });
    const quoted = make('lines').send("echo 'a\n'; rm x\necho ok\n");
    expect(quoted.forward.toString()).toBe('echo ok\n');
  });

  it('reads a quote inside backquotes as bash does, so it does not hide a joined command', () => {
    // `echo '` runs in the substitution; the backslash-newline after it joins `rm x`.
    const res = make('lines').send("echo `echo '`; r\\\nm x\necho ok\n");
    expect(res.forward.toString()).toBe('echo ok\n');
    expect(res.blocked).toEqual({ command: "echo `echo '`; r\\\nm x", rule: 'rm' });
  });

  it('follows a here-document, so a quote in its body does not hide the command after it', () => {
    const res = make('lines').send("cat <<EOF\nit's\nEOF\nrm x\necho ok\n");
    expect(res.forward.toString()).toBe("cat <<EOF\nit's\nEOF\necho ok\n");
    expect(res.blocked?.command).toBe('rm x');
    // Its body into a shell is command lines: judged line by line.
    const shell = make('lines').send('bash <<EOF\nrm x\nEOF\necho ok\n');
    expect(shell.forward.toString()).toBe('echo ok\n');
  });
});
