/**
 * A map whose entries live for a fixed time, for short-lived secrets kept in one replica's
 * memory (session grants, web-terminal tokens). Expired entries are swept on every write, so
 * the map never holds more than one lifetime's worth of entries.
 */
export interface ExpiringMap<V> {
  /** Stores the value and returns when it expires (milliseconds since the epoch). */
  set(key: string, value: V): number;
  /** The live value, or null when unknown or expired. */
  get(key: string): V | null;
  delete(key: string): void;
}

export function createExpiringMap<V>(ttlMs: number, now: () => number = Date.now): ExpiringMap<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    set(key, value) {
      for (const [k, e] of entries) if (e.expiresAt <= now()) entries.delete(k);
      const expiresAt = now() + ttlMs;
      entries.set(key, { value, expiresAt });
      return expiresAt;
    },
    get(key) {
      const entry = entries.get(key);
      return entry && entry.expiresAt > now() ? entry.value : null;
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
