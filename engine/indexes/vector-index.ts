// The `hnsw` index of an @embedding predicate: exact nearest-k under a metric (vector-metric.ts).
// Vectors are grouped by length (a query of one length errors if another length is stored, which
// exec checks through `hasOtherLength`); each group keeps its vectors in one dense Float32Array
// (slot per vector, swap-removed) with their squared norms. Search:
// - euclidean, up to KD_MAX_DIM dimensions: k-d trees (vector-kd-tree.ts) in the logarithmic
//   method — recent writes wait in a pending list scanned linearly; the write that brings it past
//   PENDING_MAX files it into a tree, and trees of similar size merge, so there are O(log n) trees and
//   each vector is rebuilt O(log n) times; when dead points (deleted / re-written) outnumber the live
//   ones, the trees at least half dead are rebuilt. Searches never rebuild.
// - otherwise (more dimensions, cosine, dot product): a tight scan of the dense array into a bounded
//   heap, no allocation per vector (a k-d tree prunes little there). Dgraph's HNSW is approximate;
//   this index answers the exact nearest.

import { TopKScratch, type TopK } from '../util/top-k.js';
import type { ScalarValue, ValueIndex } from './value-index.js';
import { VectorKdTree } from './vector-kd-tree.js';
import { distanceAt, selfDot, type VectorMetric } from './vector-metric.js';

/** Dimensions up to which the k-d trees are kept. */
export const KD_MAX_DIM = 8;
/** Writes kept pending (scanned linearly) before the next search files them into a tree. */
export const PENDING_MAX = 64;
const PENDING = -1;

export interface Nearest {
  /** Ascending by distance, ties by id. */
  readonly ids: number[];
  readonly distances: number[];
  /** How it was searched, for EXPLAIN: the access path, the vectors of the query's length, and those whose distance was computed. */
  readonly path: 'k-d trees' | 'scan';
  readonly vectors: number;
  readonly examined: number;
}

export class VectorIndex implements ValueIndex {
  private readonly groups = new Map<number, VectorGroup>();
  /** During a back-fill: writes stay pending (no filing and merging per 64 writes: that is O(n log n) tree builds), one tree is built at the end. */
  private filling = false;

  get entryCount(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.count;
    return n;
  }

  add(value: ScalarValue, id: number): void {
    // Other values (kept from before the field was an @embedding) are not vectors: never found, as before.
    if (!(value instanceof Float32Array)) return;
    let group = this.groups.get(value.length);
    if (group === undefined) {
      group = new VectorGroup(value.length);
      this.groups.set(value.length, group);
    }
    group.add(value, id, this.filling);
  }

  backfill(fill: () => void): void {
    this.filling = true;
    try {
      fill();
    } finally {
      this.filling = false;
      for (const group of this.groups.values()) group.fileNow();
    }
  }

  remove(value: ScalarValue, id: number): void {
    if (!(value instanceof Float32Array)) return;
    const group = this.groups.get(value.length);
    group?.remove(id);
    if (group?.count === 0) this.groups.delete(value.length);
  }

  /** k-d trees held for vectors of `length` (tests: a back-fill leaves one). */
  treeCount(length: number): number {
    return this.groups.get(length)?.treeCount ?? 0;
  }

  /** Whether a vector of a length other than `length` is stored (a search would mix lengths). */
  hasOtherLength(length: number): boolean {
    for (const [dim, g] of this.groups) if (dim !== length && g.count > 0) return true;
    return false;
  }

  /** The `k` stored vectors nearest to `q` under `metric` (NaN distances left out), exactly. */
  nearest(metric: VectorMetric, q: Float32Array, k: number): Nearest {
    const group = this.groups.get(q.length);
    if (group === undefined) return { ids: [], distances: [], path: 'scan', vectors: 0, examined: 0 };
    const top = nearestTop.take(Math.max(0, Math.min(k, group.count)));
    const trees = group.usesTrees(metric);
    const examined = top.k === 0 ? 0 : trees ? group.searchTrees(q, top) : group.scan(metric, q, selfDot(q, 0, q.length), top);
    const { ids, keys } = top.drain();
    return { ids, distances: keys, path: trees ? 'k-d trees' : 'scan', vectors: group.count, examined };
  }
}

const nearestTop = new TopKScratch();

/** The vectors of one length. */
class VectorGroup {
  count = 0;
  /** slot + 1 of each id (0: none). */
  private slotOf = new Int32Array(0);
  private slotIds = new Int32Array(16);
  private data: Float32Array;
  private norms = new Float64Array(16);
  // k-d tree side (dim in 1..KD_MAX_DIM): where each id's current vector is (a tree serial, PENDING, 0).
  private readonly tree: boolean;
  private stamp = new Int32Array(0);
  /** Position of each id's vector in the tree named by its stamp. */
  private position = new Int32Array(0);
  private pending: number[] = [];
  /** index + 1 of each pending id. */
  private pendingAt = new Int32Array(0);
  private trees: VectorKdTree[] = [];
  private readonly bySerial = new Map<number, VectorKdTree>();
  private nextSerial = 1;
  /** Dead points over all trees (a write files when they outnumber the live vectors). */
  private dead = 0;
  private stack = new Int32Array(64);
  private stackBounds = new Float64Array(64);

  constructor(readonly dim: number) {
    this.data = new Float32Array(16 * dim);
    this.tree = dim >= 1 && dim <= KD_MAX_DIM;
  }

  /** `deferred`: the pending list may grow past PENDING_MAX (a back-fill files once at the end, `fileNow`). */
  add(v: Float32Array, id: number, deferred = false): void {
    if (id < this.slotOf.length && this.slotOf[id] !== 0) this.remove(id);
    if (id >= this.slotOf.length) this.growIds(id);
    const slot = this.count++;
    if (slot >= this.slotIds.length) this.growSlots();
    this.slotIds[slot] = id;
    this.slotOf[id] = slot + 1;
    this.data.set(v, slot * this.dim);
    this.norms[slot] = selfDot(v, 0, this.dim);
    if (!this.tree) return;
    this.stamp[id] = PENDING;
    this.pending.push(id);
    this.pendingAt[id] = this.pending.length;
    if (this.pending.length > PENDING_MAX && !deferred) this.file();
  }

  /** Files whatever is pending (after a back-fill). */
  fileNow(): void {
    if (this.tree && this.pending.length > 0) this.file();
  }

  /** Trees held (tests: a back-fill leaves one). */
  get treeCount(): number {
    return this.trees.length;
  }

  remove(id: number): void {
    const slot = (id < this.slotOf.length ? (this.slotOf[id] as number) : 0) - 1;
    if (slot < 0) return;
    const last = --this.count;
    if (slot !== last) {
      const moved = this.slotIds[last] as number;
      this.slotIds[slot] = moved;
      this.slotOf[moved] = slot + 1;
      this.data.copyWithin(slot * this.dim, last * this.dim, last * this.dim + this.dim);
      this.norms[slot] = this.norms[last] as number;
    }
    this.slotOf[id] = 0;
    if (!this.tree) return;
    const where = this.stamp[id] as number;
    if (where === PENDING) {
      const at = (this.pendingAt[id] as number) - 1;
      const tail = this.pending.pop() as number;
      if (tail !== id) {
        this.pending[at] = tail;
        this.pendingAt[tail] = at + 1;
      }
      this.pendingAt[id] = 0;
    } else if (where > 0) {
      const owner = this.bySerial.get(where);
      if (owner !== undefined) {
        owner.kill(this.position[id] as number);
        this.dead++;
      }
    }
    this.stamp[id] = 0;
    if (this.dead > this.count) this.file();
  }

  usesTrees(metric: VectorMetric): boolean {
    return this.tree && metric === 'euclidean';
  }

  /** Euclidean search through the trees and the pending list; returns the vectors whose distance it computed. */
  searchTrees(q: Float32Array, top: TopK): number {
    let examined = this.pending.length;
    for (const t of this.trees) {
      const depth = t.stackDepth;
      if (this.stack.length < depth) {
        this.stack = new Int32Array(depth);
        this.stackBounds = new Float64Array(depth);
      }
      examined += t.search(q, top, this.stack, this.stackBounds);
    }
    const { pending, slotOf, data, dim } = this;
    for (let i = 0; i < pending.length; i++) {
      const id = pending[i] as number;
      const slot = (slotOf[id] as number) - 1;
      top.offer(distanceAt('euclidean', q, 0, data, slot * dim, 0), id);
    }
    return examined;
  }

  /** Every vector of the group into `top` (one loop per metric, the same sums as distanceAt); only candidates within the heap's worst are offered. */
  scan(metric: VectorMetric, q: Float32Array, qq: number, top: TopK): number {
    if (metric === 'euclidean') this.scanEuclidean(q, top);
    else this.scanDot(q, metric === 'cosine' ? qq : -1, top);
    return this.count;
  }

  private scanEuclidean(q: Float32Array, top: TopK): void {
    const { count, slotIds, data, dim } = this;
    let worst = top.worst;
    for (let s = 0, at = 0; s < count; s++, at += dim) {
      let sq = 0;
      for (let i = 0; i < dim; i++) {
        const x = (q[i] as number) - (data[at + i] as number);
        sq += x * x;
      }
      const d = Math.sqrt(sq);
      if (d <= worst) {
        top.offer(d, slotIds[s] as number);
        worst = top.worst;
      }
    }
  }

  /** Dot product, or cosine when `qq` (q·q) is not negative. */
  private scanDot(q: Float32Array, qq: number, top: TopK): void {
    const { count, slotIds, data, norms, dim } = this;
    const cosine = qq >= 0;
    let worst = top.worst;
    for (let s = 0, at = 0; s < count; s++, at += dim) {
      let dot = 0;
      for (let i = 0; i < dim; i++) dot += (q[i] as number) * (data[at + i] as number);
      const d = cosine ? 1 - dot / Math.sqrt(qq * (norms[s] as number)) : 1 - dot;
      if (d <= worst) {
        top.offer(d, slotIds[s] as number);
        worst = top.worst;
      }
    }
  }

  /** Files the pending vectors into a tree, merges trees of similar size and rebuilds half-dead ones. */
  private file(): void {
    let trees = this.trees.filter((t) => 2 * t.dead < t.size);
    for (const t of this.trees) if (!trees.includes(t)) trees.push(this.rebuild([t]));
    if (this.pending.length > 0) {
      const fresh = this.build(Int32Array.from(this.pending));
      for (const id of this.pending) this.pendingAt[id] = 0;
      this.pending = [];
      trees.push(fresh);
    }
    trees = trees.filter((t) => t.size > 0).sort((a, b) => b.size - a.size);
    // Logarithmic method: a tree at most twice the size of the next smaller one absorbs it.
    for (let i = trees.length - 1; i > 0; ) {
      const big = trees[i - 1] as VectorKdTree;
      const small = trees[i] as VectorKdTree;
      if (big.size - big.dead <= 2 * (small.size - small.dead)) {
        trees.splice(i - 1, 2, this.rebuild([big, small]));
        trees.sort((a, b) => b.size - a.size);
        i = trees.length - 1;
      } else i--;
    }
    this.trees = trees;
    this.dead = 0;
    for (const t of trees) this.dead += t.dead;
  }

  /** A new tree over the live points of `old` (which are dropped). */
  private rebuild(old: readonly VectorKdTree[]): VectorKdTree {
    const live: number[] = [];
    for (const t of old) {
      this.bySerial.delete(t.serial);
      for (const id of t.liveIds()) live.push(id);
    }
    return this.build(Int32Array.from(live));
  }

  /** A tree over the current vectors of `ids`; stamps them with its serial. */
  private build(ids: Int32Array): VectorKdTree {
    const { dim, slotOf, data } = this;
    const n = ids.length;
    const coords = new Float32Array(n * dim);
    for (let i = 0; i < n; i++) {
      const slot = (slotOf[ids[i] as number] as number) - 1;
      coords.set(data.subarray(slot * dim, slot * dim + dim), i * dim);
    }
    const serial = this.nextSerial++;
    const tree = new VectorKdTree(serial, dim, ids, coords);
    // The tree reordered `ids` into leaf order.
    for (let i = 0; i < n; i++) {
      this.stamp[ids[i] as number] = serial;
      this.position[ids[i] as number] = i;
    }
    this.bySerial.set(serial, tree);
    return tree;
  }

  private growIds(id: number): void {
    const size = Math.max(id + 1, this.slotOf.length * 2, 64);
    const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.slotOf = grow(this.slotOf);
    if (this.tree) {
      this.stamp = grow(this.stamp);
      this.position = grow(this.position);
      this.pendingAt = grow(this.pendingAt);
    }
  }

  private growSlots(): void {
    const size = this.slotIds.length * 2;
    const ids = new Int32Array(size);
    ids.set(this.slotIds);
    this.slotIds = ids;
    const data = new Float32Array(size * this.dim);
    data.set(this.data);
    this.data = data;
    const norms = new Float64Array(size);
    norms.set(this.norms);
    this.norms = norms;
  }
}
