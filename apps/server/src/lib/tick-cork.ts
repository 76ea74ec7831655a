/**
 * Holds a socket's writes until the current tick's work is done (process.nextTick runs after the
 * promise continuations queued now), so the control messages answered together (at many
 * connections, several sessions' replies) leave in one write instead of one system call, and
 * one wake-up of the gateway, each.
 */
import type { Writable } from 'node:stream';

const corked = new WeakSet<Writable>();

export function corkForTick(socket: Writable): void {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
