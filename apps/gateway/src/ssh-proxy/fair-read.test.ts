// A busy socket lets the event loop go round: per loop turn (measured from the check phase,
// where setImmediate runs) it brings in about its budget, not the megabytes libuv would read
// in one go, while every byte still arrives in order.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { shareTheLoop } from './fair-read';

const open: net.Socket[] = [];
const servers: net.Server[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.destroy();
  for (const s of servers.splice(0)) s.close();
});

/** Sends `total` bytes over loopback; resolves with the largest amount read in one turn. */
async function largestTurn(total: number, budget?: number): Promise<{ max: number; got: Buffer }> {
  const payload = Buffer.alloc(total);
  for (let i = 0; i < total; i++) payload[i] = i % 251;
  const server = net.createServer((socket) => {
    open.push(socket);
    socket.end(payload);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  open.push(socket);
  if (budget !== undefined) shareTheLoop(socket, budget);
  let turn = 0;
  let max = 0;
  const chunks: Buffer[] = [];
  let ticking = true;
  const tick = (): void => {
    max = Math.max(max, turn);
    turn = 0;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  socket.on('data', (chunk: Buffer) => {
    turn += chunk.length;
    chunks.push(chunk);
  });
  // Give the sender a head start so that the kernel buffer is full when reading starts.
  socket.pause();
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.resume();
  await new Promise((resolve) => socket.on('end', resolve));
  ticking = false;
  tick();
  return { max, got: Buffer.concat(chunks) };
}

describe('sharing the event loop between connections', () => {
  it('reads at most about its budget per loop turn, every byte in order', async () => {
    const total = 8 * 1024 * 1024;
    const shared = await largestTurn(total, 64 * 1024);
    expect(shared.got.length).toBe(total);
    expect(shared.got.equals(Buffer.from(shared.got.map((_, i) => i % 251)))).toBe(true);
    // The budget, plus the chunk that crossed it and what Node had buffered (its high-water mark).
    expect(shared.max).toBeLessThanOrEqual(64 * 1024 + 2 * 65_536);
    // Without it, one turn takes far more (libuv reads a socket up to 32 times per wake-up).
    const greedy = await largestTurn(total);
    expect(greedy.max).toBeGreaterThan(shared.max);
  });
});
