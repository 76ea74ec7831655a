// The description cache: bounded, keeps what is used, forgets what is not.
import { describe, expect, it } from 'vitest';
import { LruCache } from './cache';

describe('description cache', () => {
  it('keeps an entry that is used while others come and go', () => {
    const cache = new LruCache<number>(100);
    cache.set('hot', 1);
    for (let i = 0; i < 10_000; i++) {
      cache.set(`SELECT c FROM t WHERE id=${i}`, i);
      expect(cache.get('hot')).toBe(1);
    }
    expect(cache.size).toBeLessThanOrEqual(200);
  });

  it('forgets an entry not used within its capacity, and never holds more than twice it', () => {
    const cache = new LruCache<number>(100);
    cache.set('cold', 1);
    for (let i = 0; i < 250; i++) cache.set(`text ${i}`, i);
    expect(cache.get('cold')).toBeUndefined();
    expect(cache.get('text 249')).toBe(249);
    expect(cache.size).toBeLessThanOrEqual(200);
  });

  it('does not keep very long texts', () => {
    const cache = new LruCache<number>(10);
    cache.set('x'.repeat(20_000), 1);
    expect(cache.get('x'.repeat(20_000))).toBeUndefined();
  });
});
