/**
 * When the shell reads another line before running a command (its PS2 prompt), and when a
 * command run as an exec is one plain scp, the file transfer that security mode lets through.
 */
import { describe, expect, it } from 'vitest';
import { scpDirection } from '../file-log/scp';
import { continues } from './continuation';
import { matchCommand } from './command-match';
import { isPlainCommand, joinContinuations } from './shell-syntax';

describe('continues', () => {
  it.each([
    'r\\',
    "echo 'a",
    'echo "a',
    'echo `ls',
    "echo $'it\\'s",
    'cat <<EOF',
    'cat <<-EOF\nbody',
    "cat <<'EOF'\nbody",
    'cat <<A <<B\nx\nA',
    'echo "a\nb\\',
  ])('goes on after %j', (text) => {
    expect(continues(text)).toBe(true);
  });

  it.each([
    'ls',
    'echo a\\\\',
    "echo 'a\nb'",
    "cat <<EOF\nit's\nEOF",
    'cat <<-EOF\n\tx\n\tEOF',
    "cat <<< 'x'",
    "echo hi # don't",
    "echo $'it\\'s'",
  ])('ends at %j', (text) => {
    expect(continues(text)).toBe(false);
  });
});

describe('backquotes, read as bash reads them', () => {
  // Bash reads a backquote to the next unescaped one (quotes inside do not hide it), and
  // nests one inside double quotes; `bash -n` agrees with each case. (Dash lets a quote
  // inside backquotes run on: `echo \`echo '\`` goes on there.)
  it.each(['echo `ls', 'echo "a `echo b', 'echo `echo r\\'])('goes on after %j', (text) => {
    expect(continues(text)).toBe(true);
  });

  it.each([
    "echo `echo '`",
    'echo `echo "` x',
    'echo "a `echo "b"` c"',
    'echo "a `b" c` d"',
    'echo `a\\`b` c',
  ])('ends at %j', (text) => {
    expect(continues(text)).toBe(false);
  });

  it('joins a backslash-newline after a quote inside backquotes, as the continuation did', () => {
    const line = "echo `echo '`; r\\\nm x";
    expect(continues(line.split('\n')[0]!)).toBe(true);
    expect(joinContinuations(line)).toBe("echo `echo '`; rm x");
    expect(matchCommand(line, ['rm'])).toEqual({ rule: 'rm' });
  });
});

describe('scp as a file transfer', () => {
  it('is one plain scp -t or -f, which is neither filtered nor recorded', () => {
    expect(scpDirection('scp -t /tmp/x')).toBe('upload');
    expect(scpDirection("scp -f '/var/log/my file'")).toBe('download');
    expect(scpDirection('scp -r -d -t -- /tmp/*.d')).toBe('upload');
    expect(scpDirection('/usr/bin/scp -f x')).toBe('download');
  });

  it('is not a line that does more than scp, which is an exec like any other', () => {
    for (const command of [
      'scp 2>/dev/null; exec bash -i',
      'scp -t x; bash',
      'scp -t x && bash',
      'scp -t x | bash',
      'scp -t $(bash)',
      'scp -t "`bash`"',
      'scp -t x\nbash',
      'scp -t x > /tmp/y',
      'scp -h; bash',
      '~/bin/scp -t x',
      './scp -t x',
      'scp -t x \\',
    ]) {
      expect(scpDirection(command), JSON.stringify(command)).toBeNull();
    }
  });

  it('tells plain command lines', () => {
    expect(isPlainCommand("scp -t 'a;b'")).toBe(true);
    expect(isPlainCommand('scp -t a\\;b')).toBe(true);
    expect(isPlainCommand('scp -t "$HOME"')).toBe(false);
    expect(isPlainCommand("scp -t 'open")).toBe(false);
  });
});
