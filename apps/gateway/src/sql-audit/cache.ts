/**
 * A small cache of parsed descriptions keyed by text (or by shape), so that a prepared statement
 * or a point select sent again and again is parsed once.
 *
 * Two generations rather than a strict LRU: entries go into the young map; when it is full it
 * becomes the old one (the previous old one is dropped), and a hit in the old map moves the
 * entry back to the young one. A hit in the young map, the common case, is one lookup: no delete
 * and re-insert per hit as a Map-ordered LRU needs, and the stored key is never replaced by the
 * caller's new copy of the same text. Whatever was used within the last `capacity` insertions
 * stays; at most twice `capacity` entries are held.
 */

/** Texts longer than this are not kept (a few bulk inserts must not pin megabytes). */
const MAX_CACHED_TEXT = 16 * 1024;

export class LruCache<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old !== undefined) this.#insert(key, old);
    return old;
  }

  set(key: string, value: V): void {
    if (key.length > MAX_CACHED_TEXT) return;
    this.#insert(key, value);
  }

  get size(): number {
    let size = this.#young.size;
    for (const key of this.#old.keys()) if (!this.#young.has(key)) size++;
    return size;
  }

  #insert(key: string, value: V): void {
    if (this.#young.size >= this.capacity && !this.#young.has(key)) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }
}
