/**
 * Holds a socket's writes until the current tick's work is done (process.nextTick runs after the
 * promise continuations queued now), so the control messages sent together (a session's end
 * and its statement log; at many connections, several sessions' requests) leave in one write
 * instead of one system call, and one wake-up of the server, each.
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
