/**
 * One client session channel bridged to one channel on the target: shell (with its pty),
 * exec, and the sftp subsystem, as raw bytes, so stock OpenSSH clients (ssh, scp, sftp) work
 * byte for byte. Window changes and signals pass on; the exit status or signal passes back
 * after every byte of output has been handed to the client.
 * Refused: agent and X11 forwarding, environment variables, other subsystems.
 *
 * Security mode (a session policy): shell input goes through a CommandFilter and an exec's
 * command is judged before it runs. The file log watches a copy of sftp requests and of the
 * scp stream (file-log/); neither changes a byte.
 */
import type {
  ClientChannel,
  Client,
  PseudoTtyInfo,
  PseudoTtyOptions,
  ServerChannel,
  Session,
} from 'ssh2';
import type { AlarmAction, CommandPolicy, FileOp, FileWay } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import type { ChannelOptions, ChannelTap, TerminalSize } from '../recording';
import { scpBase, ScpStreamReader, scpDirection } from './file-log/scp';
import { SftpRequestReader } from './file-log/sftp';
import { blockedNotice, CommandFilter, judge } from './security-mode/command-filter';
import { readsCommands } from './security-mode/command-match';

type Opened = (err: Error | undefined, channel: ClientChannel) => void;

interface Exit {
  code: number | null;
  signal?: string;
  dump?: boolean;
  desc?: string;
}

export interface BridgeEvents {
  /** What the client ran (an exec command or a subsystem name), for the session's log. */
  onStart(kind: 'shell' | 'exec' | 'subsystem', detail: string): void;
  /**
   * Taps a terminal channel for the session's recording (shell: output, input and resizes;
   * exec: output only, and without a pty only its start). Undefined when the session is not
   * recorded.
   */
  onRecord?(size: TerminalSize | undefined, options: ChannelOptions): ChannelTap;
  /** The session's security-mode policy; undefined when not in security mode. */
  policy?: CommandPolicy;
  onAlarm?(action: AlarmAction, command: string, rule: string): void;
  /** A file the client opened through sftp or scp, for the file log. */
  onFile?(way: FileWay, op: FileOp, filename: string): void;
  /** A client channel was accepted (a cut tells the member why on each open one). */
  onChannel?(channel: ServerChannel): void;
}

/** What pipe() adds to the plain byte bridge. */
interface PipeHooks {
  tap?: ChannelTap;
  filter?: { filter: CommandFilter; notices: 'stdout' | 'stderr' };
  /** Watches a copy of the client's bytes (to the target) or of the target's (to the client). */
  watchInput?: (data: Buffer) => void;
  watchOutput?: (data: Buffer) => void;
}

export function bridgeSession(
  session: Session,
  upstream: Client,
  logger: Logger,
  events: BridgeEvents,
): void {
  let pty: PseudoTtyOptions | undefined;
  let target: ClientChannel | undefined;
  let hooks: PipeHooks = {};
  const size = (): TerminalSize | undefined =>
    pty ? { cols: pty.cols ?? 80, rows: pty.rows ?? 24, term: pty.term } : undefined;

  session.on('pty', (accept, _reject, info: PseudoTtyInfo) => {
    pty = {
      rows: info.rows,
      cols: info.cols,
      height: info.height,
      width: info.width,
      term: info.term,
      modes: info.modes,
    };
    accept?.();
  });
  session.on('window-change', (accept, _reject, info) => {
    target?.setWindow(info.rows, info.cols, info.height, info.width);
    hooks.tap?.resize(info.cols, info.rows);
    accept?.();
  });
  session.on('signal', (accept, _reject, info) => {
    target?.signal(info.name);
    accept?.();
  });
  // The target's environment is the login user's own; the client does not set it.
  session.on('env', (_accept, reject) => reject?.());
  session.on('auth-agent', (_accept, reject) => reject?.());
  session.on('x11', (_accept, reject) => reject?.());

  // The client's channel is accepted at once: ssh2 refuses a late accept once the client has
  // sent EOF (`ssh host cmd < /dev/null` does so immediately). Its input waits in the channel
  // (paused) until the target's channel is open. So does a close the client sends meanwhile:
  // ssh2 emits it after the input's end, which the pipe reads, and the pipe then closes the
  // target's channel too (sessions/channel-close.test.ts).
  const open = (accept: () => ServerChannel | undefined, start: (cb: Opened) => void): void => {
    const channel = accept();
    if (!channel) return;
    events.onChannel?.(channel);
    channel.pause();
    start((err, opened) => {
      if (err) {
        logger.warn({ err: err.message }, 'the target refused a session channel');
        channel.stderr.write(`Portcullis: the server refused the request (${err.message})\r\n`);
        channel.exit(1);
        channel.end();
        return;
      }
      target = opened;
      pipe(channel, opened, hooks);
    });
  };
  const onAlarm = (action: AlarmAction, command: string, rule: string): void => {
    logger.info({ action, rule }, 'security mode acted on a command');
    events.onAlarm?.(action, command, rule);
  };

  /** A terminal channel's recording, and in security mode its input filter. */
  const terminalHooks = (tap: ChannelTap | undefined, filtered = true): PipeHooks => {
    const filter =
      filtered &&
      events.policy &&
      new CommandFilter(events.policy, pty ? 'terminal' : 'lines', onAlarm);
    return {
      ...(tap && { tap }),
      ...(filter && { filter: { filter, notices: pty ? 'stdout' : 'stderr' } }),
    };
  };

  session.on('shell', (accept) => {
    events.onStart('shell', '');
    hooks = terminalHooks(events.onRecord?.(size(), { input: true }));
    open(accept, (cb) => upstream.shell(pty ?? false, cb));
  });
  session.on('exec', (accept, _reject, info) => {
    events.onStart('exec', info.command);
    const verdict = events.policy && judge(events.policy, info.command, onAlarm);
    if (verdict?.action === 'intercept') {
      const channel = accept();
      if (!channel) return;
      channel.stderr.write(blockedNotice({ command: info.command, rule: verdict.rule }));
      channel.exit(1);
      channel.end();
      return;
    }
    // scp runs as an exec of one plain `scp -t`/`scp -f` and carries file bytes, not a
    // terminal: it is logged as a file transfer, neither filtered nor recorded. Anything more
    // (`scp -t x; bash`, `scp 2>/dev/null; exec bash -i`) or a pty is an exec like any other.
    const op = pty === undefined ? scpDirection(info.command) : null;
    if (op === null) {
      // `ssh host bash` (also `'cd /tmp && bash'`, `'cat | sh'`, `sudo -i`) reads commands
      // from its input, and with a pty the member types into the command: in security mode
      // those are lines too. Other input is data.
      const lines = pty !== undefined || readsCommands(info.command);
      // Without a pty the output is a data stream (`tar c /x`): only its start is recorded.
      const tap = events.onRecord?.(size(), { input: false, stream: pty === undefined });
      hooks = terminalHooks(tap, lines);
    } else if (events.onFile) {
      const onFile = events.onFile;
      const reader = new ScpStreamReader(
        op,
        (o, name) => onFile('scp', o, name),
        scpBase(info.command, op),
      );
      hooks =
        op === 'upload'
          ? { watchInput: (d) => reader.push(d) }
          : { watchOutput: (d) => reader.push(d) };
    }
    open(accept, (cb) => upstream.exec(info.command, pty ? { pty } : {}, cb));
  });
  session.on('subsystem', (accept, reject, info) => {
    if (info.name !== 'sftp') return void reject();
    events.onStart('subsystem', info.name);
    if (events.onFile) {
      const onFile = events.onFile;
      const reader = new SftpRequestReader((op, name) => onFile('sftp', op, name));
      hooks = { watchInput: (d) => reader.push(d) };
    }
    open(accept, (cb) => upstream.subsys(info.name, cb));
  });
}

/** Waits until everything written to `stream` so far has been handed to the SSH layer. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.writable) return resolve();
    stream.write(Buffer.alloc(0), () => resolve());
  });
}

/** The client's input through security mode: only checked lines reach the target. */
function pipeFiltered(
  client: ServerChannel,
  target: ClientChannel,
  { filter, notices }: NonNullable<PipeHooks['filter']>,
  tap: ChannelTap | undefined,
): void {
  const deliver = ({ forward, blocked }: ReturnType<CommandFilter['input']>): void => {
    if (forward.length > 0 && !target.write(forward)) {
      client.pause();
      target.once('drain', () => client.resume());
    }
    if (!blocked) return;
    const notice = blockedNotice(blocked);
    // The recording shows what the member saw.
    tap?.output(Buffer.from(notice));
    (notices === 'stdout' ? client : client.stderr).write(notice);
  };
  client.on('data', (data: Buffer) => deliver(filter.input(data)));
  // An extra listener: it sees the output the pipe carries and never pauses it.
  target.on('data', (data: Buffer) => filter.output(data));
  client.on('end', () => {
    deliver(filter.end());
    target.end(); // the client's EOF becomes the target's EOF
  });
  client.resume();
}

function pipe(client: ServerChannel, target: ClientChannel, hooks: PipeHooks): void {
  const { tap, filter, watchInput, watchOutput } = hooks;
  let exit: Exit | undefined;
  // The pipes' 'data' listeners go first, so that every chunk is forwarded before the
  // watchers, the security-mode filter's screen tracking and the recording look at it.
  target.pipe(client, { end: false });
  target.stderr.pipe(client.stderr, { end: false });
  if (filter) pipeFiltered(client, target, filter, tap);
  else client.pipe(target); // the client's EOF becomes the target's EOF
  if (watchInput) client.on('data', watchInput);
  if (watchOutput) target.on('data', watchOutput);
  if (tap) {
    // Extra 'data' listeners see the same chunks as the pipes and never pause them. Once the
    // tap records no more output (a data stream's limit), they go: no per-chunk work remains.
    const onOutput = (data: Buffer): void => {
      if (tap.output(data)) return;
      target.off('data', onOutput);
      target.stderr.off('data', onOutput);
    };
    target.on('data', onOutput);
    target.stderr.on('data', onOutput);
    client.on('data', (data: Buffer) => tap.input(data));
  }
  target.on('exit', (code: number | null, signal?: string, dump?: boolean, desc?: string) => {
    exit = { code, signal, dump, desc };
  });
  target.on('close', () => {
    tap?.end();
    void Promise.all([flushed(client), flushed(client.stderr)]).then(() => {
      if (exit?.code !== undefined && exit.code !== null) client.exit(exit.code);
      else if (exit?.signal) {
        // ssh2 reports `SIGTERM`; the wire carries `TERM`.
        client.exit(exit.signal.replace(/^SIG/, ''), exit.dump ?? false, exit.desc ?? '');
      }
      client.end();
    });
  });
  client.on('close', () => target.close());
}
