import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Adjacency } from '../../../engine/store/adjacency.js';

describe('Adjacency', () => {
  it('agrees with a Map of Sets under random add/remove, across block growth, shrink and reuse', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 })), { minLength: 50, maxLength: 600 }),
        (ops) => {
          const adj = new Adjacency();
          const model = new Map<number, Set<number>>();
          for (const [add, a, b] of ops) {
            const set = model.get(a) ?? new Set<number>();
            model.set(a, set);
            if (add) {
              expect(adj.add(a, b)).toBe(!set.has(b));
              set.add(b);
            } else {
              expect(adj.remove(a, b)).toBe(set.delete(b));
            }
            for (let n = 0; n <= 7; n++) {
              const want = [...(model.get(n) ?? [])].sort((x, y) => x - y);
              expect(adj.list(n)).toEqual(want);
              expect(adj.count(n)).toBe(want.length);
              expect(adj.first(n)).toBe(want[0]);
            }
            expect(adj.has(a, b)).toBe(set.has(b));
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('handles a 100k-neighbour list', () => {
    const adj = new Adjacency();
    for (let i = 100_000; i >= 1; i--) adj.add(7, i * 3);
    expect(adj.count(7)).toBe(100_000);
    const l = adj.list(7);
    expect(l[0]).toBe(3);
    expect(l[99_999]).toBe(300_000);
    for (let i = 1; i <= 100_000; i += 2) adj.remove(7, i * 3);
    expect(adj.count(7)).toBe(50_000);
    expect(adj.has(7, 6)).toBe(true);
    expect(adj.has(7, 3)).toBe(false);
  });
});
