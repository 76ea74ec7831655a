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
    // Redirections before the command, with or without a space before their word.
    ['> /dev/null rm -rf /tmp/v', 'rm'],
    ['>/dev/null rm x', 'rm'],
    ['2> /dev/null rm x', 'rm'],
    ['2>&1 rm x', 'rm'],
    ['< /dev/null rm x', 'rm'],
    ['{fd}>/tmp/log rm x', 'rm'],
    ['FOO=1 >x rm x', 'rm'],
    // Wrapper options that take a value, in clusters and long forms.
    ['sudo -Eu root rm x', 'rm'],
    ['sudo -iu root rm x', 'rm'],
    ['sudo --user root rm x', 'rm'],
    ['sudo --user=root rm x', 'rm'],
    ['sudo -u root -- rm x', 'rm'],
    ['env --unset FOO rm x', 'rm'],
    ['env -u FOO -i BAR=1 rm x', 'rm'],
    ['timeout 1.5 rm x', 'rm'],
    ['timeout --signal KILL 5 rm x', 'rm'],
    ['timeout -sKILL 5s rm x', 'rm'],
    ['chroot / rm x', 'rm'],
    ['xargs -I{} rm {}', 'rm'],
    ['taskset -c 0 rm x', 'rm'],
    ['flock /tmp/lock rm x', 'rm'],
    ['strace -f -o /dev/null rm x', 'rm'],
    ['runuser -u root -- rm x', 'rm'],
    ['setpriv --reuid 0 rm x', 'rm'],
    ['unshare -m rm x', 'rm'],
    ['nsenter -t 1 -m rm x', 'rm'],
    ['doas -u root rm x', 'rm'],
    // Shell -c variants and command-line options of other commands.
    ["bash -lc 'rm x'", 'rm'],
    ["sh -ec 'rm x'", 'rm'],
    ["bash -c -- 'rm x'", 'rm'],
    ["bash -o posix -c 'rm x'", 'rm'],
    ["su --command='rm x'", 'rm'],
    ["su -lc 'rm x'", 'rm'],
    ["su root -c 'rm x'", 'rm'],
    ["runuser -l root -c 'rm x'", 'rm'],
    ["flock /tmp/lock -c 'rm x'", 'rm'],
    ["script -qc 'rm x' /dev/null", 'rm'],
    ["env -S 'rm x'", 'rm'],
    ["watch 'rm x'", 'rm'],
    ["fish --command 'rm x'", 'rm'],
    // Here-strings into a shell.
    ["bash <<< 'rm -rf /tmp/v'", 'rm'],
    ["bash<<<'rm x'", 'rm'],
    ["sudo sh <<< 'rm x'", 'rm'],
    // Keywords and definitions.
    ['coproc rm x', 'rm'],
    ['coproc NAME { rm x; }', 'rm'],
    ['function f { rm -rf /tmp/v; }; f', 'rm'],
    ['function f() { rm x; }', 'rm'],
    // Text the shell runs later.
    ["trap 'rm x' EXIT", 'rm'],
    ["PROMPT_COMMAND='rm x'", 'rm'],
    ["export PROMPT_COMMAND='rm x'", 'rm'],
    ["PS1='$(rm x)'", 'rm'],
    ['bind -x \'"\\C-t": rm x\'', 'rm'],
    // ANSI-C and translated quoting, also where a quote inside them ends nothing.
    ["$'\\x72m' x", 'rm'],
    ["$'\\162m' x", 'rm'],
    ["$'r\\u006d' x", 'rm'],
    ['$"rm" x', 'rm'],
    ["echo $'\\'' ; rm x", 'rm'],
    // Aliases and key bindings that will run a command.
    ['alias x=rm; x file', 'rm'],
    ["alias x='sudo rm -rf'", 'rm'],
    ['bind \'"\\C-t": "rm x\\n"\'', 'rm'],
    // Backslash-newline: the shell joins the lines first.
    ['r\\\nm -f /tmp/v', 'rm'],
    ['rm \\\n-f x', 'rm'],
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
    'ls > rm',
    'command -v rm',
    "echo 'r\\\nm x'",
    'trap INT',
    "bash -c 'ls'",
    "cat <<< 'rm x'",
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
    ['alias x=$(echo rm); x file', 'an alias whose value a substitution makes'],
    ['{r,m}', 'brace expansion'],
    ['echo cm0geA== | base64 -d | sh', 'a decoded command piped to a shell'],
    ['python3 -c \'import os; os.remove("x")\'', 'another interpreter'],
    ['./script.sh', 'a script'],
    ['!!', 'history expansion'],
    ['$(echo rm) x', 'a command name made by a substitution'],
  ])('does not see %j (%s)', (line) => {
    expect(caught(line)).toBeNull();
  });

  it('reads a wrapper as a command too, so a rule may name it', () => {
    expect(matchCommand('sudo -u root ls', ['sudo'])).toEqual({ rule: 'sudo' });
    expect(matchCommand('sudo -iu root', ['sudo -i'])).toEqual({ rule: 'sudo -i' });
    expect(matchCommand('env FOO=1 ls', ['ls'])).toEqual({ rule: 'ls' });
  });

  it('tells an exec that reads command lines (a shell) from one whose input is data', () => {
    expect(readsCommands('bash')).toBe(true);
    expect(readsCommands('sudo /bin/sh -s')).toBe(true);
    expect(readsCommands('env LANG=C zsh')).toBe(true);
    // A shell started later in the line, or by another command.
    expect(readsCommands('cd /tmp && bash')).toBe(true);
    expect(readsCommands('true; bash')).toBe(true);
    expect(readsCommands('cat | bash')).toBe(true);
    expect(readsCommands('bash -c bash')).toBe(true);
    expect(readsCommands("sh -c 'exec bash -i'")).toBe(true);
    expect(readsCommands('scp 2>/dev/null; exec bash -i')).toBe(true);
    expect(readsCommands('sudo -i')).toBe(true);
    expect(readsCommands('sudo -s')).toBe(true);
    expect(readsCommands('sudo -iu root')).toBe(true);
    expect(readsCommands('su')).toBe(true);
    expect(readsCommands('su - root')).toBe(true);
    expect(readsCommands("su -c 'bash'")).toBe(true);
    expect(readsCommands('script -q /dev/null')).toBe(true);
    expect(readsCommands('chroot /')).toBe(true);
    expect(readsCommands('busybox sh')).toBe(true);
    expect(readsCommands('sudo -iu root ls')).toBe(false);
    expect(readsCommands("su -c 'ls'")).toBe(false);
    expect(readsCommands("bash -c 'ls'")).toBe(false);
    expect(readsCommands('rsync --server -vlogDtpre.iLsfxC . /tmp/x')).toBe(false);
    expect(readsCommands("git-upload-pack '/srv/repo.git'")).toBe(false);
    expect(readsCommands('cat > file')).toBe(false);
  });
});
