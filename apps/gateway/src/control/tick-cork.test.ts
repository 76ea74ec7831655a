// Messages sent in one tick leave the gateway in one write (one system call, one wake-up of
// the server), and nothing waits past the tick.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { corkAWhile, corkForTick } from './tick-cork';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A loopback connection: the sending socket, and everything the other end received. */
async function pair(): Promise<{
  socket: net.Socket;
  received: () => string;
  reads: () => number;
}> {
  let text = '';
  let reads = 0;
  const server = net.createServer((peer) =>
    peer.on('data', (d: Buffer) => {
      text += d.toString();
      reads++;
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  closers.push(() => {
    socket.destroy();
    server.close();
  });
  return { socket, received: () => text, reads: () => reads };
}

/** Counts the socket's writes to the kernel: one per _write, one per _writev. */
function countWrites(socket: net.Socket): () => number {
  let writes = 0;
  const s = socket as unknown as Record<'_write' | '_writev', (...a: unknown[]) => void>;
  for (const name of ['_write', '_writev'] as const) {
    const original = s[name].bind(socket);
    s[name] = (...args: unknown[]) => {
      writes++;
      original(...args);
    };
  }
  return () => writes;
}

describe('corkForTick', () => {
  it('sends what one tick wrote, from several promise continuations, in one write', async () => {
    const { socket, received } = await pair();
    const writes = countWrites(socket);
    const send = async (text: string) => {
      await Promise.resolve();
      corkForTick(socket);
      socket.write(text);
    };
    await Promise.all([send('a'), send('b'), send('c')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes()).toBe(1);
    await expect.poll(received).toBe('abc');
  });

  it('holds nothing past the tick: a later tick writes again at once', async () => {
    const { socket, received } = await pair();
    const writes = countWrites(socket);
    corkForTick(socket);
    socket.write('first');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes()).toBe(1);
    corkForTick(socket);
    socket.write('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes()).toBe(2);
    await expect.poll(received).toBe('firstsecond');
  });
});

describe('corkAWhile', () => {
  it('holds a session end until the next request takes it along, in one write', async () => {
    const { socket, received } = await pair();
    const writes = countWrites(socket);
    corkAWhile(socket, 1000);
    socket.write('session_end;');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes()).toBe(0);
    corkForTick(socket);
    socket.write('resolve_code;');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes()).toBe(1);
    await expect.poll(received).toBe('session_end;resolve_code;');
  });

  it('sends it after the wait when no request comes', async () => {
    const { socket, received } = await pair();
    const writes = countWrites(socket);
    corkAWhile(socket, 20);
    socket.write('session_end;');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes()).toBe(0);
    await expect.poll(received, { timeout: 1000 }).toBe('session_end;');
    expect(writes()).toBe(1);
  });
});
