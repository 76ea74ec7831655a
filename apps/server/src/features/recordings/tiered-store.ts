/**
 * The recording store the server uses: a recording that is one chunk so far, of no more than
 * {@link INLINE_MAX_BYTES}, is a row in the database (`recording_inline`); a second chunk
 * moves it to the file store. A short session's statement log or recording arrives whole in
 * its first chunk, so most never become a file: where a new file is dear (ext4 without a
 * journal walks its inode bitmap past every inode freed in the last minutes), making one cost
 * more than the rest of the session's server work together (bench/RESULTS.md).
 *
 * The row is written in one transaction with the connection's `recording` flag. When the row
 * moves, the file is written before the row is deleted, so a crash between the two leaves both,
 * the file holding at least what the row does: reads take the file once it holds as much.
 */
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import {
  filesystemRecordingStore,
  keyedLock,
  type RecordingKey,
  type RecordingState,
  type RecordingStore,
} from './store';

/** The largest first chunk kept in the database. */
export const INLINE_MAX_BYTES = 64 * 1024;

export interface WriteOptions {
  /** Whether the connection row already says it has a recording (bytes are held somewhere). */
  recorded: boolean;
}

export interface SessionRecordingStore extends Omit<RecordingStore, 'write'> {
  /**
   * Stores `data`, which starts at byte `offset`, and marks the connection row as recorded
   * with its first bytes; resolves with the size now held.
   */
  write(
    key: RecordingKey,
    offset: number,
    data: Uint8Array,
    options: WriteOptions,
  ): Promise<number>;
}

export function tieredRecordingStore(
  db: Kysely<Database>,
  files: RecordingStore,
): SessionRecordingStore {
  const serialised = keyedLock();
  const markRecorded = async (q: Kysely<Database>, key: RecordingKey): Promise<void> => {
    await q
      .updateTable('tunnel_connection')
      .set({ recording: 1 })
      .where('id', '=', key.connectionId)
      .execute();
  };
  const inlineOf = async (key: RecordingKey): Promise<Buffer | null> => {
    const row = await db
      .selectFrom('recording_inline')
      .select('data')
      .where('connection_id', '=', key.connectionId)
      .executeTakeFirst();
    return row?.data ?? null;
  };

  /** Keeps a first chunk as a row; false when a row is there already. */
  const insertInline = (key: RecordingKey, data: Uint8Array): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('recording_inline')
        .values({
          connection_id: key.connectionId,
          company_id: key.companyId,
          // Both drivers bind a Buffer as a blob; a view, not a copy.
          data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
        })
        .onConflict((oc) => oc.column('connection_id').doNothing())
        .executeTakeFirst();
      if (inserted.numInsertedOrUpdatedRows !== 1n) return false;
      await markRecorded(trx, key);
      return true;
    });

  // The row first: a move writes the file and then deletes the row, so once the row is gone
  // the file is whole. While both are there the file may be half written (a move in progress)
  // or hold more (a move cut short): it is read once it holds the row's bytes.
  const read = async (key: RecordingKey): Promise<Buffer | null> => {
    const inline = await inlineOf(key);
    const file = await files.read(key);
    if (!inline) return file;
    return file && file.length >= inline.length ? file : inline;
  };
  return {
    write(key, offset, data, { recorded }) {
      return serialised(String(key.connectionId), async () => {
        const first = !recorded && offset === 0 && data.length > 0;
        if (first && data.length <= INLINE_MAX_BYTES && (await insertInline(key, data))) {
          return data.length;
        }
        // Asked whatever `recorded` said: the caller read it before this write's turn came, and
        // a chunk stored in between may have made the row.
        const inline = await inlineOf(key);
        if (inline) {
          const held = inline.length;
          const end = offset + data.length;
          if (offset > held || end <= held) return held;
          // The recording outgrows its row: the whole of it to a file, then the row goes.
          const whole = Buffer.concat([inline, data.subarray(held - offset)]);
          const size = await files.write(key, 0, whole);
          await db
            .deleteFrom('recording_inline')
            .where('connection_id', '=', key.connectionId)
            .execute();
          return size;
        }
        const size = await files.write(key, offset, data);
        if (!recorded && size > 0) await markRecorded(db, key);
        return size;
      });
    },
    read,
    async readRange(key, offset, length) {
      // A recording still in the database is small (INLINE_MAX_BYTES): read() settles which
      // copy is whole while a move is under way.
      if (await inlineOf(key)) {
        const whole = await read(key);
        return whole && { data: whole.subarray(offset, offset + length), size: whole.length };
      }
      return files.readRange(key, offset, length);
    },
    async state(key): Promise<RecordingState> {
      const state = await files.state(key);
      if (state !== 'missing') return state;
      return (await inlineOf(key)) ? 'available' : 'missing';
    },
    restore: (key) => files.restore(key),
  };
}

const fileStores = new Map<string, RecordingStore>();
const stores = new WeakMap<Kysely<Database>, SessionRecordingStore>();

/**
 * The store of a server: one per database handle, over one file store per data folder (so
 * that a write lock covers every caller of a folder, a restarted server's too).
 */
export function recordingStore(ctx: AppContext): SessionRecordingStore {
  let store = stores.get(ctx.db);
  if (!store) {
    let files = fileStores.get(ctx.config.dataDir);
    if (!files)
      fileStores.set(ctx.config.dataDir, (files = filesystemRecordingStore(ctx.config.dataDir)));
    stores.set(ctx.db, (store = tieredRecordingStore(ctx.db, files)));
  }
  return store;
}
