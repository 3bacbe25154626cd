// Unordered node ids to SortedIds: every path (insertion for a few, bitset when dense in the id space,
// radix sort for 256 or more sparse in a space of 2^19 to 2^22, two-level bitset when sparse in a space of at
// most ~8,000 ids per id, native sort when sparser) against a plain sort of the distinct ids, with and
// without the id bound.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortDistinctInPlace, sortedDistinct, sortedDistinctArray } from '../../../engine/util/id-sort.js';

const reference = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

describe('sortedDistinct', () => {
  it.each([
    ['a few ids (insertion)', 0, 24, 1_000],
    ['ids dense in their space (bitset)', 100, 2_000, 3_000],
    ['ids sparse in their space (two-level bitset)', 25, 2_000, 500_000],
    ['many ids sparse in a space below 2^22 (radix)', 256, 3_000, 2 ** 22],
    ['many ids sparse in a space above 2^22 (two-level bitset)', 1_100, 2_000, 2 ** 23],
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

  it('the reused bitsets hold no id of an earlier call, in a larger or a smaller space', () => {
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

describe('sortDistinctInPlace', () => {
  const inPlace = (ids: readonly number[], bound?: number, room = 0): { ids: number[]; tail: number[] } => {
    const buf = Int32Array.from([...ids, ...Array.from({ length: room }, () => -7)]);
    const m = sortDistinctInPlace(buf, ids.length, bound);
    return { ids: [...buf.subarray(0, m)], tail: [...buf.subarray(ids.length)] };
  };

  it('the first n ids ascending and distinct over the buffer\'s start, every path, the rest of the buffer untouched', () => {
    for (const span of [1_000, 3_000, 500_000, 2 ** 21, 2 ** 23, 2 ** 30]) {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: span - 1 }), { maxLength: 2_000 }), fc.boolean(), (list, bounded) => {
          const { ids, tail } = inPlace(list, bounded ? span : undefined, 3);
          expect(ids).toEqual(reference(list));
          expect(tail).toEqual([-7, -7, -7]);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('an id at or above the bound, or negative, throws, and the words it marked before do not reach the next use', () => {
    const dense = Array.from({ length: 100 }, (_, i) => i * 9);
    const sparse = Array.from({ length: 100 }, (_, i) => i * 997);
    const many = Array.from({ length: 300 }, (_, i) => 600_000 + ((i * 7_919) % 400_000));
    expect(() => inPlace([...dense, 5_000], 1_000)).toThrow(RangeError);
    expect(() => inPlace([...sparse, 200_000], 100_000)).toThrow(RangeError);
    expect(() => inPlace([...many, 1_000_000], 1_000_000)).toThrow(RangeError);
    expect(() => inPlace([...dense, -1], 1_000)).toThrow(RangeError);
    expect(() => inPlace([...many, -1])).toThrow(RangeError);
    expect(inPlace([...dense.slice(50), 3, 3], 1_000).ids).toEqual(reference([...dense.slice(50), 3]));
    expect(inPlace([...sparse.slice(50), 3, 3], 100_000).ids).toEqual(reference([...sparse.slice(50), 3]));
    expect(inPlace([...many.slice(40), 3, 3], 1_000_000).ids).toEqual(reference([...many.slice(40), 3]));
  });
});
