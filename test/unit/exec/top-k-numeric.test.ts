// The first k of an id list in one number column's order (exec/order-page.ts topKNumeric): the plain
// heap, and from k = 64 over at least 8k ids the heap over the ids below a sampled threshold. Both
// must give exactly the naive sort's first k: ties by id, missing values last, either direction,
// whatever the sample says (all keys equal, most values missing, the best keys clustered where the
// sample does not look, k close to the list's length).

import { describe, expect, it } from 'vitest';
import { topKNumeric } from '../../../engine/exec/order-page.js';
import { prng } from './seeded.js';

interface Column {
  readonly present: Uint8Array;
  readonly nums: Float64Array;
}

function column(size: number, value: (id: number) => number | undefined): Column {
  const present = new Uint8Array(size);
  const nums = new Float64Array(size);
  for (let id = 0; id < size; id++) {
    const v = value(id);
    if (v === undefined) continue;
    present[id] = 1;
    nums[id] = v;
  }
  return { present, nums };
}

/** Every id sorted by (value, id), values missing last: the answer topKNumeric must start. */
function naive(ids: readonly number[], col: Column, desc: boolean): number[] {
  return [...ids].sort((a, b) => {
    const pa = col.present[a] === 1;
    const pb = col.present[b] === 1;
    if (pa !== pb) return pa ? -1 : 1;
    const va = col.nums[a] as number;
    const vb = col.nums[b] as number;
    if (pa && va !== vb) return desc ? vb - va : va - vb;
    return a - b;
  });
}

function idsOf(size: number, keep: (id: number) => boolean): number[] {
  const out: number[] = [];
  for (let id = 0; id < size; id++) if (keep(id)) out.push(id);
  return out;
}

const size = 60_000;

describe('topKNumeric', () => {
  const draw = prng(5);
  const cases: [string, Column, number[]][] = [
    ['spread values', column(size, () => draw(1_000_000)), idsOf(size, () => draw(3) === 0)],
    ['few distinct values (ties by id)', column(size, () => draw(7)), idsOf(size, () => draw(2) === 0)],
    ['every value equal', column(size, () => 42), idsOf(size, () => true)],
    ['most values missing', column(size, () => (draw(10) === 0 ? draw(100) : undefined)), idsOf(size, () => true)],
    ['negative and zero values', column(size, () => draw(5) - 2), idsOf(size, () => draw(4) !== 0)],
    // The best keys all in one stretch of ids: the evenly spaced sample sees few of them.
    ['best keys clustered', column(size, (id) => (id > 30_000 && id < 31_500 ? -id : id)), idsOf(size, () => true)],
    ['ids past the column', column(size / 2, () => draw(1000)), idsOf(size, () => draw(2) === 0)],
  ];
  for (const [name, col, ids] of cases) {
    it(`gives the naive first k: ${name}`, () => {
      for (const desc of [false, true]) {
        const sorted = naive(ids, col, desc);
        for (const k of [1, 10, 64, 100, 1024, 2_500, Math.floor(ids.length / 8), ids.length]) {
          expect(topKNumeric(ids, k, col, desc)).toEqual(sorted.slice(0, k));
        }
      }
    });
  }
});
