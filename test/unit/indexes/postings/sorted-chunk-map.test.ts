import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedChunkMap } from '../../../../engine/indexes/postings/sorted-chunk-map.js';
import { postingIds } from '../../../../engine/indexes/postings/posting.js';

const cmp = (a: number, b: number): number => a - b;

describe('SortedChunkMap', () => {
  it('forEachChunk yields every posting in key order, chunk by chunk in either direction, and stops when asked', () => {
    const map = new SortedChunkMap<number>(cmp);
    for (let k = 0; k < 1000; k++) map.add((k * 7919) % 1000, k);
    const each = (desc: boolean): number[][] => {
      const out: number[][] = [];
      map.forEachPosting(desc, (p) => (out.push([...postingIds(p)]), false));
      return out;
    };
    for (const desc of [false, true]) {
      const chunked: number[][] = [];
      let calls = 0;
      map.forEachChunk(desc, (vals) => {
        calls++;
        if (desc) for (let i = vals.length - 1; i >= 0; i--) chunked.push([...postingIds(vals[i])]);
        else for (const p of vals) chunked.push([...postingIds(p)]);
        return false;
      });
      expect(chunked).toEqual(each(desc));
      expect(calls).toBeGreaterThan(1);
      expect(calls).toBeLessThan(100);
    }
    let stopped = 0;
    map.forEachChunk(true, () => (stopped++, true));
    expect(stopped).toBe(1);
  });

  it('answers the same range asked again between writes as the writes left it (the last span is kept only while no key comes or goes)', () => {
    fc.assert(
      fc.property(
        // Few keys, so removals empty keys often; long enough to split chunks (256 keys).
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 2 })), { minLength: 300, maxLength: 1200 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 200 }),
        (ops, lo, width) => {
          const map = new SortedChunkMap<number>(cmp);
          const model = new Map<number, Set<number>>();
          const hi = lo + width;
          // New bound objects each time, as the index makes them: the span is matched by value.
          const ranged = (): number[][] => {
            const out: number[][] = [];
            map.forEachRunIn({ value: lo, inclusive: true }, { value: hi, inclusive: false }, false, (vals, from, to) => {
              for (let i = from; i < to; i++) out.push([...postingIds(vals[i])]);
              return false;
            });
            return out;
          };
          const expected = (): number[][] =>
            [...model.keys()]
              .filter((k) => k >= lo && k < hi)
              .sort(cmp)
              .map((k) => [...(model.get(k) as Set<number>)].sort(cmp));
          for (const [add, key, id] of ops) {
            const s = model.get(key) ?? new Set<number>();
            if (add) {
              map.add(key, id);
              s.add(id);
              model.set(key, s);
            } else {
              map.remove(key, id);
              s.delete(id);
              if (s.size === 0) model.delete(key);
            }
            expect(ranged()).toEqual(expected());
            expect(map.estimateKeysIn({ value: lo, inclusive: true }, { value: hi, inclusive: false })).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps keys ordered across chunk splits and merges ranges correctly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 4 })), { maxLength: 3000 }),
        fc.integer({ min: -5, max: 3005 }),
        fc.integer({ min: -5, max: 3005 }),
        fc.boolean(),
        fc.boolean(),
        (ops, lo, hi, li, hiInc) => {
          const map = new SortedChunkMap<number>(cmp);
          const model = new Map<number, Set<number>>();
          for (const [add, key, id] of ops) {
            const s = model.get(key) ?? new Set<number>();
            if (add) {
              expect(map.add(key, id)).toBe(!s.has(id));
              s.add(id);
              model.set(key, s);
            } else {
              expect(map.remove(key, id)).toBe(s.has(id));
              s.delete(id);
              if (s.size === 0) model.delete(key);
            }
          }
          const keys = [...model.keys()].sort(cmp);
          expect([...map.entries()].map(([k]) => k)).toEqual(keys);
          expect(map.size).toBe(keys.length);
          const inRange = keys.filter((k) => (li ? k >= lo : k > lo) && (hiInc ? k <= hi : k < hi));
          const asc = [...map.postings({ value: lo, inclusive: li }, { value: hi, inclusive: hiInc })].map((p) => postingIds(p));
          expect(asc).toEqual(inRange.map((k) => [...(model.get(k) as Set<number>)].sort(cmp)));
          const desc = [...map.postings({ value: lo, inclusive: li }, { value: hi, inclusive: hiInc }, true)];
          expect(desc.length).toBe(inRange.length);
          // The walks without a generator: the same postings from either bound (its seek finds chunks by their first keys).
          for (const backwards of [false, true]) {
            const walked: number[][] = [];
            map.forEachRunIn({ value: lo, inclusive: li }, { value: hi, inclusive: hiInc }, backwards, (vals, from, to) => {
              if (from >= to) throw new Error('empty run');
              for (let i = backwards ? to - 1 : from; i >= from && i < to; i += backwards ? -1 : 1) walked.push([...postingIds(vals[i])]);
              return false;
            });
            expect(backwards ? walked.reverse() : walked).toEqual(asc.map((ids) => [...ids]));
          }
          for (const k of keys.slice(0, 20)) expect(postingIds(map.get(k))).toEqual([...(model.get(k) as Set<number>)].sort(cmp));
        },
      ),
      { numRuns: 60 },
    );
  });
});
