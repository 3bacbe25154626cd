import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingList } from '../../../../engine/indexes/postings/posting-list.js';
import {
  postingAdd,
  postingHas,
  postingIds,
  postingRemove,
  postingSize,
  type Posting,
} from '../../../../engine/indexes/postings/posting.js';

const ref = (s: Set<number>): number[] => [...s].sort((x, y) => x - y);
const op = fc.tuple(fc.constantFrom('add', 'add', 'remove', 'read'), fc.integer({ min: 1, max: 120 }));

describe('PostingList', () => {
  it('handed-out arrays are snapshots', () => {
    const p = new PostingList();
    for (let i = 1; i <= 5; i++) p.add(i);
    const snap = p.toArray();
    p.add(6);
    p.remove(5);
    p.remove(1);
    expect(snap).toEqual([1, 2, 3, 4, 5]);
    expect(p.toArray()).toEqual([2, 3, 4, 6]);
    expect(p.size).toBe(4);
  });

  it('writes without reads keep the pending side sets within an eighth of the list (plus 16)', () => {
    const p = new PostingList(Array.from({ length: 1000 }, (_, k) => 2 * k));
    const model = new Set(p.toArray());
    const pending = (): { adds?: Set<number>; goneCount: number; main: number[] } => p as unknown as { adds?: Set<number>; goneCount: number; main: number[] };
    for (let k = 0; k < 5000; k++) {
      const id = (k * 7919) % 2000;
      if (k % 2 === 0) expect(p.remove(id)).toBe(model.delete(id));
      else {
        expect(p.add(id)).toBe(!model.has(id));
        model.add(id);
      }
      const { adds, goneCount, main } = pending();
      expect(Math.max(adds?.size ?? 0, goneCount)).toBeLessThanOrEqual((main.length >>> 3) + 16);
    }
    expect(p.toArray()).toEqual([...model].sort((a, b) => a - b));
  });

  it('a long list under removals anywhere, re-adds and pushes agrees with a Set (membership, size, some id, snapshots)', () => {
    const bigOp = fc.tuple(fc.constantFrom('add', 'remove', 'remove', 'push', 'read'), fc.integer({ min: 0, max: 700 }));
    fc.assert(
      fc.property(fc.array(bigOp, { maxLength: 400 }), (ops) => {
        const start = Array.from({ length: 300 }, (_, k) => 2 * k);
        const p = new PostingList(start.slice());
        const model = new Set(start);
        let top = 600;
        const snaps: [readonly number[], number[]][] = [];
        for (const [kind, n] of ops) {
          const id = kind === 'push' ? top++ : n;
          if (kind === 'read') snaps.push([p.toArray(), ref(model)]);
          else if (kind === 'remove') expect(p.remove(id)).toBe(model.delete(id));
          else {
            expect(p.add(id)).toBe(!model.has(id));
            model.add(id);
          }
          expect(p.size).toBe(model.size);
          expect(p.has(id)).toBe(model.has(id));
          const some = p.someId();
          if (model.size === 0) expect(some).toBeUndefined();
          else expect(model.has(some as number)).toBe(true);
        }
        expect(p.toArray()).toEqual(ref(model));
        for (const [got, want] of snaps) expect(got).toEqual(want);
      }),
    );
  });

  it('re-adds an id that is last in the array but logically removed', () => {
    const p = new PostingList([1, 2, 3]);
    expect(p.remove(2)).toBe(true); // marked removed
    expect(p.remove(3)).toBe(true); // popped: 2 is now last, still marked
    expect(p.add(2)).toBe(true);
    expect(p.add(2)).toBe(false);
    expect(p.toArray()).toEqual([1, 2]);
  });

  it('agrees with a Set under random add/remove/read', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const p = new PostingList();
        const model = new Set<number>();
        const snaps: [readonly number[], number[]][] = [];
        for (const [kind, id] of ops) {
          if (kind === 'add') {
            expect(p.add(id)).toBe(!model.has(id));
            model.add(id);
          }
          else if (kind === 'remove') expect(p.remove(id)).toBe(model.delete(id));
          else snaps.push([p.toArray(), ref(model)]);
          expect(p.size).toBe(model.size);
          expect(p.has(id)).toBe(model.has(id));
        }
        expect(p.toArray()).toEqual(ref(model));
        for (const [got, want] of snaps) expect(got).toEqual(want);
      }),
    );
  });

  it.each([32, 4, 1])('posting helpers (small arrays up to %i ids) switch representation and agree with a Set', (smallMax) => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        let p: Posting | undefined;
        const model = new Set<number>();
        // Snapshots handed out before later writes must never change (small arrays are copied on write).
        const snaps: [readonly number[], number[]][] = [];
        for (const [kind, id] of ops) {
          snaps.push([postingIds(p), ref(model)]);
          if (kind === 'add') {
            const next = postingAdd(p, id, smallMax);
            expect(next === null).toBe(model.has(id));
            if (next !== null) p = next;
            model.add(id);
          } else if (kind === 'remove') {
            const next = postingRemove(p, id, smallMax);
            expect(next === null).toBe(!model.has(id));
            if (next !== null) p = next;
            model.delete(id);
          } else {
            expect(postingIds(p)).toEqual(ref(model));
          }
          if (smallMax === 1) expect(Array.isArray(p)).toBe(false);
          expect(postingSize(p)).toBe(model.size);
          expect(postingHas(p, id)).toBe(model.has(id));
        }
        expect(postingIds(p)).toEqual(ref(model));
        for (const [got, want] of snaps) expect(got).toEqual(want);
      }),
    );
  });
});
