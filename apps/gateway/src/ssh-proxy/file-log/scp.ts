/**
 * Reads classic scp (`scp -O`, an exec of `scp -t DEST` to upload or `scp -f SRC` to
 * download) for the file log. The sending side's stream carries, per file:
 *   `C<mode> <size> <name>\n` / size bytes of file / one 0 byte
 * and for directories (`scp -r`) `D<mode> 0 <name>\n` … `E\n`, with `T<mtime> 0 <atime> 0\n`
 * before either under `-p`. The reader watches a copy of that stream and never holds file
 * bytes: it counts them off.
 */
import type { FileOp } from '@portcullis/contract';
import { isPlainCommand, words as wordsOf } from '../security-mode/shell-syntax';
import type { OnFile } from './sftp';

/** A header line longer than this is not scp's: the reader stops (logs nothing more). */
const LINE_MAX = 8192;

/** The program a client's scp runs on the server: `scp`, or it under a system folder. */
const SCP = /^(?:\/(?:usr\/(?:local\/)?)?bin\/)?scp$/;

/**
 * `upload` for `scp … -t …`, `download` for `scp … -f …`, null for anything else: also for
 * a line that is more than that one plain command (a list, a pipe, a redirection, an
 * expansion), which the shell would run in part as something else.
 */
export function scpDirection(command: string): FileOp | null {
  if (!isPlainCommand(command)) return null;
  const words = wordsOf(command);
  if (!SCP.test(words[0] ?? '')) return null;
  for (const word of words.slice(1)) {
    if (word === '--' || !word.startsWith('-') || word.startsWith('--')) continue;
    if (word.includes('t')) return 'upload';
    if (word.includes('f')) return 'download';
  }
  return null;
}

/**
 * The folder the file names of an scp stream are under, when the command says it for sure:
 * the source's folder for a download of one path (`scp -f /var/log/syslog`, also a glob such
 * as `/var/log/*.log`), the destination for an upload into a directory (`scp -d -t /tmp`).
 * Null otherwise: an upload's single destination may be a file or a folder, which only the
 * target knows, so its files are logged by the names in their headers.
 */
export function scpBase(command: string, op: FileOp): string | null {
  const all = wordsOf(command).slice(1);
  const dashDash = all.indexOf('--');
  const options = (dashDash < 0 ? all : all.slice(0, dashDash)).filter((w) => w.startsWith('-'));
  const args = dashDash < 0 ? all.filter((w) => !w.startsWith('-')) : all.slice(dashDash + 1);
  if (args.length !== 1) return null;
  const path = args[0]!;
  if (op === 'upload') return options.some((o) => o.slice(1).includes('d')) ? path : null;
  const slash = path.lastIndexOf('/');
  return slash < 0 ? null : path.slice(0, slash) || '/';
}

export class ScpStreamReader {
  private line: Buffer[] = [];
  private lineLength = 0;
  /** File bytes (and the trailing 0) still to count off. */
  private skip = 0;
  private readonly dirs: string[] = [];
  private stopped = false;

  constructor(
    private readonly op: FileOp,
    private readonly onFile: OnFile,
    /** The folder the headers' names are under (scpBase), when known. */
    private readonly base: string | null = null,
  ) {}

  push(data: Buffer): void {
    let at = 0;
    while (at < data.length && !this.stopped) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, data.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      const nl = data.indexOf(0x0a, at);
      const end = nl < 0 ? data.length : nl;
      this.line.push(data.subarray(at, end));
      this.lineLength += end - at;
      at = nl < 0 ? data.length : nl + 1;
      if (this.lineLength > LINE_MAX) this.stopped = true;
      else if (nl >= 0) this.onLine(Buffer.concat(this.line).toString('utf8'));
      if (nl >= 0) {
        this.line = [];
        this.lineLength = 0;
      }
    }
  }

  private onLine(line: string): void {
    const header = /^([CD])[0-7]{3,4} (\d+) (.+)$/.exec(line);
    if (header) {
      const [, kind, size, name] = header;
      if (kind === 'D') return void this.dirs.push(name!);
      const base = this.base === null ? [] : [this.base.replace(/\/+$/, '')];
      this.onFile(this.op, [...base, ...this.dirs, name!].join('/'));
      this.skip = Number(size) + 1;
      return;
    }
    if (line === 'E') this.dirs.pop();
    // T lines (times) and anything else carry no file name.
  }
}
