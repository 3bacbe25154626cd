import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KD_MAX_DIM, PENDING_MAX, VectorIndex } from '../../../engine/indexes/vector-index.js';
import type { VectorMetric } from '../../../engine/indexes/vector-metric.js';
import { TopK } from '../../../engine/util/top-k.js';

const metrics: readonly VectorMetric[] = ['euclidean', 'cosine', 'dotproduct'];

/** The formulas of Dgraph's query rewriter, written independently of the engine. */
function naiveDistance(metric: VectorMetric, a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  let sq = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    aa += x * x;
    bb += y * y;
    sq += (x - y) * (x - y);
  }
  if (metric === 'euclidean') return Math.sqrt(sq);
  if (metric === 'cosine') return 1 - dot / Math.sqrt(aa * bb);
  return 1 - dot;
}

/** The k nearest of `live` (id → vector) by a full scan: ascending distance, ties by id, NaN left out. */
function naiveNearest(metric: VectorMetric, live: ReadonlyMap<number, Float32Array>, q: Float32Array, k: number): { ids: number[]; distances: number[] } {
  const all = [...live]
    .map(([id, v]) => ({ id, d: naiveDistance(metric, q, v) }))
    .filter((x) => !Number.isNaN(x.d))
    .sort((x, y) => x.d - y.d || x.id - y.id)
    .slice(0, k);
  return { ids: all.map((x) => x.id), distances: all.map((x) => x.d) };
}

/** The answer of `index.nearest`, without its EXPLAIN counts. */
function near(index: VectorIndex, metric: VectorMetric, q: Float32Array, k: number): { ids: number[]; distances: number[] } {
  const { ids, distances } = index.nearest(metric, q, k);
  return { ids, distances };
}

/** A vector whose coordinates come from a small grid, so equal distances (ties) are frequent. */
const vec = (dim: number): fc.Arbitrary<Float32Array> => fc.array(fc.integer({ min: -4, max: 4 }), { minLength: dim, maxLength: dim }).map((xs) => Float32Array.from(xs.map((x) => x / 4)));

describe('TopK', () => {
  it('keeps the k smallest keys, ties by smaller id, in ascending order', () => {
    const top = new TopK(3);
    for (const [key, id] of [[5, 1], [1, 9], [1, 4], [3, 2], [1, 7], [NaN, 3], [0.5, 8]] as const) top.offer(key, id);
    expect(top.drain()).toEqual({ ids: [8, 4, 7], keys: [0.5, 1, 1] });
  });
  it('k = 0 keeps nothing', () => {
    const top = new TopK(0);
    top.offer(1, 1);
    expect(top.drain()).toEqual({ ids: [], keys: [] });
  });
});

describe('VectorIndex: exact nearest-k', () => {
  it('answers like a full scan under every metric, through k-d trees and the pending list, across writes', () => {
    // Enough writes to file pending vectors into trees, merge them, and rebuild half-dead ones;
    // euclidean searches go through the trees, cosine and dot product scan.
    const dim = fc.integer({ min: 1, max: KD_MAX_DIM + 2 });
    const scenario = dim.chain((d) =>
      fc.record({
        dim: fc.constant(d),
        writes: fc.array(fc.tuple(fc.integer({ min: 1, max: 500 }), fc.option(vec(d), { freq: 4 })), { minLength: 600, maxLength: 1500, size: 'max' }),
        queries: fc.array(fc.tuple(vec(d), fc.integer({ min: 0, max: 40 })), { minLength: 1, maxLength: 4 }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ writes, queries }) => {
        const index = new VectorIndex();
        const live = new Map<number, Float32Array>();
        const check = (): void => {
          for (const metric of metrics) {
            for (const [q, k] of queries) expect(near(index, metric, q, k)).toEqual(naiveNearest(metric, live, q, k));
          }
        };
        writes.forEach(([id, v], n) => {
          const prev = live.get(id);
          if (prev !== undefined) index.remove(prev, id);
          if (v === null) live.delete(id);
          else {
            index.add(v, id);
            live.set(id, v);
          }
          if (n % 400 === 399) check();
        });
        check();
        expect(index.entryCount).toBe(live.size);
      }),
      { numRuns: 40, endOnFailure: true },
    );
  });

  it('a large uniform set searched through its tree equals the scan (4 dims, euclidean)', () => {
    const index = new VectorIndex();
    const live = new Map<number, Float32Array>();
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (let id = 1; id <= 20_000; id++) {
      const v = Float32Array.from([rnd(), rnd(), rnd(), rnd()]);
      index.add(v, id);
      live.set(id, v);
    }
    for (let i = 0; i < 8; i++) {
      const q = Float32Array.from([rnd(), rnd(), rnd(), rnd()]);
      for (const metric of metrics) expect(near(index, metric, q, 5)).toEqual(naiveNearest(metric, live, q, 5));
    }
  });

  it('a back-fill (restore, schema change) builds one tree per length, answers as a scan, and later writes go on as usual', () => {
    const index = new VectorIndex();
    const live = new Map<number, Float32Array>();
    let seed = 11;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    index.backfill(() => {
      for (let id = 1; id <= 10_000; id++) {
        const v = id % 10 === 0 ? Float32Array.from([rnd(), rnd()]) : Float32Array.from([rnd(), rnd(), rnd(), rnd()]);
        index.add(v, id);
        live.set(id, v);
      }
    });
    expect([index.treeCount(4), index.treeCount(2)]).toEqual([1, 1]);
    for (let id = 10_001; id <= 10_000 + 3 * PENDING_MAX; id++) {
      const v = Float32Array.from([rnd(), rnd(), rnd(), rnd()]);
      index.add(v, id);
      live.set(id, v);
    }
    for (let i = 0; i < 8; i++) {
      const q = Float32Array.from([rnd(), rnd(), rnd(), rnd()]);
      const of4 = new Map([...live].filter(([, v]) => v.length === 4));
      for (const metric of metrics) expect(near(index, metric, q, 5)).toEqual(naiveNearest(metric, of4, q, 5));
    }
  });

  it('euclidean searches the trees and computes few distances; cosine and dot product scan every vector', () => {
    const index = new VectorIndex();
    for (let id = 1; id <= 4000; id++) index.add(Float32Array.from([id % 20, Math.floor(id / 20) % 20, id % 7]), id);
    const tree = index.nearest('euclidean', Float32Array.from([3, 4, 1]), 5);
    expect(tree.path).toBe('k-d trees');
    expect(tree.vectors).toBe(4000);
    expect(tree.examined).toBeLessThan(400);
    expect(index.nearest('cosine', Float32Array.from([3, 4, 1]), 5)).toMatchObject({ path: 'scan', vectors: 4000, examined: 4000 });
    expect(index.nearest('dotproduct', Float32Array.from([3, 4, 1]), 5)).toMatchObject({ path: 'scan', vectors: 4000, examined: 4000 });
    const wide = new VectorIndex();
    wide.add(new Float32Array(KD_MAX_DIM + 1), 1);
    expect(wide.nearest('euclidean', new Float32Array(KD_MAX_DIM + 1), 5)).toMatchObject({ path: 'scan', ids: [1], examined: 1 });
  });

  it('ties at the k-th distance keep the smaller ids, also across a tree and the pending list', () => {
    const index = new VectorIndex();
    const same = Float32Array.from([1, 1]);
    for (let id = PENDING_MAX + 10; id >= 1; id--) index.add(same, id); // all at one point: a tree, 9 pending
    index.add(Float32Array.from([1, 1]), 0);
    expect(near(index, 'euclidean', Float32Array.from([0, 0]), 3)).toEqual({ ids: [0, 1, 2], distances: [Math.SQRT2, Math.SQRT2, Math.SQRT2] });
  });

  it('updated and deleted vectors are found at their new place only', () => {
    const index = new VectorIndex();
    for (let id = 1; id <= 2 * PENDING_MAX; id++) index.add(Float32Array.from([id, 0]), id); // a tree of the first PENDING_MAX + 1
    index.remove(Float32Array.from([1, 0]), 1);
    index.add(Float32Array.from([1000, 0]), 1); // moved far away
    index.remove(Float32Array.from([2, 0]), 2); // deleted
    expect(near(index, 'euclidean', Float32Array.from([0, 0]), 2)).toEqual({ ids: [3, 4], distances: [3, 4] });
    expect(near(index, 'euclidean', Float32Array.from([1000, 0]), 1)).toEqual({ ids: [1], distances: [0] });
  });

  it('cosine leaves zero vectors out (NaN distance); a zero query finds nothing', () => {
    const index = new VectorIndex();
    index.add(Float32Array.from([0, 0]), 1);
    index.add(Float32Array.from([1, 0]), 2);
    expect(near(index, 'cosine', Float32Array.from([1, 0]), 5)).toEqual({ ids: [2], distances: [0] });
    expect(near(index, 'cosine', Float32Array.from([0, 0]), 5)).toEqual({ ids: [], distances: [] });
  });

  it('reports stored lengths other than the query one; an emptied length no longer counts', () => {
    const index = new VectorIndex();
    index.add(Float32Array.from([1, 2]), 1);
    index.add(Float32Array.from([1, 2, 3]), 2);
    expect(index.hasOtherLength(2)).toBe(true);
    index.remove(Float32Array.from([1, 2, 3]), 2);
    expect(index.hasOtherLength(2)).toBe(false);
    expect(near(index, 'euclidean', Float32Array.from([1, 2, 3]), 1)).toEqual({ ids: [], distances: [] });
  });

  it('values that are not float32 vectors (written before the field became an @embedding) are ignored', () => {
    const index = new VectorIndex();
    index.add(3, 1);
    index.add('x', 2);
    index.add(Float32Array.from([1]), 3);
    index.remove(3, 1);
    expect(near(index, 'euclidean', Float32Array.from([0]), 5)).toEqual({ ids: [3], distances: [1] });
    expect(index.entryCount).toBe(1);
  });

  it('topK larger than the stored vectors returns them all; topK 0 none', () => {
    const index = new VectorIndex();
    index.add(Float32Array.from([3]), 5);
    index.add(Float32Array.from([1]), 6);
    expect(near(index, 'dotproduct', Float32Array.from([1]), 1_000_000)).toEqual({ ids: [5, 6], distances: [-2, 0] });
    expect(near(index, 'dotproduct', Float32Array.from([1]), 0)).toEqual({ ids: [], distances: [] });
  });
});
