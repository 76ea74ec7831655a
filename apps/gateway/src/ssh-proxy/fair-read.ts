/**
 * Keeps one busy connection from holding the event loop. libuv reads a readable socket up to
 * 32 times per wake-up, and ssh2 decrypts and forwards each chunk before the next read, so a
 * bulk transfer (`head -c 1G /dev/zero`) could run for milliseconds per loop turn while another
 * session's keystroke waited behind it. Past {@link TURN_BUDGET_BYTES} in one turn the socket
 * pauses (Node stops reading it once its small buffer fills) and resumes in the check phase,
 * after the other sockets' callbacks of this turn: every connection gets a turn.
 */
import type { Socket } from 'node:net';
import type { Client, Connection } from 'ssh2';

/** Bytes one socket may bring in per event-loop turn before it lets the others go. */
export const TURN_BUDGET_BYTES = 64 * 1024;

export function shareTheLoop(socket: Socket, budget = TURN_BUDGET_BYTES): void {
  let used = 0;
  let paused = false;
  socket.on('data', (chunk: Buffer) => {
    used += chunk.length;
    if (used < budget || paused) return;
    paused = true;
    socket.pause();
    setImmediate(() => {
      used = 0;
      paused = false;
      if (!socket.destroyed) socket.resume();
    });
  });
}

/** The TCP socket under an ssh2 client or server connection (ssh2 1.x keeps it as `_sock`). */
export function socketOf(connection: Client | Connection): Socket | undefined {
  // ssh2 has no public accessor for its socket; @types/ssh2 does not declare `_sock`.
  return (connection as unknown as { _sock?: Socket })._sock;
}
