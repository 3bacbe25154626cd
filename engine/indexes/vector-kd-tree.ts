// A static k-d tree over a set of vectors (low dimensions), for exact euclidean nearest-k searches:
// each node keeps its points' bounding box, a search visits nearer children first and skips a node
// whose distance lower bound exceeds the k-th best found so far (both squared: no root per node).
// Leaves compute the exact distance (vector-metric.ts's sum), so answers equal a full scan's. (Cosine and dot product get loose box bounds
// that prune little on spread data — slower than a scan when measured — so they scan.) The tree never
// changes shape: a point deleted or re-written afterwards is marked dead (`kill`: a byte per point,
// read next to the leaf's data), and vector-index.ts rebuilds or merges trees.

import type { TopK } from '../util/top-k.js';

const LEAF = 8;
/** Bounds are computed in floating point: prune only beyond this relative slack, so rounding never drops a true neighbour. */
const SLACK = 1e-9;

export class VectorKdTree {
  /** Points of the tree in leaf order: ids and coordinates (size × dim). */
  readonly ids: Int32Array;
  private readonly coords: Float32Array;
  /** 1 while the point at that position is its id's current vector (cleared by `kill`). */
  private readonly alive: Uint8Array;
  /** Per node its box: dim lows then dim highs (adjacent, one cache line for a few dimensions). */
  private readonly box: Float32Array;
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  /** First child (the second is left + 1); -1 for a leaf. */
  private readonly left: Int32Array;
  private nodes = 1;
  /** Points whose id no longer carries this tree's serial. */
  dead = 0;

  /** Builds over `ids` with coordinates `coords` (ids.length × dim), reordering both in place (the tree keeps them). */
  constructor(
    readonly serial: number,
    private readonly dim: number,
    ids: Int32Array,
    coords: Float32Array,
  ) {
    const n = ids.length;
    const capacity = 4 * Math.ceil(n / LEAF) + 4;
    this.ids = ids;
    this.coords = coords;
    this.alive = new Uint8Array(n).fill(1);
    this.box = new Float32Array(capacity * 2 * dim);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.left = new Int32Array(capacity);
    this.split(0, 0, n);
  }

  get size(): number {
    return this.ids.length;
  }

  /**
   * Offers every live point that can still be among the k nearest of `q` (euclidean) to `top`; returns
   * the points whose distance it computed. Bounds and the pruning limit are compared squared (no square
   * root per node), and a leaf's point is offered (its exact distance taken) only when its squared
   * distance is within the limit: the limit has the slack `pruned` gives, so no possible neighbour is skipped.
   */
  search(q: Float32Array, top: TopK, stack: Int32Array, bounds: Float64Array): number {
    if (this.size === 0) return 0;
    let examined = 0;
    const { dim, ids, coords, alive, left } = this;
    let limit = limitOf(top);
    let sp = 0;
    stack[sp] = 0;
    bounds[sp++] = -Infinity;
    while (sp > 0) {
      const node = stack[--sp] as number;
      if ((bounds[sp] as number) > limit) continue;
      const first = left[node] as number;
      if (first < 0) {
        const stop = this.end[node] as number;
        examined += stop - (this.start[node] as number);
        for (let i = this.start[node] as number, at = i * dim; i < stop; i++, at += dim) {
          if (alive[i] === 0) continue;
          // distanceAt's sum, in its order
          let sq = 0;
          for (let j = 0; j < dim; j++) {
            const d = (q[j] as number) - (coords[at + j] as number);
            sq += d * d;
          }
          if (sq > limit) continue;
          top.offer(Math.sqrt(sq), ids[i] as number);
          limit = limitOf(top);
        }
        continue;
      }
      const a = this.bound(first, q);
      const b = this.bound(first + 1, q);
      // Push the farther child first, so the nearer one is searched first and tightens the bound.
      const nearFirst = a <= b;
      const farBound = nearFirst ? b : a;
      const nearBound = nearFirst ? a : b;
      if (farBound <= limit) {
        stack[sp] = nearFirst ? first + 1 : first;
        bounds[sp++] = farBound;
      }
      if (nearBound <= limit) {
        stack[sp] = nearFirst ? first : first + 1;
        bounds[sp++] = nearBound;
      }
    }
    return examined;
  }

  /** Marks the point at `position` as no longer current (deleted or re-written). */
  kill(position: number): void {
    if (this.alive[position] === 1) {
      this.alive[position] = 0;
      this.dead++;
    }
  }

  /** Live ids (for a rebuild). */
  liveIds(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.ids.length; i++) if (this.alive[i] === 1) out.push(this.ids[i] as number);
    return out;
  }

  /** Most stack entries a search can hold (two per level). */
  get stackDepth(): number {
    return 2 * (Math.ceil(Math.log2(this.nodes + 1)) + 2);
  }

  /** A lower bound of the squared euclidean distance from `q` to any point under `node`. */
  private bound(node: number, q: Float32Array): number {
    const { dim, box } = this;
    const at = node * 2 * dim;
    let sq = 0;
    for (let i = 0; i < dim; i++) {
      const x = q[i] as number;
      const l = box[at + i] as number;
      const h = box[at + dim + i] as number;
      const d = x < l ? l - x : x > h ? x - h : 0;
      sq += d * d;
    }
    return sq;
  }

  private split(node: number, from: number, to: number): void {
    const { dim, box, coords } = this;
    this.start[node] = from;
    this.end[node] = to;
    const lo = node * 2 * dim;
    const hi = lo + dim;
    box.fill(Infinity, lo, hi);
    box.fill(-Infinity, hi, hi + dim);
    for (let i = from * dim; i < to * dim; i += dim) {
      for (let j = 0; j < dim; j++) {
        const x = coords[i + j] as number;
        if (x < (box[lo + j] as number)) box[lo + j] = x;
        if (x > (box[hi + j] as number)) box[hi + j] = x;
      }
    }
    if (to - from <= LEAF) {
      this.left[node] = -1;
      return;
    }
    let axis = 0;
    let widest = -1;
    for (let j = 0; j < dim; j++) {
      const spread = (box[hi + j] as number) - (box[lo + j] as number);
      if (spread > widest) {
        widest = spread;
        axis = j;
      }
    }
    const mid = (from + to) >>> 1;
    selectNth(this.ids, coords, dim, axis, from, to - 1, mid);
    const first = this.nodes;
    this.nodes += 2;
    this.left[node] = first;
    this.split(first, from, mid);
    this.split(first + 1, mid, to);
  }
}

/**
 * The squared distance beyond which nothing can enter `top`: Infinity until it is full, then the
 * square of its worst distance plus a relative slack, so rounding never drops a true neighbour.
 */
function limitOf(top: TopK): number {
  if (!top.full) return Infinity;
  const worst = top.worst;
  const reach = worst + SLACK * (1 + Math.abs(worst));
  return reach * reach * (1 + SLACK);
}

/** Reorders points left..right (ids and coordinate rows, in place: sequential memory) so the point at `nth` ranks there on `axis` (Hoare's selection). */
function selectNth(ids: Int32Array, coords: Float32Array, dim: number, axis: number, left: number, right: number, nth: number): void {
  while (right > left) {
    const pivot = coords[((left + right) >>> 1) * dim + axis] as number;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((coords[i * dim + axis] as number) < pivot) i++;
      while ((coords[j * dim + axis] as number) > pivot) j--;
      if (i <= j) {
        swapPoints(ids, coords, dim, i, j);
        i++;
        j--;
      }
    }
    if (nth <= j) right = j;
    else if (nth >= i) left = i;
    else return;
  }
}

function swapPoints(ids: Int32Array, coords: Float32Array, dim: number, i: number, j: number): void {
  const t = ids[i] as number;
  ids[i] = ids[j] as number;
  ids[j] = t;
  const a = i * dim;
  const b = j * dim;
  for (let k = 0; k < dim; k++) {
    const c = coords[a + k] as number;
    coords[a + k] = coords[b + k] as number;
    coords[b + k] = c;
  }
}
