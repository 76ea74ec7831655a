// Replies written in one tick leave in one write to the kernel; the next tick's go at once.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corkForTick } from './tick-cork';

/** A stream that records each batch handed to it: what a socket would make a system call of. */
function recorder(): { stream: Writable; batches: string[] } {
  const batches: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      batches.push(chunk.toString());
      done();
    },
    writev(chunks, done) {
      batches.push(chunks.map((c) => String(c.chunk)).join(''));
      done();
    },
  });
  return { stream, batches };
}

describe('corkForTick (server)', () => {
  it('batches one tick’s writes and lets the next tick write on its own', async () => {
    const { stream, batches } = recorder();
    for (const reply of ['code_resolved;', 'session_started;', 'recording_ack;']) {
      corkForTick(stream);
      stream.write(reply);
    }
    expect(batches).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual(['code_resolved;session_started;recording_ack;']);
    corkForTick(stream);
    stream.write('welcome;');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual(['code_resolved;session_started;recording_ack;', 'welcome;']);
  });
});
