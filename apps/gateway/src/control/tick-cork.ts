/**
 * Holds a socket's writes so that control messages leave together, in one write (one system
 * call, and one wake-up of the other end) instead of one each:
 *
 * - corkForTick: until the current tick's work is done (process.nextTick runs after the promise
 *   continuations queued now): the messages sent together (a session's end and its statement
 *   log; at many connections, several sessions' requests).
 * - corkAWhile: for a message nobody waits on (a session's end, the last of a statement log),
 *   up to `ms`, or less when a message that is waited on follows (it takes them along at the
 *   end of its tick). A client that connects for one query and goes leaves its end for the
 *   next connection's request to carry.
 */
import type { Writable } from 'node:stream';

interface Hold {
  /** Released at the end of this tick. */
  tick: boolean;
  timer?: NodeJS.Timeout;
}

/** Each socket is corked once, however many messages wait. */
const holds = new WeakMap<Writable, Hold>();

function hold(socket: Writable): Hold {
  let h = holds.get(socket);
  if (!h) {
    h = { tick: false };
    holds.set(socket, h);
    socket.cork();
  }
  return h;
}

function release(socket: Writable, h: Hold): void {
  if (holds.get(socket) !== h) return;
  holds.delete(socket);
  clearTimeout(h.timer);
  socket.uncork();
}

export function corkForTick(socket: Writable): void {
  const h = hold(socket);
  if (h.tick) return;
  h.tick = true;
  process.nextTick(() => release(socket, h));
}

export function corkAWhile(socket: Writable, ms: number): void {
  const h = hold(socket);
  if (h.tick || h.timer) return;
  h.timer = setTimeout(() => release(socket, h), ms);
}
