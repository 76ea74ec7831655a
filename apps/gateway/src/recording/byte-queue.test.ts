// The byte queue behind the spool writer: text in, the same UTF-8 bytes out in order, across
// buffer boundaries, with multibyte characters and a text longer than a buffer.
import { describe, expect, it } from 'vitest';
import { ByteQueue } from './byte-queue';

const joined = (buffers: Buffer[]): string => Buffer.concat(buffers).toString('utf8');

describe('byte queue', () => {
  it('gives back every text in order as UTF-8, and is empty after take', () => {
    const queue = new ByteQueue();
    queue.push('{"statement":"SELECT 1"}\n');
    queue.push('名前 é 😀\n');
    expect(queue.bytes).toBe(Buffer.byteLength('{"statement":"SELECT 1"}\n名前 é 😀\n'));
    expect(joined(queue.take())).toBe('{"statement":"SELECT 1"}\n名前 é 😀\n');
    expect(queue.bytes).toBe(0);
    expect(queue.take()).toEqual([]);
  });

  it('keeps taken bytes intact while later text fills the same buffer', () => {
    const queue = new ByteQueue();
    queue.push('first\n');
    const taken = queue.take();
    queue.push('second\n');
    expect(joined(taken)).toBe('first\n');
    expect(joined(queue.take())).toBe('second\n');
  });

  it('spans buffers: many lines and a text larger than one buffer come back whole', () => {
    const queue = new ByteQueue();
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}\n`);
    const big = 'ü'.repeat(100_000);
    let expected = '';
    for (const [i, line] of lines.entries()) {
      queue.push(line);
      expected += line;
      if (i === 2500) {
        queue.push(big);
        expected += big;
      }
    }
    expect(queue.bytes).toBe(Buffer.byteLength(expected));
    expect(joined(queue.take())).toBe(expected);
  });

  it('holds no buffer after a take (an idle session keeps nothing), and little before', () => {
    const queue = new ByteQueue();
    queue.push('');
    expect(queue.held).toBe(0);
    queue.push('$ ');
    expect(queue.held).toBeLessThanOrEqual(1024);
    queue.take();
    expect(queue.held).toBe(0);
    for (let i = 0; i < 10_000; i++) queue.push('a statement log line of about sixty bytes, say\n');
    expect(queue.held).toBeLessThan(2 * queue.bytes);
    queue.take();
    expect(queue.held).toBe(0);
  });

  it('drops everything on clear', () => {
    const queue = new ByteQueue();
    queue.push('gone');
    queue.clear();
    expect(queue.bytes).toBe(0);
    expect(queue.take()).toEqual([]);
  });
});
