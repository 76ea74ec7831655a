/**
 * How security mode reads the options of the commands that run other commands: wrappers
 * (`sudo -u root rm x`: which options take a value, what stands between them and the command)
 * and commands whose option value is a command line (`su -c '…'`). Read as getopt reads them:
 * short options in clusters (`-iu root`, `-uroot`), long ones with `=` or the next word, `--`.
 *
 * Limits: a wrapper not listed here is read as the command itself (its arguments are not
 * searched), and an option of a listed one that takes a value but is not listed shifts the
 * reading by a word (fail open for that line): the tables follow the tools' manuals.
 */

/** How a command's options are read: which take a value (getopt's `u:`, `--user=`). */
export interface OptionSpec {
  /** Short options taking a value: the rest of their cluster, or else the next word. */
  short: string;
  /** Long options taking the next word as value (`--user root`; `--user=root` carries it). */
  long?: readonly string[];
}

/** A command that runs its arguments as a command (`sudo rm x`). */
export interface Wrapper extends OptionSpec {
  /** Operands between the options and the command: timeout's duration, chroot's root. */
  operands?: number;
  /** `NAME=value` words may come before the command (`env FOO=1 rm`). */
  assignments?: boolean;
  /** Options after which, with no command, it starts an interactive shell (`sudo -i`). */
  shell?: readonly string[];
  /** With no command at all it starts a shell (`chroot /`). */
  bareShell?: boolean;
  /** Options with which it only shows the command, not runs it (`command -v rm`). */
  query?: readonly string[];
  /** Its arguments, joined, are also a command line (watch runs them through `sh -c`). */
  joined?: boolean;
}

export const WRAPPERS: Record<string, Wrapper> = {
  sudo: {
    short: 'ugphCDrtUTR',
    long: ['--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--chroot'],
    assignments: true,
    shell: ['-i', '-s', '--login', '--shell'],
    query: ['-l', '--list', '-e', '--edit'],
  },
  doas: { short: 'uC', shell: ['-s'] },
  env: { short: 'uCS', long: ['--unset', '--chdir', '--split-string'], assignments: true },
  nohup: { short: '' },
  time: { short: 'fo', long: ['--format', '--output'] },
  nice: { short: 'n', long: ['--adjustment'] },
  ionice: { short: 'cnp', long: ['--class', '--classdata', '--pid'] },
  command: { short: '', query: ['-v', '-V'] },
  builtin: { short: '' },
  exec: { short: 'a' },
  stdbuf: { short: 'ioe', long: ['--input', '--output', '--error'] },
  timeout: { short: 'sk', long: ['--signal', '--kill-after'], operands: 1 },
  xargs: {
    short: 'adEILnPs',
    long: ['--arg-file', '--delimiter', '--max-lines', '--max-args', '--max-procs'],
  },
  busybox: { short: '' },
  chroot: { short: '', long: ['--userspec', '--groups'], operands: 1, bareShell: true },
  setsid: { short: '' },
  watch: { short: 'nq', long: ['--interval', '--equexit'], joined: true },
  taskset: { short: '', operands: 1 },
  flock: { short: 'wEc', long: ['--timeout', '--conflict-exit-code', '--command'], operands: 1 },
  strace: { short: 'abeEIoOpPsSuUX', long: ['--output', '--trace', '--user', '--env'] },
  runuser: { short: 'ugGswc', long: ['--user', '--group', '--shell', '--command'] },
  setpriv: {
    short: '',
    long: ['--reuid', '--regid', '--ruid', '--rgid', '--euid', '--egid', '--groups'].concat(
      ['--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig'],
      ['--selinux-label', '--apparmor-profile', '--landlock-access', '--landlock-rule'],
    ),
  },
  unshare: {
    short: 'SGRw',
    long: ['--setuid', '--setgid', '--root', '--wd', '--propagation', '--setgroups'],
    bareShell: true,
  },
  nsenter: { short: 'tSGw', long: ['--target', '--setuid', '--setgid', '--wd'], bareShell: true },
};

/**
 * Options whose value is a command line, wherever they stand (getopt permutes: `su root -c
 * '…'`, `flock /tmp/lock -c '…'`). su, runuser and script start a shell without one.
 */
export const SCRIPT_OPTIONS: Record<string, OptionSpec & { names: readonly string[] }> = {
  su: {
    short: 'cgGsw',
    long: ['--command', '--session-command', '--group', '--shell'],
    names: ['-c', '--command', '--session-command'],
  },
  runuser: {
    short: 'cgGswu',
    long: ['--command', '--session-command', '--group', '--shell', '--user'],
    names: ['-c', '--command', '--session-command'],
  },
  script: { short: 'cBIOTmE', long: ['--command'], names: ['-c', '--command'] },
  flock: { short: 'wEc', long: ['--command'], names: ['-c', '--command'] },
  env: { short: 'uCS', long: ['--split-string'], names: ['-S', '--split-string'] },
};
export interface ParsedOptions {
  /** Each option given, by name (`-u`, `--user`), with its value when it takes one. */
  options: { name: string; value?: string }[];
  /** The words that are not options (with `permute`, from among them; else none). */
  operands: string[];
  /** Where the operands start (the first word that is not an option, or after `--`). */
  rest: number;
}

/**
 * getopt's reading of a command's options. `permute` reads options among the operands too
 * (GNU getopt does, for su and flock); a wrapper's stop at the first operand, its command.
 */
export function parseOptions(args: string[], spec: OptionSpec, permute: boolean): ParsedOptions {
  const options: ParsedOptions['options'] = [];
  const operands: string[] = [];
  let i = 0;
  let rest = -1;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      if (rest < 0) rest = i + 1;
      if (permute) operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) options.push({ name: arg.slice(0, eq), value: arg.slice(eq + 1) });
      else if (spec.long?.includes(arg)) options.push({ name: arg, value: args[++i] });
      else options.push({ name: arg });
    } else if (arg.length > 1 && arg[0] === '-') i = readCluster(args, i, spec, options);
    else if (!permute) break;
    else {
      if (rest < 0) rest = i;
      operands.push(arg);
    }
  }
  return { options, operands, rest: rest < 0 ? i : rest };
}

/** `-iu root`, `-uroot`, `-Eu root`: flags, then at most one option taking a value. */
function readCluster(
  args: string[],
  at: number,
  spec: OptionSpec,
  options: ParsedOptions['options'],
): number {
  const arg = args[at]!;
  for (let j = 1; j < arg.length; j++) {
    const name = `-${arg[j]}`;
    if (!spec.short.includes(arg[j]!)) {
      options.push({ name });
      continue;
    }
    const attached = arg.slice(j + 1);
    if (attached !== '') options.push({ name, value: attached });
    else options.push({ name, value: args[++at] });
    break;
  }
  return at;
}
