/**
 * The writer behind a session's spool file (a terminal recording, recorder.ts, and a database
 * session's statement log, db-proxy/statement-log.ts): text is queued in memory (as UTF-8
 * bytes outside the JavaScript heap, byte-queue.ts) and appended in
 * the background, one write at a time, so that a session never waits on the disk. What is
 * queued waits at most `flushMs` (a gateway killed with SIGKILL loses no more; the OS keeps
 * what was written), or is written at once past `eagerBytes`; what arrives during a write goes
 * in the next one.
 *
 * The writer keeps no limit of its own: each caller reads {@link SpoolWriter.pendingBytes} and
 * {@link SpoolWriter.written} and decides what a lagging disk or a full file means for it
 * (the recorder drops events, the statement log ends the session). A file that cannot be opened
 * or written is reported once through `onError`, and nothing more is written; what it could not
 * take (the rest of the failed write and what waited) is kept for {@link SpoolWriter.takeUnwritten}.
 */
import fs from 'node:fs';
import { ByteQueue } from './byte-queue';

export interface SpoolWriterOptions {
  /** How long queued text may wait before it is written (ms). */
  flushMs: number;
  /** Queued bytes from which a write starts at once; without it, never. */
  eagerBytes?: number;
  /** The file could not be opened or written; called once, and nothing more is written. */
  onError(err: unknown, stage: 'open' | 'write'): void;
  /**
   * Another write that goes with each flush, after the queued text (the recorder's sidecar):
   * called in the same tick as the queued text is taken, it returns that write, or undefined
   * when there is none. A flush with no text and no such write does nothing.
   */
  alongside?: () => (() => Promise<void>) | undefined;
}

export interface SpoolWriter {
  /** Queues text; ignored once the writer has failed, been abandoned or closed. */
  push(text: string): void;
  /** Makes sure a flush comes within `flushMs` (for an `alongside` write with no new text). */
  schedule(): void;
  /** Starts writing what waits now; resolves when that write, or the one in progress, ends. */
  flush(): Promise<void>;
  /** Drops what waits and writes nothing more (the caller has failed closed). */
  abandon(): void;
  /**
   * After a failure: the bytes the file did not take, in order (the rest of the write that
   * failed, then what waited), which follow the file's {@link size} exactly. Hands them over
   * once; empty when nothing failed.
   */
  takeUnwritten(): Buffer[];
  /** Writes what waits (after a write in progress) and closes the file. */
  close(): Promise<void>;
  /** Queued bytes (UTF-8) not yet being written. */
  readonly pendingBytes: number;
  /** Bytes this writer has appended so far. */
  readonly written: number;
  /** The file's size: what it held when opened, plus {@link written}. */
  readonly size: number;
  /** Whether a write is in progress. */
  readonly writing: boolean;
  /** Whether the file failed (or the writer was abandoned): nothing more is written. */
  readonly failed: boolean;
  readonly closed: boolean;
}

/** Opens `file` for appending (created with mode 0600) and returns its writer. */
export function createSpoolWriter(file: string, options: SpoolWriterOptions): SpoolWriter {
  const eagerBytes = options.eagerBytes ?? Infinity;
  const pending = new ByteQueue();
  let written = 0;
  let size = 0;
  /** The one write in progress: at most one, so memory holds it and `pending`, no more. */
  let writing: Promise<void> | undefined;
  let failed = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  /** What a failed write did not put in the file (see takeUnwritten). */
  let unwritten: Buffer[] = [];

  const stop = (): void => {
    failed = true;
    pending.clear();
  };
  const fail = (err: unknown, stage: 'open' | 'write', rest: Buffer[] = []): void => {
    if (failed) return;
    failed = true;
    unwritten = [...rest, ...pending.take()];
    options.onError(err, stage);
  };
  const fd = fs.promises.open(file, 'a', 0o600).then(async (handle) => {
    try {
      size = (await handle.stat()).size;
    } catch (err) {
      await handle.close().catch(() => undefined); // a failed writer holds no descriptor
      throw err;
    }
    return handle;
  });
  fd.catch((err: unknown) => fail(err, 'open'));

  const schedule = (): void => {
    if (closed || failed) return;
    timer ??= setTimeout(() => void flush(), options.flushMs);
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (writing) return writing;
    if (failed) return Promise.resolve();
    // Taken in the same tick as `pending`, so that the two writes agree.
    const extra = options.alongside?.();
    if (pending.bytes === 0 && !extra) return Promise.resolve();
    const buffers = pending.take();
    writing = (async () => {
      // Counted as the file takes them, so that a failed write knows where it stopped.
      let done = 0;
      try {
        if (buffers.length > 0) {
          await writeAll(await fd, buffers, (bytes) => {
            done += bytes;
            written += bytes;
            size += bytes;
          });
        }
        await extra?.();
      } catch (err) {
        fail(err, 'write', skipBytes(buffers, done));
      }
    })().finally(() => {
      writing = undefined;
      // What arrived during the write goes next: at once when it is a lot (a busy session
      // keeps the disk busy instead of dropping), else within one flush period.
      if (pending.bytes === 0 || closed) return;
      if (pending.bytes >= eagerBytes) setImmediate(() => void flush());
      else timer ??= setTimeout(() => void flush(), options.flushMs);
    });
    return writing;
  };

  return {
    push(text) {
      if (closed || failed) return;
      pending.push(text);
      if (pending.bytes >= eagerBytes && !writing) void flush();
      else timer ??= setTimeout(() => void flush(), options.flushMs);
    },
    schedule,
    flush,
    abandon: stop,
    takeUnwritten() {
      const rest = unwritten;
      unwritten = [];
      return rest;
    },
    async close() {
      clearTimeout(timer);
      timer = undefined;
      await flush(); // a write in progress
      await flush(); // what waited behind it
      closed = true;
      await fd.then((h) => h.close()).catch(() => undefined);
    },
    get pendingBytes() {
      return pending.bytes;
    },
    get written() {
      return written;
    },
    get size() {
      return size;
    },
    get writing() {
      return writing !== undefined;
    },
    get failed() {
      return failed;
    },
    get closed() {
      return closed;
    },
  };
}

/** Appends the buffers in order (a short write continues where it stopped). */
async function writeAll(
  handle: fs.promises.FileHandle,
  buffers: Buffer[],
  onWritten: (bytes: number) => void,
): Promise<void> {
  let rest = buffers;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest);
    onWritten(bytesWritten);
    rest = skipBytes(rest, bytesWritten);
  }
}

/** The buffers without their first `bytes` bytes. */
function skipBytes(buffers: Buffer[], bytes: number): Buffer[] {
  let rest = buffers;
  let skip = bytes;
  while (rest.length > 0 && skip >= rest[0]!.length) {
    skip -= rest[0]!.length;
    rest = rest.slice(1);
  }
  return skip > 0 ? [rest[0]!.subarray(skip), ...rest.slice(1)] : rest;
}
