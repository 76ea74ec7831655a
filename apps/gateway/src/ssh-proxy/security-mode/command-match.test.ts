/**
 * The line checks of security mode, and the bypass attempts we know of: which the parser
 * catches, and which a line-based filter cannot see (documented in the README's "Security
 * mode limits"; asserted here so a change in either direction is noticed).
 */
import { describe, expect, it } from 'vitest';
import { matchCommand, readsCommands } from './command-match';

const RULES = ['rm', 'reboot', 'shutdown', 'chmod 777', 'dd if=/dev/zero'];
const caught = (line: string) => matchCommand(line, RULES)?.rule ?? null;

describe('matchCommand', () => {
  it.each([
    ['rm -rf /tmp/x', 'rm'],
    ['   rm    -rf   /tmp/x   ', 'rm'],
    ['/usr/bin/rm x', 'rm'],
    ['../../bin/rm x', 'rm'],
    ['\\rm x', 'rm'],
    ["'rm' x", 'rm'],
    ['"rm" x', 'rm'],
    ['r"m" x', 'rm'],
    ["r''m x", 'rm'],
    ['r\\m x', 'rm'],
    ['ls; rm x', 'rm'],
    ['ls;rm x', 'rm'],
    ['true && rm x', 'rm'],
    ['false || rm x', 'rm'],
    ['ls | rm x', 'rm'],
    ['sleep 1 & rm x', 'rm'],
    ['(rm x)', 'rm'],
    ['{ rm x; }', 'rm'],
    ['echo $(rm x)', 'rm'],
    ['echo "$(rm x)"', 'rm'],
    ['echo `rm x`', 'rm'],
    ['cat <(rm x)', 'rm'],
    ['echo $(echo $(rm x))', 'rm'],
    ['sudo rm x', 'rm'],
    ['sudo -u root rm x', 'rm'],
    ['env FOO=1 rm x', 'rm'],
    ['FOO=1 rm x', 'rm'],
    ['nohup rm x', 'rm'],
    ['time rm x', 'rm'],
    ['nice -n 5 rm x', 'rm'],
    ['timeout 10 rm x', 'rm'],
    ['command rm x', 'rm'],
    ['exec rm x', 'rm'],
    ['xargs rm < list', 'rm'],
    ['find . -name x -exec rm {} \\;', 'rm'],
    ["sh -c 'rm x'", 'rm'],
    ['bash -c "ls; rm x"', 'rm'],
    ["su -c 'reboot'", 'reboot'],
    ["eval 'rm x'", 'rm'],
    ['if true; then rm x; fi', 'rm'],
    ['for f in a; do rm $f; done', 'rm'],
    ['f() { rm "$@"; }; f x', 'rm'],
    ['/bin/r? x', 'rm'],
    ['/bin/r* x', 'rm'],
    ['reboot', 'reboot'],
    ['/sbin/shutdown -h now', 'shutdown'],
    ['chmod 777 /etc/passwd', 'chmod 777'],
    ['chmod -R 777 /', 'chmod 777'],
    ['dd if=/dev/zero of=/dev/sda', 'dd if=/dev/zero'],
  ])('catches %j (rule %s)', (line, rule) => {
    expect(caught(line)).toBe(rule);
  });

  it.each([
    'ls -l',
    'echo rm',
    "echo 'rm -rf /'",
    'grep rm file',
    'rmdir x',
    'firm x',
    'chmod 644 file',
    'dd if=/dev/urandom of=x',
    '# rm x',
    '',
  ])('lets %j pass', (line) => {
    expect(caught(line)).toBeNull();
  });

  it('matches option rules whatever the order or grouping of the flags', () => {
    const rules = ['rm -rf'];
    expect(matchCommand('rm -rf /', rules)).not.toBeNull();
    expect(matchCommand('rm -fr /', rules)).not.toBeNull();
    expect(matchCommand('rm -r -f /', rules)).not.toBeNull();
    expect(matchCommand('rm -r /', rules)).toBeNull();
    expect(matchCommand('rm x', rules)).toBeNull();
  });

  it('refuses (matches) a line nested deeper than it reads, rather than passing it', () => {
    const deep = `${'$('.repeat(20)}ls${')'.repeat(20)}`;
    expect(caught(deep)).toBe('rm');
  });

  it.each([
    // Decided only when the shell runs the line: documented as not caught.
    ['CMD=rm; $CMD x', 'a variable names the command'],
    ['alias x=rm; x file', 'an alias'],
    ["$'\\x72m' x", 'ANSI-C quoting'],
    ['{r,m}', 'brace expansion'],
    ['echo cm0geA== | base64 -d | sh', 'a decoded command piped to a shell'],
    ['python3 -c \'import os; os.remove("x")\'', 'another interpreter'],
    ['./script.sh', 'a script'],
    ['!!', 'history expansion'],
    ['$(echo rm) x', 'a command name made by a substitution'],
  ])('does not see %j (%s)', (line) => {
    expect(caught(line)).toBeNull();
  });

  it('tells an exec that reads command lines (a shell) from one whose input is data', () => {
    expect(readsCommands('bash')).toBe(true);
    expect(readsCommands('sudo /bin/sh -s')).toBe(true);
    expect(readsCommands('env LANG=C zsh')).toBe(true);
    expect(readsCommands("bash -c 'ls'")).toBe(false);
    expect(readsCommands('rsync --server -vlogDtpre.iLsfxC . /tmp/x')).toBe(false);
    expect(readsCommands("git-upload-pack '/srv/repo.git'")).toBe(false);
    expect(readsCommands('cat > file')).toBe(false);
  });
});
