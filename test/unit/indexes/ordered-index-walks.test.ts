// The ordered index's range walks, range estimates and DateTime keys by id (what streamed pages read):
// walks from either bound equal the range's ids in value order, empty and unparseable ranges visit
// nothing, estimates come close to the true count, and keys by id follow writes and give up on lists.

import { describe, expect, it } from 'vitest';
import { OrderedIndex } from '../../../engine/indexes/ordered-index.js';
import { postingIds, type Posting } from '../../../engine/indexes/postings/posting.js';
import type { RangeBounds, ScalarValue } from '../../../engine/indexes/value-index.js';

function walked(index: OrderedIndex<number> | OrderedIndex, bounds: RangeBounds<ScalarValue>, direction: 'asc' | 'desc', stopAfter = Infinity): number[] {
  const out: number[] = [];
  // A run is read from its end when descending; the walk stops after the run in which `fn` said so.
  index.walkRange(bounds, direction, (vals: readonly Posting[], from: number, to: number) => {
    for (let i = direction === 'desc' ? to - 1 : from; i >= from && i < to; i += direction === 'desc' ? -1 : 1) {
      out.push(...postingIds(vals[i] as Posting));
      if (out.length >= stopAfter) return true;
    }
    return false;
  });
  return out;
}

const incl = (value: ScalarValue) => ({ value, inclusive: true });
const excl = (value: ScalarValue) => ({ value, inclusive: false });

describe('OrderedIndex.walkRange', () => {
  // 1,000 nodes, value id % 100 (ties: ten ids per value).
  const index = OrderedIndex.int();
  for (let id = 0; id < 1000; id++) index.add(id % 100, id);
  const naive = (keep: (v: number) => boolean, desc: boolean): number[] => {
    const ids = [...Array(1000).keys()].filter((id) => keep(id % 100));
    return ids.sort((a, b) => (desc ? b % 100 - (a % 100) : (a % 100) - (b % 100)) || a - b);
  };

  it('walks the range in value order from the bound the direction starts at, ties by ascending id', () => {
    expect(walked(index, { lower: excl(40), upper: incl(45) }, 'asc')).toEqual(naive((v) => v > 40 && v <= 45, false));
    expect(walked(index, { lower: excl(40), upper: incl(45) }, 'desc')).toEqual(naive((v) => v > 40 && v <= 45, true));
    expect(walked(index, { lower: incl(95) }, 'asc')).toEqual(naive((v) => v >= 95, false));
    expect(walked(index, { upper: excl(3) }, 'desc')).toEqual(naive((v) => v < 3, true));
  });

  it('stops when told to', () => {
    expect(walked(index, { lower: incl(50) }, 'asc', 15)).toEqual(naive((v) => v >= 50, false).slice(0, 20));
  });

  it('visits nothing for empty, inverted, out-of-range and unparseable bounds', () => {
    expect(walked(index, { lower: excl(7), upper: excl(7) }, 'asc')).toEqual([]);
    expect(walked(index, { lower: incl(8), upper: incl(7) }, 'desc')).toEqual([]);
    expect(walked(index, { lower: excl(99) }, 'asc')).toEqual([]);
    expect(walked(index, { upper: excl(0) }, 'desc')).toEqual([]);
    expect(walked(index, { lower: incl('x') }, 'asc')).toEqual([]);
    expect(walked(OrderedIndex.int(), { lower: incl(1) }, 'asc')).toEqual([]);
  });

  it('estimates a range from key positions within a quarter, and 0 for an empty range', () => {
    const unique = OrderedIndex.int();
    for (let id = 0; id < 100_000; id++) unique.add((id * 7919) % 100_000, id);
    for (const [lo, hi] of [
      [0, 99_999],
      [10_000, 10_999],
      [50_000, 80_000],
      [99_000, 99_999],
    ] as const) {
      const exact = hi - lo + 1;
      const estimate = unique.estimateRange({ lower: incl(lo), upper: incl(hi) });
      expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(Math.max(128, exact * 0.25));
    }
    expect(unique.estimateRange({ lower: excl(5), upper: excl(5) })).toBe(0);
    expect(unique.estimateRange({ lower: incl('x') })).toBe(0);
    // Ten entries per key: the estimate counts entries, not keys.
    expect(Math.abs(index.estimateRange({ lower: incl(0), upper: excl(50) }) - 500)).toBeLessThanOrEqual(64);
  });
});

describe('OrderedIndex.keysById (DateTime)', () => {
  it('holds each node instant, follows removals and updates, NaN where none', () => {
    const index = OrderedIndex.dateTime();
    index.add('2024-01-02T00:00:00Z', 3);
    index.add('2024-01-01T00:00:00+01:00', 5);
    const keys = () => index.keysById()?.keys;
    expect(keys()?.[3]).toBe(Date.UTC(2024, 0, 2));
    expect(keys()?.[5]).toBe(Date.UTC(2023, 11, 31, 23));
    expect(keys()?.[4]).toBeNaN();
    // An update is a removal of the old value, then an addition.
    index.remove('2024-01-02T00:00:00Z', 3);
    expect(keys()?.[3]).toBeNaN();
    index.add('2025-06-01T12:00:00Z', 3);
    expect(keys()?.[3]).toBe(Date.UTC(2025, 5, 1, 12));
    index.add('2020-01-01T00:00:00Z', 5000); // grows, the new slots empty
    expect(keys()?.[5000]).toBe(Date.UTC(2020, 0, 1));
    expect(keys()?.[4000]).toBeNaN();
  });

  it('gives the keys up once a node holds two values (a list predicate)', () => {
    const index = OrderedIndex.dateTime();
    index.add('2024-01-01', 1);
    index.add('2024-02-01', 1);
    expect(index.keysById()).toBeUndefined();
    expect(index.range({ lower: incl('2024-01-15') })).toEqual([1]);
  });

  it('number indexes keep no keys by id (their columns hold the numbers)', () => {
    expect(OrderedIndex.int().keysById()).toBeUndefined();
    expect(OrderedIndex.float().keysById()).toBeUndefined();
  });
});
