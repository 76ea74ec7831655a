// The filesystem recording store: chunks kept by offset, repeats and overlaps ignored, gaps
// refused, concurrent writes to one recording serialised.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { longestPauseDuring } from '../../test/event-loop';
import { castForReader } from './cast-filter';
import { filesystemRecordingStore } from './store';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-recordings-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the filesystem recording store', () => {
  const store = filesystemRecordingStore(dir);
  const key = { companyId: 3, connectionId: 11 };

  it('keeps chunks by offset, idempotently', async () => {
    expect(await store.read(key)).toBeNull();
    expect(await store.write(key, 0, Buffer.from('abc'))).toBe(3);
    expect(await store.write(key, 0, Buffer.from('abc'))).toBe(3); // a repeat
    expect(await store.write(key, 2, Buffer.from('cde'))).toBe(5); // an overlap
    expect(await store.write(key, 9, Buffer.from('zz'))).toBe(5); // a gap: resend from 5
    expect((await store.read(key))!.toString()).toBe('abcde');
    expect(fs.existsSync(path.join(dir, 'recordings', '3', '11.cast'))).toBe(true);
  });

  it('reads a range and says the whole size, null when there is no recording', async () => {
    expect(await store.readRange({ companyId: 3, connectionId: 99 }, 0, 10)).toBeNull();
    const range = await store.readRange(key, 1, 3);
    expect({ data: range?.data.toString(), size: range?.size }).toEqual({ data: 'bcd', size: 5 });
    expect((await store.readRange(key, 3, 100))?.data.toString()).toBe('de');
    expect((await store.readRange(key, 5, 100))?.data.length).toBe(0);
  });

  it('serialises concurrent writes to one recording', async () => {
    const other = { companyId: 3, connectionId: 12 };
    const sizes = await Promise.all([
      store.write(other, 0, Buffer.from('0123')),
      store.write(other, 0, Buffer.from('0123')),
      store.write(other, 4, Buffer.from('4567')),
    ]);
    expect(sizes).toEqual([4, 4, 8]);
    expect((await store.read(other))!.toString()).toBe('01234567');
  });

  it('completes a recording whose first write was cut short', async () => {
    const cut = { companyId: 3, connectionId: 14 };
    fs.writeFileSync(path.join(dir, 'recordings', '3', '14.cast'), 'ab');
    expect(await store.write(cut, 0, Buffer.from('abcd'))).toBe(4);
    expect((await store.read(cut))!.toString()).toBe('abcd');
  });

  it('makes the team folder again when it was removed behind its back', async () => {
    const gone = { companyId: 4, connectionId: 13 };
    expect(await store.write(gone, 0, Buffer.from('ab'))).toBe(2);
    fs.rmSync(path.join(dir, 'recordings', '4'), { recursive: true });
    // The store remembers the folder; the write still lands (from the start: the file went too).
    expect(await store.write(gone, 0, Buffer.from('ab'))).toBe(2);
    expect((await store.read(gone))!.toString()).toBe('ab');
  });
});

describe('a recording shaped for its reader', () => {
  const cast = [
    '{"version": 2, "width": 80, "height": 24}',
    '[0.1, "o", "$ "]',
    '[0.2, "i", "secret\\r"]',
    '[0.3, "r", "100x30"]',
    '[0.4, "o", "partial',
  ].join('\n');

  it('keeps whole lines only, and input only for those who may see it', async () => {
    const all = (await castForReader(Buffer.from(cast), true)).toString();
    expect(all.split('\n')).toHaveLength(5);
    expect(all).toContain('secret');
    expect(all).not.toContain('partial');
    const noInput = (await castForReader(Buffer.from(cast), false)).toString();
    expect(noInput).not.toContain('secret');
    expect(noInput.trimEnd().split('\n')).toHaveLength(3);
    expect(noInput.endsWith('\n')).toBe(true);
  });

  it('leaves the server free while it shapes a large recording', async () => {
    // 128 MB of output with typed input among it (a 256 MB one held the server for 10 s).
    const block = Buffer.from(
      Array.from({ length: 1000 }, (_, i) =>
        i % 10 === 0 ? `[${i}.5, "i", "typed"]` : `[${i}.25, "o", "${'x'.repeat(60)}"]`,
      ).join('\n') + '\n',
    );
    const file = Buffer.concat([
      Buffer.from('{"version": 2, "width": 80, "height": 24}\n'),
      ...Array.from({ length: Math.ceil((128 * 2 ** 20) / block.length) }, () => block),
    ]);
    const { result: shaped, longest } = await longestPauseDuring(() => castForReader(file, false));
    expect(longest).toBeLessThan(500);
    expect(shaped.includes('"i"')).toBe(false);
    expect(shaped.subarray(0, 12).toString()).toBe('{"version": ');
    expect(shaped.length).toBeLessThan(file.length);
  }, 60_000);
});
