// util/top-k.ts: the bounded heap and its per-call-site scratch. A scratch heap is reused with a new
// bound each call: nothing of an earlier call may show in a later answer, a smaller k must bound it,
// and a k beyond what its arrays hold gets arrays that do.

import { describe, expect, it } from 'vitest';
import { TopK, TopKScratch } from '../../../engine/util/top-k.js';

function firstK(top: TopK, keys: readonly number[]): number[] {
  keys.forEach((key, id) => top.offer(key, id));
  return top.drain().ids;
}

describe('TopK', () => {
  it('keeps the k smallest keys, ties by id, NaN never', () => {
    expect(firstK(new TopK(3), [5, 1, NaN, 1, 0, 7])).toEqual([4, 1, 3]);
  });
});

describe('TopKScratch', () => {
  it('answers each call alone, whatever the calls before left', () => {
    const scratch = new TopKScratch();
    expect(firstK(scratch.take(5), [9, 8, 7, 6, 5, 4, 3])).toEqual([6, 5, 4, 3, 2]);
    // A call that throws before draining leaves entries behind: the next take starts empty.
    const left = scratch.take(4);
    left.offer(0, 100);
    left.offer(0, 101);
    expect(firstK(scratch.take(3), [2, 1, 3, 0])).toEqual([3, 1, 0]);
    expect(scratch.take(2).full).toBe(false);
  });

  it('bounds by the k of the call, below and above what its arrays held', () => {
    const scratch = new TopKScratch();
    const keys = Array.from({ length: 200 }, (_, i) => (i * 37) % 200);
    const sorted = keys.map((key, id) => ({ key, id })).sort((a, b) => a.key - b.key || a.id - b.id).map((e) => e.id);
    expect(firstK(scratch.take(1), keys)).toEqual(sorted.slice(0, 1));
    expect(firstK(scratch.take(50), keys)).toEqual(sorted.slice(0, 50));
    expect(firstK(scratch.take(10), keys)).toEqual(sorted.slice(0, 10));
    expect(firstK(scratch.take(2000), keys)).toEqual(sorted);
    expect(scratch.take(0).full).toBe(true);
  });
});
