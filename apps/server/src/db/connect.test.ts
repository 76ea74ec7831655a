import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openDatabase } from './connect';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** SQLite's `PRAGMA synchronous` of a database opened as the server opens it: 1 NORMAL, 2 FULL. */
async function synchronousOf(setting?: 'normal' | 'full'): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-db-'));
  dirs.push(dataDir);
  const db = await openDatabase({
    databaseUrl: null,
    dataDir,
    ...(setting && { sqliteSynchronous: setting }),
  });
  try {
    const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db.kysely);
    return rows[0]!.synchronous;
  } finally {
    await db.kysely.destroy();
  }
}

describe('the SQLite database', () => {
  it('commits without a sync to the disk unless SQLITE_SYNCHRONOUS=full', async () => {
    expect(loadConfig({}).sqliteSynchronous).toBe('normal');
    expect(loadConfig({ SQLITE_SYNCHRONOUS: 'FULL' }).sqliteSynchronous).toBe('full');
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow(/normal or full/);
    expect(await synchronousOf()).toBe(1);
    expect(await synchronousOf('normal')).toBe(1);
    expect(await synchronousOf('full')).toBe(2);
  });

  it('is readable by its owner alone, in a folder of its owner alone', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-db-'));
    dirs.push(parent);
    const dataDir = path.join(parent, 'data');
    const db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      await sql`create table probe (n integer)`.execute(db.kysely);
      const mode = (f: string) => fs.statSync(path.join(dataDir, f)).mode & 0o777;
      // Before: a new folder 0755 and the file 0644 (the umask's), readable by every local user.
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(mode('portcullis.db')).toBe(0o600);
      expect(mode('portcullis.db-wal')).toBe(0o600);
    } finally {
      await db.kysely.destroy();
    }
  });
});
