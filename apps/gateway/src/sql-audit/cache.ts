/**
 * A small LRU of parsed descriptions keyed by dialect and text, so that a prepared statement or a
 * point select sent again and again is parsed once. A Map keeps insertion order: a hit is moved
 * to the end, and the oldest entry (the first) is evicted.
 */

/** Texts longer than this are not kept (a few bulk inserts must not pin megabytes). */
const MAX_CACHED_TEXT = 16 * 1024;

export class LruCache<V> {
  readonly #entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (key.length > MAX_CACHED_TEXT) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
