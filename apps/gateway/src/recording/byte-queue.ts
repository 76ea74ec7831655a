/**
 * Text queued as UTF-8 in buffers outside the JavaScript heap, for the spool writer.
 *
 * Why not an array of strings: a busy database session logs ten thousand statements a second,
 * and each line waits up to a flush period (250 ms) before it is written. Held as strings, the
 * lines outlive the young generation, get promoted, and have to be collected by full garbage
 * collections; the gateway spent more time in the collector than on the lines themselves.
 * Copied into a buffer at once, the string dies young and the bytes cost the collector nothing.
 */

/** Size of each buffer; a longer text gets a buffer of its own size. */
const CHUNK_BYTES = 64 * 1024;

export class ByteQueue {
  /** Filled parts waiting to be taken, in order. */
  #full: Buffer[] = [];
  /** The buffer being filled: bytes from #start to #end are queued. */
  #current: Buffer | undefined;
  #start = 0;
  #end = 0;
  #bytes = 0;

  /** Bytes queued. */
  get bytes(): number {
    return this.#bytes;
  }

  push(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    const most = text.length * 3;
    if (!this.#current || this.#current.length - this.#end < most) {
      this.#retire();
      this.#current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, most));
      this.#start = 0;
      this.#end = 0;
    }
    const written = this.#current.write(text, this.#end);
    this.#end += written;
    this.#bytes += written;
  }

  /** Everything queued, in order; the queue is then empty (the buffers stay the caller's). */
  take(): Buffer[] {
    this.#retire();
    const taken = this.#full;
    this.#full = [];
    this.#bytes = 0;
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
