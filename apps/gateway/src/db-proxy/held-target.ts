/**
 * A database proxy's target connection between its login and the relay (the session's start
 * is one round trip to the server): paused, so that what the target says meanwhile (a FATAL or
 * an ERR on an administrator's termination) waits for the relay, and watched, because a paused
 * socket still reads its end when nothing is buffered and emits 'end' at once (and an error),
 * with nobody listening. Unwatched, the relay then took a connection that had already ended
 * and the client's first query went nowhere: it hung.
 */
import type net from 'node:net';

export interface HeldTarget {
  /** Stops watching; whether the connection can still be relayed (it has not ended). */
  release(): boolean;
}

export function holdTarget(socket: net.Socket): HeldTarget {
  let ended = false;
  const onEnd = (): void => void (ended = true);
  const onError = (): void => void socket.destroy();
  socket.pause();
  socket.on('end', onEnd);
  socket.on('error', onError);
  return {
    release() {
      socket.off('end', onEnd);
      socket.off('error', onError);
      return !ended && !socket.destroyed && !socket.readableEnded;
    },
  };
}
