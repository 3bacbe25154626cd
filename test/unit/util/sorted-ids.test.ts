import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contains,
  difference,
  insertSorted,
  intersect,
  intersectMany,
  removeAll,
  removeSorted,
  union,
  unionMany,
} from '../../../engine/util/sorted-ids.js';

const sortedSet = fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 60 }).map((a) => a.sort((x, y) => x - y));
const big = fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { minLength: 100, maxLength: 1000 }).map((a) => a.sort((x, y) => x - y));
const ref = (xs: Iterable<number>): number[] => [...new Set(xs)].sort((x, y) => x - y);

describe('sorted-ids', () => {
  it('examples', () => {
    expect(intersect([1, 3, 5, 7], [3, 4, 5])).toEqual([3, 5]);
    expect(union([1, 3], [2, 3, 9])).toEqual([1, 2, 3, 9]);
    expect(difference([1, 2, 3, 4], [2, 4, 6])).toEqual([1, 3]);
    expect(intersectMany([])).toEqual([]);
    expect(intersectMany([[1, 2, 3], [2, 3], [3, 9]])).toEqual([3]);
    expect(unionMany([[5], [1], [3], [1, 5], [2], [9]])).toEqual([1, 2, 3, 5, 9]);
    expect(contains([1, 4, 9], 4)).toBe(true);
    expect(contains([1, 4, 9], 5)).toBe(false);
    expect(contains([], 5)).toBe(false);
  });

  it('insertSorted / removeSorted work in place', () => {
    const a = [2, 4];
    expect(insertSorted(a, 3)).toBe(true);
    expect(insertSorted(a, 3)).toBe(false);
    expect(insertSorted(a, 1)).toBe(true);
    expect(insertSorted(a, 9)).toBe(true);
    expect(a).toEqual([1, 2, 3, 4, 9]);
    expect(removeSorted(a, 3)).toBe(true);
    expect(removeSorted(a, 3)).toBe(false);
    expect(removeSorted(a, 9)).toBe(true);
    expect(a).toEqual([1, 2, 4]);
  });

  it('removeAll takes exactly the given ids out in place (a few by splice, more in one pass), ignoring absent ones', () => {
    fc.assert(
      fc.property(fc.oneof(sortedSet, big), fc.uniqueArray(fc.integer({ min: 0, max: 5001 }), { maxLength: 40 }), (ids, extra) => {
        const a = ids.slice();
        const gone = new Set([...extra, ...ids.filter((_, k) => k % 7 === 3)]);
        removeAll(a, gone);
        expect(a).toEqual(ids.filter((x) => !gone.has(x)));
      }),
    );
  });

  it('agrees with Set-based model', () => {
    fc.assert(
      fc.property(fc.oneof(sortedSet, big), fc.oneof(sortedSet, big), fc.array(sortedSet, { maxLength: 7 }), (a, b, many) => {
        const sb = new Set(b);
        expect(intersect(a, b)).toEqual(a.filter((x) => sb.has(x)));
        expect(union(a, b)).toEqual(ref([...a, ...b]));
        expect(difference(a, b)).toEqual(a.filter((x) => !sb.has(x)));
        expect(unionMany(many)).toEqual(ref(many.flat()));
        const inter = many.length === 0 ? [] : (many[0] ?? []).filter((x) => many.every((s) => s.includes(x)));
        expect(intersectMany(many)).toEqual(inter);
        for (const x of [0, 1, 50, 201, ...a.slice(0, 5)]) expect(contains(a, x)).toBe(a.includes(x));
      }),
    );
  });

  it('insert/remove sequences keep the array sorted and unique', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 40 }))), (ops) => {
        const a: number[] = [];
        const model = new Set<number>();
        for (const [ins, x] of ops) {
          if (ins) {
            expect(insertSorted(a, x)).toBe(!model.has(x));
            model.add(x);
          }
          else expect(removeSorted(a, x)).toBe(model.delete(x));
        }
        expect(a).toEqual(ref(model));
      }),
    );
  });
});
