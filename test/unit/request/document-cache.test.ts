import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../engine/request/document-cache.js';

describe('LruCache (CLOCK eviction)', () => {
  it('keeps at most its capacity', () => {
    const cache = new LruCache<number>(3);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect(cache.get('k9')).toBe(9);
    expect(cache.get('k0')).toBeUndefined();
  });

  it('gives a recently read entry a second chance over an unread one', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
  });

  it('replacing a key does not evict another', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    expect([cache.get('a'), cache.get('b')]).toEqual([10, 2]);
  });

  it('a key read last is still replaced and evicted like the others', () => {
    const cache = new LruCache<number>(1);
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    cache.set('a', 2);
    expect(cache.get('a')).toBe(2);
    cache.set('b', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(3);
    expect(cache.get(['b'].join(''))).toBe(3);
  });
});
