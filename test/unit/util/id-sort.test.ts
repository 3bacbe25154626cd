// Unordered node ids to SortedIds: every path (insertion for a few, bitset when dense in the id space,
// native sort when sparse) against a plain sort of the distinct ids, with and without the id bound.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedDistinct, sortedDistinctArray } from '../../../engine/util/id-sort.js';

const reference = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

describe('sortedDistinct', () => {
  it.each([
    ['a few ids (insertion)', 0, 24, 1_000],
    ['ids dense in their space (bitset)', 100, 2_000, 3_000],
    ['ids sparse in their space (native sort)', 100, 2_000, 2_000_000],
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

  it('leaves its input as it was', () => {
    const ids = [5, 3, 9, 3, 1, ...Array.from({ length: 100 }, (_, i) => 200 - i)];
    const copy = ids.slice();
    sortedDistinct(ids);
    expect(ids).toEqual(copy);
  });
});
