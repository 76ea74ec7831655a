/**
 * Terminal session recording on the gateway: a recorder per session spools asciicast v2 to
 * `<dataDir>/recordings/`, and the uploader streams the spool to the server (see each module).
 */
import path from 'node:path';
import type { Logger } from '../core/logger';
import type { RecordingChunk } from '../control/protocol';
import type { LogFilterMatcher } from './log-filter';
import { createSessionRecorder, type SessionRecorder } from './recorder';
import { createUploader, type RecordingAck } from './uploader';

export type { ChannelOptions, ChannelTap, SessionRecorder, TerminalSize } from './recorder';
export { STREAM_RECORD_BYTES } from './recorder';
export { hideMatch, logFilterMatcher, type LogFilterMatcher } from './log-filter';

export interface Recordings {
  /**
   * Starts recording one session (call once per connection). `onFailure`: the recording
   * cannot be written, and the session must end. `logFilter`: the cluster's log filters
   * (session_started's log_filters), applied to what is stored.
   */
  open(connectionId: number, onFailure: () => void, logFilter?: LogFilterMatcher): SessionRecorder;
  /**
   * A recording another process (an SSH worker) spools into this folder began, or its
   * recorder closed the file: upload it, then delete it.
   */
  track(connectionId: number): void;
  finish(connectionId: number): void;
  /** A session's log that never reached the spool: see Uploader.finishFromMemory. */
  finishFromMemory(connectionId: number, data: Buffer, spoolBy: number): void;
  /** A session's log whose spool file failed: see Uploader.finishWithTail. */
  finishWithTail(connectionId: number, tail: Buffer, fileBytes: number): void;
  onAck(ack: RecordingAck): void;
  onConnected(): void;
  idle(timeoutMs: number): Promise<boolean>;
  stop(): void;
}

export function recordingSpool(dataDir: string): string {
  return path.join(dataDir, 'recordings');
}

export function createRecordings(
  dataDir: string,
  send: (chunk: RecordingChunk) => boolean,
  logger: Logger,
  /** A smaller size limit than the contract's, for tests. */
  maxBytes?: number,
): Recordings {
  const uploader = createUploader(recordingSpool(dataDir), send, logger);
  const spool = createSpoolOnlyRecordings(
    dataDir,
    logger,
    (op, connectionId) =>
      op === 'track' ? uploader.track(connectionId) : uploader.finish(connectionId),
    maxBytes,
  );
  return {
    open: (connectionId, onFailure, logFilter) => spool.open(connectionId, onFailure, logFilter),
    track: (id) => uploader.track(id),
    finish: (id) => uploader.finish(id),
    finishFromMemory: (id, data, spoolBy) => uploader.finishFromMemory(id, data, spoolBy),
    finishWithTail: (id, tail, fileBytes) => uploader.finishWithTail(id, tail, fileBytes),
    onAck: (ack) => uploader.onAck(ack),
    onConnected: () => uploader.onConnected(),
    idle: (timeoutMs) => uploader.idle(timeoutMs),
    stop: () => uploader.stop(),
  };
}

/**
 * Recording for a process that spools but does not upload (an SSH worker): each session's
 * recorder writes `<dataDir>/recordings/<id>.cast` as usual, and `notify` tells the process
 * that uploads (the gateway's primary) when one begins and when its file is closed.
 */
export function createSpoolOnlyRecordings(
  dataDir: string,
  logger: Logger,
  notify: (op: 'track' | 'finish', connectionId: number) => void,
  /** A smaller size limit than the contract's, for tests. */
  maxBytes?: number,
): Pick<Recordings, 'open'> {
  const dir = recordingSpool(dataDir);
  return {
    open(connectionId, onFailure, logFilter) {
      const recorder = createSessionRecorder(
        dir,
        connectionId,
        logger,
        onFailure,
        maxBytes,
        logFilter,
      );
      notify('track', connectionId);
      return {
        channel: (size, options) => recorder.channel(size, options),
        close: async () => {
          await recorder.close();
          notify('finish', connectionId);
        },
      };
    },
  };
}
