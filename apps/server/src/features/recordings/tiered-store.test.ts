// The server's recording store: a one-chunk recording is a row, a second chunk moves it to a
// file; the connection's recording flag is set with the first bytes; reads find either.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { INLINE_MAX_BYTES, recordingStore, tieredRecordingStore } from './tiered-store';
import { filesystemRecordingStore, type RecordingKey, type RecordingStore } from './store';

describe('the server recording store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A fresh connection row of the first team, with no recording yet. */
  const connection = async (): Promise<RecordingKey> => {
    const row = await t.ctx.db
      .insertInto('tunnel_connection')
      .values({ company_id: 1, account_id: 1, created_at: 1, ended_at: 2, way: 'postgresql' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { companyId: 1, connectionId: row.id };
  };
  const fileOf = (key: RecordingKey) =>
    path.join(t.dataDir, 'recordings', String(key.companyId), `${key.connectionId}.cast`);
  const flag = async (key: RecordingKey) =>
    (
      await t.ctx.db
        .selectFrom('tunnel_connection')
        .select('recording')
        .where('id', '=', key.connectionId)
        .executeTakeFirstOrThrow()
    ).recording;
  const rows = async (key: RecordingKey) =>
    (
      await t.ctx.db
        .selectFrom('recording_inline')
        .select('connection_id')
        .where('connection_id', '=', key.connectionId)
        .execute()
    ).length;

  it('keeps a recording of one chunk as a row, and marks the connection with it', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    expect(await store.state(key)).toBe('missing');
    expect(await store.read(key)).toBeNull();
    expect(await store.write(key, 0, Buffer.from('{"a":1}\n'), { recorded: false })).toBe(8);
    expect(await flag(key)).toBe(1);
    expect(fs.existsSync(fileOf(key))).toBe(false);
    expect(await store.state(key)).toBe('available');
    expect((await store.read(key))!.toString()).toBe('{"a":1}\n');
    // A repeat (a gateway that did not see the ack) changes nothing.
    expect(await store.write(key, 0, Buffer.from('{"a":1}\n'), { recorded: true })).toBe(8);
    expect(await rows(key)).toBe(1);
  });

  it('asks for the start of a recording a later chunk arrives first for, and makes no file', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    // Nothing is held: the answer (0) asks the gateway to send from the start.
    expect(await store.write(key, 100, Buffer.from('later\n'), { recorded: false })).toBe(0);
    expect(fs.existsSync(fileOf(key))).toBe(false);
    expect(await store.write(key, 0, Buffer.from('{"a":1}\n'), { recorded: false })).toBe(8);
    // Before, the first chunk went to a row while an empty file, read first, hid it.
    expect((await store.read(key))!.toString()).toBe('{"a":1}\n');
  });

  it('moves a recording to a file when a second chunk comes, keeping every byte once', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    expect(await store.write(key, 0, Buffer.from('abc'), { recorded: false })).toBe(3);
    expect(await store.write(key, 9, Buffer.from('zz'), { recorded: true })).toBe(3); // a gap
    expect(await store.write(key, 2, Buffer.from('cdef'), { recorded: true })).toBe(6); // overlap
    expect(await rows(key)).toBe(0);
    expect(fs.readFileSync(fileOf(key), 'utf8')).toBe('abcdef');
    expect(await store.write(key, 6, Buffer.from('g'), { recorded: true })).toBe(7);
    expect((await store.read(key))!.toString()).toBe('abcdefg');
    expect(await flag(key)).toBe(1);
  });

  it('writes a first chunk too large for a row straight to a file', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    const big = Buffer.alloc(INLINE_MAX_BYTES + 1, 'x');
    expect(await store.write(key, 0, big, { recorded: false })).toBe(big.length);
    expect(await rows(key)).toBe(0);
    expect(fs.statSync(fileOf(key)).size).toBe(big.length);
    expect(await flag(key)).toBe(1);
  });

  it('serialises concurrent writes to one recording', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    const sizes = await Promise.all([
      store.write(key, 0, Buffer.from('0123'), { recorded: false }),
      store.write(key, 0, Buffer.from('0123'), { recorded: false }),
      store.write(key, 4, Buffer.from('4567'), { recorded: true }),
    ]);
    expect(sizes).toEqual([4, 4, 8]);
    expect((await store.read(key))!.toString()).toBe('01234567');
    expect(await rows(key)).toBe(0);
  });

  it('takes a second chunk whose caller saw no recording yet (read before the first was stored)', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    const sizes = await Promise.all([
      store.write(key, 0, Buffer.from('abc'), { recorded: false }),
      store.write(key, 3, Buffer.from('def'), { recorded: false }),
    ]);
    expect(sizes).toEqual([3, 6]);
    expect(fs.readFileSync(fileOf(key), 'utf8')).toBe('abcdef');
    expect(await rows(key)).toBe(0);
    expect(await flag(key)).toBe(1);
  });

  it('answers a repeated first chunk from the row, making no file', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    const twice = await Promise.all([
      store.write(key, 0, Buffer.from('xyz'), { recorded: false }),
      store.write(key, 0, Buffer.from('xyz'), { recorded: false }),
    ]);
    expect(twice).toEqual([3, 3]);
    expect(fs.existsSync(fileOf(key))).toBe(false);
    expect(await rows(key)).toBe(1);
  });

  it('reads the file when a move was cut between the file and the row', async () => {
    const store = recordingStore(t.ctx);
    const key = await connection();
    expect(await store.write(key, 0, Buffer.from('abc'), { recorded: false })).toBe(3);
    // As if the server died after writing the file and before deleting the row.
    fs.writeFileSync(fileOf(key), 'abcdef');
    expect((await store.read(key))!.toString()).toBe('abcdef');
    // The next chunk finds the file holding more than the row, and adds only what is new.
    expect(await store.write(key, 3, Buffer.from('defgh'), { recorded: true })).toBe(8);
    expect(fs.readFileSync(fileOf(key), 'utf8')).toBe('abcdefgh');
    expect(await rows(key)).toBe(0);
  });

  it('reads the whole row while a move has only half written the file', async () => {
    // The file store under the move writes half, then waits for the test to let it finish.
    const files = filesystemRecordingStore(t.dataDir);
    let halfWritten!: () => void;
    const half = new Promise<void>((resolve) => (halfWritten = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const gated: RecordingStore = {
      ...files,
      async write(key, offset, data) {
        const cut = Math.floor(data.length / 2);
        await files.write(key, offset, data.subarray(0, cut));
        halfWritten();
        await finished;
        return files.write(key, offset + cut, data.subarray(cut));
      },
    };
    const store = tieredRecordingStore(t.ctx.db, gated);
    const key = await connection();
    const first = Buffer.from('x'.repeat(1000));
    expect(await store.write(key, 0, first, { recorded: false })).toBe(1000);
    const moving = store.write(key, 1000, Buffer.from('y'.repeat(10)), { recorded: true });
    await half;
    // Before, the half-written file (505 bytes) came back instead of the row's 1000.
    expect((await store.read(key))!.toString()).toBe(first.toString());
    finish();
    expect(await moving).toBe(1010);
    expect((await store.read(key))!.length).toBe(1010);
    expect(await rows(key)).toBe(0);
  });
});
