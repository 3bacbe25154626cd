// Unordered node ids to SortedIds: every path (insertion for a few, bitset when dense in the id space,
// two-level bitset when sparse in a space of at most ~8,000 ids per id, native sort when sparser) against
// a plain sort of the distinct ids, with and without the id bound.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markedAscending, sortedDistinct, sortedDistinctArray } from '../../../engine/util/id-sort.js';

const reference = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

describe('sortedDistinct', () => {
  it.each([
    ['a few ids (insertion)', 0, 24, 1_000],
    ['ids dense in their space (bitset)', 100, 2_000, 3_000],
    ['ids sparse in their space (two-level bitset)', 100, 2_000, 500_000],
    ['ids very sparse in their space (native sort)', 100, 2_000, 2 ** 30],
    ['ids up to 2^31 - 1', 25, 300, 2 ** 31 - 1],
  ])('%s', (_, minLength, maxLength, span) => {
    const ids = fc.array(fc.integer({ min: 0, max: span - 1 }), { minLength, maxLength, size: 'max' });
    fc.assert(
      fc.property(ids, fc.boolean(), (list, bounded) => {
        const bound = bounded ? span : undefined;
        const expected = reference(list);
        expect([...sortedDistinct(list, bound)]).toEqual(expected);
        expect(sortedDistinctArray(Int32Array.from(list), bound)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('two-level bitset: its reused scratch holds no id of an earlier call, in a larger or a smaller space', () => {
    const space = (span: number, n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => (i * 7_919 + seed * 104_729) % span);
    for (const [span, n] of [
      [300_000, 200],
      [1_200_000, 1_000],
      [300_000, 150],
      [1_200_000, 1_000],
      [40_000, 30],
    ] as const) {
      const ids = [...space(span, n, span), span - 1, span - 1];
      expect([...sortedDistinct(ids, span)]).toEqual(reference(ids));
    }
  });

  it('leaves its input as it was', () => {
    const ids = [5, 3, 9, 3, 1, ...Array.from({ length: 100 }, (_, i) => 200 - i)];
    const copy = ids.slice();
    sortedDistinct(ids);
    expect(ids).toEqual(copy);
  });
});

describe('markedAscending', () => {
  const marked = (bound: number, ids: readonly number[]): number[] => [
    ...markedAscending(bound, (add) => {
      for (const id of ids) add(id);
    }),
  ];

  it('the marked ids ascending and distinct, marked in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 99_999 }), { maxLength: 500 }), (list) => {
        expect(marked(100_000, list)).toEqual(reference(list));
      }),
      { numRuns: 200 },
    );
  });

  it('an id outside the bound throws, and the marks made before it do not reach the next use', () => {
    expect(() => marked(1_000, [5, 999, 1_000])).toThrow(RangeError);
    expect(() => marked(1_000, [7, -1])).toThrow(RangeError);
    expect(marked(1_000, [3])).toEqual([3]);
  });

  it('a marking inside another gets words of its own', () => {
    let inner: number[] = [];
    const outer = markedAscending(70_000, (add) => {
      add(60_000);
      inner = marked(70_000, [9, 60_001]);
      add(4);
    });
    expect([...outer]).toEqual([4, 60_000]);
    expect(inner).toEqual([9, 60_001]);
    expect(marked(70_000, [1])).toEqual([1]);
  });
});
