// Replies written in one tick leave in one write to the kernel; the next tick's go at once.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corkAWhile, corkForTick } from './tick-cork';

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

describe('corkAWhile (server)', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('holds an acknowledgement nobody waits on until the next answer takes it along', async () => {
    const { stream, batches } = recorder();
    corkAWhile(stream, 1000);
    stream.write('recording_ack;');
    await tick();
    expect(batches).toEqual([]);
    corkForTick(stream);
    stream.write('code_resolved;');
    await tick();
    expect(batches).toEqual(['recording_ack;code_resolved;']);
    // Released: the next answer is not held.
    corkForTick(stream);
    stream.write('session_started;');
    await tick();
    expect(batches).toEqual(['recording_ack;code_resolved;', 'session_started;']);
  });

  it('lets it go on its own when nothing follows in time', async () => {
    const { stream, batches } = recorder();
    corkAWhile(stream, 20);
    stream.write('recording_ack;');
    corkAWhile(stream, 20);
    stream.write('recording_ack;');
    await tick();
    expect(batches).toEqual([]);
    await expect.poll(() => batches, { timeout: 1000 }).toEqual(['recording_ack;recording_ack;']);
  });

  it('does not hold back an answer of the same tick', async () => {
    const { stream, batches } = recorder();
    corkForTick(stream);
    stream.write('code_resolved;');
    corkAWhile(stream, 1000);
    stream.write('recording_ack;');
    await tick();
    expect(batches).toEqual(['code_resolved;recording_ack;']);
  });
});
