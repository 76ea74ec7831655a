// The spool writer on a real file: order, one write at a time, the flush period and the eager
// size, the alongside write, abandoning, and a file that cannot be opened.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSpoolWriter } from './spool-writer';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-spool-writer-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const read = (file: string): string => fs.readFileSync(file, 'utf8');
const never = (): void => {
  throw new Error('onError was not expected');
};

describe('spool writer', () => {
  it('appends in order within the flush period, and close writes what waits', async () => {
    const file = path.join(dir, '1.cast');
    fs.writeFileSync(file, 'old\n');
    const spool = createSpoolWriter(file, { flushMs: 50, onError: never });
    spool.push('a\n');
    spool.push('b\n');
    expect(spool.pendingBytes).toBe(4);
    // The writer's count, not the file: the file shows the bytes before the write's callback
    // has counted them.
    await expect.poll(() => spool.written).toBe(4);
    expect(read(file)).toBe('old\na\nb\n');
    expect(spool.pendingBytes).toBe(0);
    expect(spool.size).toBe(8);
    spool.push('c\n');
    await spool.close();
    expect(read(file)).toBe('old\na\nb\nc\n');
    expect(spool.closed).toBe(true);
    spool.push('after close\n');
    expect(spool.pendingBytes).toBe(0);
  });

  it('writes at once past the eager size, and what arrives during a write goes next', async () => {
    const file = path.join(dir, '2.cast');
    const spool = createSpoolWriter(file, { flushMs: 60_000, eagerBytes: 3, onError: never });
    spool.push('xyz');
    expect(spool.writing).toBe(true);
    spool.push('1');
    spool.push('2');
    spool.push('3');
    await expect.poll(() => read(file)).toBe('xyz123');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    await spool.close();
  });

  it('makes the alongside write after the text, with the size that includes it', async () => {
    const file = path.join(dir, '3.cast');
    const seen: number[] = [];
    let extra = true;
    const spool = createSpoolWriter(file, {
      flushMs: 10,
      onError: never,
      alongside: () => {
        if (!extra) return undefined;
        extra = false;
        return () => {
          seen.push(spool.size);
          return Promise.resolve();
        };
      },
    });
    spool.push('hello');
    await spool.flush();
    expect(seen).toEqual([5]);
    // With nothing queued, schedule() still brings the alongside write within the period.
    extra = true;
    spool.schedule();
    await expect.poll(() => seen.length).toBe(2);
    await spool.close();
  });

  it('abandon drops what waits and writes nothing more', async () => {
    const file = path.join(dir, '4.cast');
    const spool = createSpoolWriter(file, { flushMs: 10, onError: never });
    spool.push('kept\n');
    await spool.flush();
    spool.push('dropped\n');
    spool.abandon();
    expect(spool.failed).toBe(true);
    spool.push('ignored\n');
    await spool.close();
    expect(read(file)).toBe('kept\n');
  });

  it('reports a file that cannot be opened once, and takes nothing more', async () => {
    const errors: string[] = [];
    const spool = createSpoolWriter(path.join(dir, 'no-such-dir', '5.cast'), {
      flushMs: 10,
      onError: (_err, stage) => errors.push(stage),
    });
    spool.push('lost\n');
    await expect.poll(() => errors).toEqual(['open']);
    expect(spool.failed).toBe(true);
    spool.push('more\n');
    await spool.close();
    expect(errors).toEqual(['open']);
  });

  it('keeps what a failed write did not put in the file, in order, after the file’s bytes', async () => {
    const file = path.join(dir, 'full.cast');
    fs.symlinkSync('/dev/full', file); // every write fails with ENOSPC
    const errors: string[] = [];
    const writer = createSpoolWriter(file, {
      flushMs: 10,
      onError: (err, stage) => errors.push(`${stage} ${(err as NodeJS.ErrnoException).code}`),
    });
    writer.push('one\n');
    await writer.flush();
    writer.push('ignored once failed\n');
    await writer.close();
    expect(errors).toEqual(['write ENOSPC']);
    expect(writer.size).toBe(0);
    expect(Buffer.concat(writer.takeUnwritten()).toString()).toBe('one\n');
    expect(writer.takeUnwritten()).toEqual([]); // handed over once
  });

  it('closes the file it opened when it cannot read its size', async () => {
    const realOpen = fs.promises.open.bind(fs.promises);
    const handles: fs.promises.FileHandle[] = [];
    const open = vi.spyOn(fs.promises, 'open').mockImplementation(async (...args) => {
      const handle = await realOpen(...args);
      handle.stat = (() => Promise.reject(new Error('EIO'))) as typeof handle.stat;
      handles.push(handle);
      return handle;
    });
    try {
      const failed = new Promise<string>((resolve) => {
        createSpoolWriter(path.join(dir, 'eio.cast'), {
          flushMs: 10,
          onError: (_err, stage) => resolve(stage),
        });
      });
      expect(await failed).toBe('open');
      expect(handles).toHaveLength(1);
      expect(handles[0]!.fd).toBe(-1); // closed
    } finally {
      open.mockRestore();
    }
  });
});
