/**
 * Streams spooled recordings (`<spool>/<connection_id>.cast`) to the server over the control
 * channel while their sessions run, and afterwards until the server holds every byte; then the
 * spool file is deleted. One chunk per recording is in flight at a time: the server answers
 * recording_ack with the size it holds, and the next chunk starts there, so a lost or repeated
 * chunk only costs a resend (the server keeps chunks idempotently by offset).
 *
 * A live session's new bytes go at most once per {@link LIVE_INTERVAL_MS}, as one chunk, unless a
 * whole chunk waits: each chunk costs both ends a file read and write, a control message and a
 * database look-up, and a busy database session (a statement log line per query, its spool
 * written four times a second) would otherwise send one per write. An ended session's rest
 * goes at once.
 *
 * Files found in the spool at start-up belong to sessions a previous run did not finish (a
 * crash, a SIGKILL): they upload as soon as the server welcomes this gateway. What the log
 * filters held back at the crash (a sidecar, see recorder.ts heldSpoolFile) is appended first,
 * when the sidecar follows exactly the spool's size (else it is from before a write the spool
 * has, and is dropped).
 *
 * A database session that ends before its statement log reached the disk hands its bytes over
 * from memory (finishFromMemory): a client that connects for one query costs no file at all.
 * One whose spool failed (a full disk) hands over what the file did not take, which follows the
 * file's bytes (finishWithTail).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/logger';
import { RECORDING_CHUNK_BYTES, type RecordingChunk } from '../control/protocol';
import { recycleSpool, removeLeftBlanks } from './spool-blanks';

const PUMP_MS = 500;
/** A live recording's new bytes wait at most about this long (or until a whole chunk waits). */
const LIVE_INTERVAL_MS = 1000;
/** An unanswered chunk is sent again after this long. */
const ACK_TIMEOUT_MS = 15_000;
const SPOOL_NAME = /^([1-9][0-9]{0,15})\.cast$/;
const HELD_SUFFIX = '.held';

/** Appends a crashed recording's held text when its sidecar matches; removes the sidecar. */
function recoverHeld(dir: string, name: string, logger: Logger): void {
  const spool = path.join(dir, name);
  const sidecar = `${spool}${HELD_SUFFIX}`;
  let text: string;
  try {
    text = fs.readFileSync(sidecar, 'utf8');
  } catch {
    return; // none: nothing was held
  }
  try {
    const newline = text.indexOf('\n');
    const head = JSON.parse(text.slice(0, newline)) as { cast_bytes?: unknown };
    const events = text.slice(newline + 1);
    // Written whole or not at all matters: a torn sidecar has a last line without its newline.
    if (
      newline > 0 &&
      head.cast_bytes === fs.statSync(spool).size &&
      events.endsWith('\n') &&
      events
        .split('\n')
        .slice(0, -1)
        .every((line) => Array.isArray(JSON.parse(line)))
    ) {
      fs.appendFileSync(spool, events);
    }
  } catch (err) {
    logger.warn({ err, file: sidecar }, 'a recording’s held text could not be recovered');
  }
  fs.rmSync(sidecar, { force: true });
}

interface Upload {
  /**
   * A short session's bytes that never reached the spool (finishFromMemory): sent from here,
   * and written to the spool file only if the server has not taken them by `spoolTimer`.
   */
  memory?: Buffer;
  spoolTimer?: NodeJS.Timeout;
  /** Bytes the spool file could not take (a failed write): they follow its first `at` bytes. */
  tail?: { data: Buffer; at: number };
  /** Bytes the server is known to hold. */
  acked: number;
  /** When the chunk in flight was sent, or 0. */
  sentAt: number;
  /** The session is over: no more bytes will be appended. */
  finished: boolean;
  /** When the last chunk was read (0: none yet). */
  lastSentAt: number;
  /** The spool's size when the last chunk was read. */
  seenSize: number;
}

const makeUpload = (finished: boolean): Upload => ({
  acked: 0,
  sentAt: 0,
  finished,
  lastSentAt: 0,
  seenSize: 0,
});

export interface RecordingAck {
  connection_id: number;
  size: number;
  refused: boolean;
}

export interface Uploader {
  /** A session began recording to its spool file. */
  track(connectionId: number): void;
  /** Its recorder closed the file: upload the rest, then delete it. */
  finish(connectionId: number): void;
  /**
   * A session that ended before its log reached the disk (db-proxy/statement-log.ts): its
   * bytes go to the server from memory. They are written to the spool (and upload from there,
   * also after a restart) when the server has not taken them all by `spoolBy` (epoch ms), so
   * that they wait in memory no longer than they would have before reaching the disk.
   */
  finishFromMemory(connectionId: number, data: Buffer, spoolBy: number): void;
  /**
   * A session whose spool file stopped taking bytes (a write failed): the file's first
   * `fileBytes` upload from the file, then `tail` from memory, then the file is deleted.
   */
  finishWithTail(connectionId: number, tail: Buffer, fileBytes: number): void;
  onAck(ack: RecordingAck): void;
  /** The control channel (re)connected: nothing is in flight any more. */
  onConnected(): void;
  /** Resolves when no recording is left to upload (tests and orderly shutdown). */
  idle(timeoutMs: number): Promise<boolean>;
  stop(): void;
}

export function createUploader(
  dir: string,
  send: (chunk: RecordingChunk) => boolean,
  logger: Logger,
): Uploader {
  const uploads = new Map<number, Upload>();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const names = fs.readdirSync(dir);
  for (const name of names) {
    const match = SPOOL_NAME.exec(name);
    if (!match) continue;
    recoverHeld(dir, name, logger);
    uploads.set(Number(match[1]), makeUpload(true));
  }
  removeLeftBlanks(dir, names);
  // A sidecar without its spool (the recording was uploaded and deleted): nothing to add to.
  for (const name of names) {
    if (name.endsWith(`.cast${HELD_SUFFIX}`) && !names.includes(name.slice(0, -HELD_SUFFIX.length)))
      fs.rmSync(path.join(dir, name), { force: true });
  }
  if (uploads.size > 0) {
    logger.info({ recordings: uploads.size }, 'recordings left from a previous run will upload');
  }

  /** Spool files being deleted: a recording is not done with until its file is gone. */
  const removing = new Set<Promise<void>>();
  const drop = (id: number): void => {
    const upload = uploads.get(id);
    uploads.delete(id);
    if (upload?.memory) {
      clearTimeout(upload.spoolTimer);
      return; // never on disk: nothing to delete
    }
    // Emptied and kept for a later session's spool (spool-blanks.ts), or deleted.
    const removal = recycleSpool(path.join(dir, `${id}.cast`))
      .catch((err: unknown) => {
        logger.warn({ err, connection_id: id }, 'could not delete an uploaded recording spool');
      })
      .finally(() => removing.delete(removal));
    removing.add(removal);
  };

  const step = async (id: number, upload: Upload): Promise<void> => {
    const now = Date.now();
    if (upload.sentAt !== 0 && now - upload.sentAt < ACK_TIMEOUT_MS) return;
    const wholeChunkWaits = upload.seenSize - upload.acked >= RECORDING_CHUNK_BYTES;
    if (!upload.finished && !wholeChunkWaits && now - upload.lastSentAt < LIVE_INTERVAL_MS) {
      return;
    }
    upload.sentAt = now; // claims the slot before the first await
    if (upload.memory) return stepFromMemory(id, upload, upload.memory, 0);
    const { tail } = upload;
    if (tail && upload.acked >= tail.at) return stepFromMemory(id, upload, tail.data, tail.at);
    try {
      const handle = await fs.promises.open(path.join(dir, `${id}.cast`), 'r');
      try {
        // Past the bytes a failed write left in the file, the tail follows.
        const size = Math.min((await handle.stat()).size, tail?.at ?? Infinity);
        if (size <= upload.acked) {
          upload.sentAt = 0;
          if (upload.finished && !tail) drop(id);
          return;
        }
        const length = Math.min(RECORDING_CHUNK_BYTES, size - upload.acked);
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, upload.acked);
        upload.seenSize = size;
        sendChunk(id, upload, buffer.subarray(0, bytesRead));
      } finally {
        await handle.close();
      }
    } catch (err) {
      upload.sentAt = 0;
      // A live session's spool may not exist yet (its recorder is opening it).
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        if (upload.finished) uploads.delete(id);
        return;
      }
      logger.warn({ err, connection_id: id }, 'could not read a recording spool');
    }
  };

  const sendChunk = (id: number, upload: Upload, data: Buffer): void => {
    upload.lastSentAt = Date.now();
    const sent = send({ connection_id: id, offset: upload.acked, data });
    if (!sent) upload.sentAt = 0;
  };

  /** Sends from `memory`, which holds the recording's bytes from offset `base` on. */
  const stepFromMemory = (id: number, upload: Upload, memory: Buffer, base: number): void => {
    const from = upload.acked - base;
    if (memory.length <= from) {
      upload.sentAt = 0;
      drop(id);
      return;
    }
    upload.seenSize = base + memory.length;
    sendChunk(id, upload, memory.subarray(from, from + RECORDING_CHUNK_BYTES));
  };

  /**
   * The server did not take a memory upload in time, or the gateway stops: the bytes go to the
   * spool file (a tail after the file's own bytes), so that they upload from there.
   */
  const spoolMemory = (id: number, upload: Upload): void => {
    const { memory, tail } = upload;
    if ((!memory && !tail) || uploads.get(id) !== upload) return;
    const file = path.join(dir, `${id}.cast`);
    try {
      if (memory) fs.writeFileSync(file, memory, { mode: 0o600 });
      else if (tail) {
        fs.truncateSync(file, tail.at); // whatever a failed write left past it goes
        fs.appendFileSync(file, tail.data);
      }
      // The file holds the same bytes at the same offsets.
      upload.memory = undefined;
      upload.tail = undefined;
    } catch (err) {
      logger.warn({ err, connection_id: id }, 'could not spool a statement log; kept in memory');
    }
  };

  const pump = (): void => {
    for (const [id, upload] of uploads) void step(id, upload);
  };
  const timer = setInterval(pump, PUMP_MS);
  timer.unref();

  return {
    track(id) {
      if (!uploads.has(id)) uploads.set(id, makeUpload(false));
    },
    finish(id) {
      const upload = uploads.get(id);
      if (!upload) return;
      upload.finished = true;
      void step(id, upload);
    },
    finishFromMemory(id, data, spoolBy) {
      if (uploads.has(id) || data.length === 0) return;
      const upload: Upload = { ...makeUpload(true), memory: data };
      upload.spoolTimer = setTimeout(
        () => spoolMemory(id, upload),
        Math.max(0, spoolBy - Date.now()),
      );
      upload.spoolTimer.unref();
      uploads.set(id, upload);
      void step(id, upload);
    },
    finishWithTail(id, tail, fileBytes) {
      const upload = uploads.get(id) ?? makeUpload(true);
      uploads.set(id, upload);
      upload.finished = true;
      if (tail.length > 0) upload.tail = { data: tail, at: fileBytes };
      void step(id, upload);
    },
    onAck(ack) {
      const upload = uploads.get(ack.connection_id);
      if (!upload) return;
      if (ack.refused) {
        logger.warn({ connection_id: ack.connection_id }, 'the server refused a recording');
        return drop(ack.connection_id);
      }
      upload.acked = ack.size;
      upload.sentAt = 0;
      // Straight on to the next chunk when a whole one waits (a busy session's backlog drains
      // at channel speed) or the session has ended; else the pump sends the rest in time.
      void step(ack.connection_id, upload);
    },
    onConnected() {
      for (const upload of uploads.values()) upload.sentAt = 0;
      pump();
    },
    async idle(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (uploads.size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Uploaded is not idle until the spool file is deleted (a caller may look for it).
      await Promise.all(removing);
      return uploads.size === 0;
    },
    stop() {
      clearInterval(timer);
      // An orderly stop keeps what only memory holds, for the next run to upload.
      for (const [id, upload] of uploads) {
        clearTimeout(upload.spoolTimer);
        spoolMemory(id, upload);
      }
    },
  };
}
