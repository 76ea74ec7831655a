/**
 * One session's recording, spooled to `<spool>/<connection_id>.cast` as asciicast v2. Events
 * are kept in memory for at most {@link FLUSH_MS} and then appended to the file, so a gateway
 * killed with SIGKILL loses at most that much (the OS keeps what was written). The uploader
 * (uploader.ts) streams the file to the server from there.
 *
 * The recorder never stalls a session: writes are asynchronous, one at a time (spool-writer.ts),
 * and while the disk lags, what waits in memory is capped at {@link MAX_PENDING_BYTES}; beyond
 * that events are dropped and counted (logged when the recording closes) rather than holding
 * up the client's bytes. A spool that cannot be opened or written ends the session (fail closed).
 *
 * With the cluster's log filters, each channel's output and input go through a line filter
 * (log-filter.ts) before they become events: a line that contains a condition is stored as a
 * placeholder, and a partial line waits there (HOLD_MS; the start of a possible condition up
 * to KEEP_MS) until it can be checked. An event's time is when it is written, so held text
 * appears in playback when it was released. So that a SIGKILL does not lose what the filters
 * hold (up to seconds), each flush also leaves it, as it would be stored, in a sidecar
 * (`<id>.cast.held`, see {@link heldSpoolFile}) that the uploader appends after a crash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { RECORDING_MAX_BYTES } from '@portcullis/contract';
import type { Logger } from '../core/logger';
import { eventLine, headerLine, type CastCode } from './asciicast';
import { createLineFilter, type LineFilter, type LogFilterMatcher } from './log-filter';
import { placeBlank } from './spool-blanks';
import { createSpoolWriter } from './spool-writer';

const FLUSH_MS = 250;
const MAX_PENDING_BYTES = 8 * 1024 * 1024;
const EAGER_FLUSH_BYTES = 1024 * 1024;
/**
 * How much of the recording an exec without a pty may fill (bytes stored, UTF-8): its output
 * is a data stream (`tar c /x`, `head -c 1G /dev/zero`), not a terminal, and encoding all of it
 * would cost more than the transfer. The first part shows what ran; a note says the rest was not
 * recorded.
 */
export const STREAM_RECORD_BYTES = 1024 * 1024;
const STREAM_NOTE =
  '\r\n[Portcullis: the rest of this output was not recorded (a command without a terminal ' +
  'is recorded up to its first 1 MiB)]\r\n';

export interface TerminalSize {
  cols: number;
  rows: number;
  term?: string;
}

/** One channel's taps into the recording. */
export interface ChannelTap {
  /**
   * Records output; false once this channel's output is no longer recorded (its stream limit,
   * the recording's size limit, a failed spool), so that the caller can stop tapping it.
   */
  output(data: Buffer): boolean;
  input(data: Buffer): void;
  resize(cols: number, rows: number): void;
  /** Flushes any half-decoded UTF-8 sequence. */
  end(): void;
}

export interface ChannelOptions {
  /** Record what the client types (a shell's input). */
  input: boolean;
  /**
   * The channel is a data stream (an exec without a pty): only its first
   * {@link STREAM_RECORD_BYTES} of output are recorded, then a note.
   */
  stream?: boolean;
}

export interface SessionRecorder {
  /** Taps a shell or exec channel; the first one's size becomes the header's. */
  channel(size: TerminalSize | undefined, options: ChannelOptions): ChannelTap;
  /** Writes what is pending and closes the file; resolves when it is on disk. */
  close(): Promise<void>;
}

export function spoolFile(dir: string, connectionId: number): string {
  return path.join(dir, `${connectionId}.cast`);
}

/**
 * The sidecar of a recording whose log filters hold partial lines: a first line
 * `{"cast_bytes":N}` (the spool's size it follows), then the held text as events. It is
 * replaced at each flush and removed when the recording closes; after a crash the uploader
 * appends its events to a spool of exactly that size (see uploader.ts).
 */
export function heldSpoolFile(dir: string, connectionId: number): string {
  return `${spoolFile(dir, connectionId)}.held`;
}

export function createSessionRecorder(
  dir: string,
  connectionId: number,
  logger: Logger,
  onFailure: () => void,
  maxBytes = RECORDING_MAX_BYTES,
  /** The session's log filters; undefined when the cluster has none. */
  logFilter?: LogFilterMatcher,
): SessionRecorder {
  const file = spoolFile(dir, connectionId);
  const heldFile = heldSpoolFile(dir, connectionId);
  let started: bigint | undefined;
  let dropped = 0;
  /** Bytes handed to the spool so far (JSON text, so UTF-16 units: close enough to bytes). */
  let recorded = 0;
  let full = false;
  /** Line filters holding partial lines, released (checked) when the recording closes. */
  const lineFilters = new Map<LineFilter, 'o' | 'i'>();
  /** What the sidecar on disk holds (the filters' pending text, keyed), '' for no sidecar. */
  let heldOnDisk = '';

  /** The filters' held text, as `end()` would store it now, one key per stream. */
  const heldNow = (): { key: string; events: () => string } => {
    const parts = [...lineFilters].map(([filter, code]) => [code, filter.pending()] as const);
    const held = parts.filter(([, text]) => text.length > 0);
    return {
      key: held.map(([code, text]) => `${code}${text}`).join('\0'),
      events: () => held.map(([code, text]) => eventLine(seconds(), code, text)).join(''),
    };
  };
  const writeHeld = async (events: string): Promise<void> => {
    if (events.length === 0) return fs.promises.rm(heldFile, { force: true });
    const head = JSON.stringify({ cast_bytes: spool.size });
    await fs.promises.writeFile(heldFile, `${head}\n${events}`, { mode: 0o600 });
  };

  // A blank from the uploader's stock when this process has one (spool-blanks.ts); the
  // spool writer makes the file otherwise.
  placeBlank(file);
  const spool = createSpoolWriter(file, {
    flushMs: FLUSH_MS,
    eagerBytes: EAGER_FLUSH_BYTES,
    // Fail closed (ARCHITECTURE.md): a session whose recording cannot be written is ended.
    onError(err, stage) {
      const what =
        stage === 'open'
          ? 'the recording spool could not be opened'
          : 'the recording spool write failed';
      logger.error({ err, connection_id: connectionId }, what);
      onFailure();
    },
    // The sidecar holds exactly what the spool lacks: the filters' text of the same tick.
    alongside() {
      const held = lineFilters.size > 0 || heldOnDisk ? heldNow() : undefined;
      if (held === undefined || held.key === heldOnDisk) return undefined;
      const events = held.events();
      return async () => {
        await writeHeld(events);
        heldOnDisk = held.key;
      };
    },
  });

  const seconds = (): number =>
    started === undefined ? 0 : Number(process.hrtime.bigint() - started) / 1e9;
  const push = (event: string): void => {
    if (spool.closed || spool.failed || full) return;
    if (spool.pendingBytes > MAX_PENDING_BYTES) {
      dropped++;
      return;
    }
    let line = event;
    if (recorded + line.length > maxBytes) {
      full = true;
      line = eventLine(
        seconds(),
        'o',
        '\r\n[Portcullis: the recording stopped at its size limit]\r\n',
      );
      logger.warn({ connection_id: connectionId }, 'the recording reached its size limit');
    }
    recorded += line.length;
    spool.push(line);
  };

  /** Whether an event would be kept now; one that would not is counted as dropped. */
  const keeping = (): boolean => {
    if (full || spool.failed || spool.closed) return false;
    // While the disk lags or past the size limit, encoding what will not be kept is waste:
    // count it as dropped before paying for it.
    if (spool.pendingBytes > MAX_PENDING_BYTES) {
      dropped++;
      return false;
    }
    return true;
  };
  const event = (code: CastCode, data: string): void => {
    if (data.length > 0 && keeping()) push(eventLine(seconds(), code, data));
  };

  /** Output events of a data stream, up to `limit` bytes stored, then the note. */
  const streamWriter = (limit: number): { write(text: string): void; readonly done: boolean } => {
    let left = limit;
    return {
      get done() {
        return left <= 0;
      },
      write(text) {
        if (left <= 0 || text.length === 0) return;
        if (!keeping()) {
          left -= text.length; // what the disk could not take still counts
          return;
        }
        let line = eventLine(seconds(), 'o', text);
        let bytes = Buffer.byteLength(line);
        if (bytes <= left) {
          left -= bytes;
          return push(line);
        }
        // Keep the part that fits. A stored line is never shorter than its text, so cutting
        // the text in the ratio of what is left undershoots; uneven escapes take another pass.
        while (bytes > left && text.length > 0) {
          text = text.slice(0, Math.min(text.length - 1, Math.floor((text.length * left) / bytes)));
          line = eventLine(seconds(), 'o', text);
          bytes = Buffer.byteLength(line);
        }
        if (text.length > 0) push(line);
        left = 0;
        push(eventLine(seconds(), 'o', STREAM_NOTE));
        logger.info(
          { connection_id: connectionId },
          'a command without a terminal passed its recording limit; the rest is not recorded',
        );
      },
    };
  };

  return {
    channel(size, options) {
      if (started === undefined) {
        started = process.hrtime.bigint();
        push(
          headerLine({
            width: size?.cols ?? 80,
            height: size?.rows ?? 24,
            timestamp: Math.floor(Date.now() / 1000),
            term: size?.term,
          }),
        );
      }
      const out = new StringDecoder('utf8');
      const typed = new StringDecoder('utf8');
      // Without a pty nothing turns "\n" into "\r\n" (the terminal's job), and a player would
      // draw a staircase: an exec's output is recorded as a terminal would have shown it.
      const shown = size
        ? (text: string) => text
        : (text: string) => text.replace(/\r?\n/g, '\r\n');
      const stream = options.stream ? streamWriter(STREAM_RECORD_BYTES) : undefined;
      const write = (code: 'o' | 'i'): ((text: string) => void) =>
        code === 'o' && stream ? (text) => stream.write(text) : (text) => event(code, text);
      const filtered = (code: 'o' | 'i'): { push(text: string): void; end(): void } => {
        if (!logFilter) return { push: write(code), end: () => undefined };
        const filter = createLineFilter(logFilter, {
          breaks: code === 'o' ? 'output' : 'input',
          write: write(code),
        });
        lineFilters.set(filter, code);
        return {
          push: (text) => {
            filter.push(text);
            // What it now holds reaches the sidecar within a flush period.
            spool.schedule();
          },
          end: () => {
            lineFilters.delete(filter);
            filter.end();
          },
        };
      };
      const shownOut = filtered('o');
      const typedIn = options.input ? filtered('i') : undefined;
      return {
        output: (data) => {
          if (full || spool.failed || stream?.done) return false;
          shownOut.push(shown(out.write(data)));
          return !(full || spool.failed || stream?.done);
        },
        input: (data) => {
          if (typedIn && !full) typedIn.push(typed.write(data));
        },
        resize: (cols, rows) => event('r', `${cols}x${rows}`),
        end: () => {
          shownOut.push(shown(out.end()));
          shownOut.end();
          typedIn?.push(typed.end());
          typedIn?.end();
        },
      };
    },
    async close() {
      if (spool.closed) return;
      // Partial lines still held are checked and written: a channel that never ended.
      for (const filter of lineFilters.keys()) filter.end();
      lineFilters.clear();
      await spool.close(); // with the sidecar's removal: the filters hold nothing now
      if (dropped > 0) {
        logger.warn(
          { connection_id: connectionId, dropped_events: dropped },
          'the disk lagged; some recording events were dropped',
        );
      }
    },
  };
}
