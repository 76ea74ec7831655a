/**
 * Where recordings are kept. The filesystem store (the default) writes
 * `<dataDir>/recordings/<company_id>/<connection_id>.cast`; an S3 store can take its place
 * behind the same interface (STORAGE_URL, later). The server keeps a recording of one small
 * chunk in its database first and uses this store once it grows (tiered-store.ts).
 *
 * Chunks arrive from gateways by offset and may repeat or overlap after a reconnect or a
 * gateway restart: a write keeps only the bytes beyond what is held, and refuses a gap (the
 * caller learns the size held and the gateway resends from there). Writes to one recording are
 * serialised in this process.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface RecordingKey {
  companyId: number;
  connectionId: number;
}

export interface RecordingStore {
  /** Stores `data`, which starts at byte `offset`; resolves with the size now held. */
  write(key: RecordingKey, offset: number, data: Uint8Array): Promise<number>;
  /** The whole recording, or null when there is none. */
  read(key: RecordingKey): Promise<Buffer | null>;
  /**
   * At most `length` bytes from `offset` and the recording's whole size, or null when there is
   * none: a live session's watcher reads what is new, not the whole file every second.
   */
  readRange(key: RecordingKey, offset: number, length: number): Promise<RecordingRange | null>;
  /**
   * Where the recording is: ready to read, in an archive tier (read after a restore), being
   * restored, or not there at all. The filesystem store has no archive tier.
   */
  state(key: RecordingKey): Promise<RecordingState>;
  /** Starts bringing an archived recording back (S3 restore); nothing for the filesystem. */
  restore(key: RecordingKey): Promise<void>;
}

export interface RecordingRange {
  data: Buffer;
  size: number;
}

export type RecordingState = 'available' | 'archived' | 'restoring' | 'missing';

/**
 * Runs work for one key after the work before it for that key has settled (whether it
 * succeeded or not); work for other keys runs alongside.
 */
export function keyedLock(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const locks = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const previous = locks.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    locks.set(key, settled);
    void settled.then(() => {
      if (locks.get(key) === settled) locks.delete(key);
    });
    return next;
  };
}

export function filesystemRecordingStore(dataDir: string): RecordingStore {
  const root = path.join(dataDir, 'recordings');
  /** Company folders known to exist: a live recording's every chunk need not ask again. */
  const folders = new Set<string>();
  // Both parts are integers (the caller's types and the database say so): never a path a
  // client chose.
  const fileOf = (key: RecordingKey): string =>
    path.join(root, String(Math.trunc(key.companyId)), `${Math.trunc(key.connectionId)}.cast`);

  const serialised = keyedLock();

  return {
    write(key, offset, data) {
      const file = fileOf(key);
      return serialised(file, async () => {
        const folder = path.dirname(file);
        if (!folders.has(folder)) {
          await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
          folders.add(folder);
        }
        // A recording's first chunk (often all of it: a short database session's log) makes
        // the file: open, write, close, with no size to ask. A file already there (a repeat,
        // or a first write cut short) or a folder gone takes the way below.
        if (offset === 0 && (await writeNew(file, data))) return data.length;
        // A chunk past the start of a recording with no file waits for the start (the answer,
        // 0, asks for it); opening the file for it made an empty one, which hid a recording
        // kept in the database (tiered-store.ts reads the file first).
        if (offset > 0 && !(await exists(file))) return 0;
        const handle = await fs.promises.open(file, 'a+', 0o600).catch(async (err: unknown) => {
          // The folder went (removed by hand, or the data folder was reset): make it again.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
          return fs.promises.open(file, 'a+', 0o600);
        });
        try {
          const { size } = await handle.stat();
          const end = offset + data.length;
          if (offset > size || end <= size) return size;
          await handle.write(data.subarray(size - offset));
          return end;
        } finally {
          await handle.close();
        }
      });
    },
    async state(key) {
      try {
        await fs.promises.access(fileOf(key));
        return 'available';
      } catch {
        return 'missing';
      }
    },
    async restore() {},
    async read(key) {
      try {
        return await fs.promises.readFile(fileOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async readRange(key, offset, length) {
      let file: fs.promises.FileHandle;
      try {
        file = await fs.promises.open(fileOf(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      try {
        const { size } = await file.stat();
        const data = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await file.read(data, 0, data.length, offset);
        return { data: data.subarray(0, bytesRead), size };
      } finally {
        await file.close();
      }
    },
  };
}

/**
 * Writes a file that must not exist yet; false when it does (or its folder does not). The
 * callback API, one promise in all: the recording store writes a file per session, and the
 * promise API's file handles cost several times as much per call.
 */
function writeNew(file: string, data: Uint8Array): Promise<boolean> {
  return new Promise((resolve, reject) => {
    fs.writeFile(file, data, { flag: 'wx', mode: 0o600 }, (err) => {
      if (!err) resolve(true);
      else if (err.code === 'EEXIST' || err.code === 'ENOENT') resolve(false);
      else reject(err);
    });
  });
}

function exists(file: string): Promise<boolean> {
  return fs.promises.access(file).then(
    () => true,
    () => false,
  );
}
