/**
 * Text queued as UTF-8 in buffers outside the JavaScript heap, for the spool writer.
 *
 * Why not an array of strings: a busy database session logs ten thousand statements a second,
 * and each line waits up to a flush period (250 ms) before it is written. Held as strings, the
 * lines outlive the young generation, get promoted, and have to be collected by full garbage
 * collections; the gateway spent more time in the collector than on the lines themselves.
 * Copied into a buffer at once, the string dies young and the bytes cost the collector nothing.
 */

/**
 * Buffer sizes: the first after a take is sized by what the last take held (at least
 * {@link MIN_CHUNK}), each next one twice the last, up to {@link MAX_CHUNK}; a longer text gets
 * a buffer of its own size. A queue holds no buffer between takes, so a thousand idle sessions
 * hold nothing, and a busy one allocates a few buffers per flush.
 */
const MIN_CHUNK = 1024;
const MAX_CHUNK = 64 * 1024;

export class ByteQueue {
  /** Filled parts waiting to be taken, in order. */
  #full: Buffer[] = [];
  /** The buffer being filled: bytes from #start to #end are queued. */
  #current: Buffer | undefined;
  #start = 0;
  #end = 0;
  #bytes = 0;
  #nextSize = MIN_CHUNK;

  /** Bytes queued. */
  get bytes(): number {
    return this.#bytes;
  }

  push(text: string): void {
    if (text.length === 0) return;
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    const most = text.length * 3;
    if (!this.#current || this.#current.length - this.#end < most) {
      this.#retire();
      this.#current = Buffer.allocUnsafeSlow(Math.max(this.#nextSize, most));
      this.#nextSize = Math.min(this.#nextSize * 2, MAX_CHUNK);
      this.#start = 0;
      this.#end = 0;
    }
    const written = this.#current.write(text, this.#end);
    this.#end += written;
    this.#bytes += written;
  }

  /** Bytes of the buffers the queue holds, queued or room to fill (0 after a take). */
  get held(): number {
    return (
      this.#full.reduce((sum, b) => sum + b.buffer.byteLength, 0) + (this.#current?.length ?? 0)
    );
  }

  /**
   * Everything queued, in order; the queue is then empty and holds no buffer (the buffers are
   * the caller's).
   */
  take(): Buffer[] {
    this.#retire();
    const taken = this.#full;
    this.#nextSize = Math.min(Math.max(MIN_CHUNK, this.#bytes), MAX_CHUNK);
    this.#full = [];
    this.#bytes = 0;
    this.#current = undefined;
    return taken;
  }

  /** Drops everything queued. */
  clear(): void {
    this.take();
  }

  /** Moves the queued part of the current buffer to #full; later text goes after it. */
  #retire(): void {
    if (this.#current && this.#end > this.#start) {
      this.#full.push(this.#current.subarray(this.#start, this.#end));
      this.#start = this.#end;
    }
  }
}
