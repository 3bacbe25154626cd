// One direction of an edge predicate: for each node, its sorted neighbour ids, with no per-node objects.
// `slot[id]` is 0 for no neighbours, the neighbour itself (> 0, ids start at 1) for exactly one, or
// -(offset + 1) of a block in `pool` laid out as [length, n0, n1, ...] with capacity a power of two.
// Freed blocks go to per-size free lists (a free block's first slot links to the next free block).

import { EMPTY_IDS, type SortedIds } from '../util/sorted-ids.js';
import { grownInt32 } from './grow.js';
import type { CaptureSink } from './captured-values.js';

const NO_BLOCK = -1;

export class Adjacency {
  private slot = new Int32Array(0);
  private pool = new Int32Array(1024);
  private top = 0;
  /** Free-list heads by size class k (block size 2^k). */
  private readonly free = new Int32Array(32).fill(NO_BLOCK);

  count(id: number): number {
    const s = this.slot[id];
    if (s === undefined || s === 0) return 0;
    return s > 0 ? 1 : (this.pool[-s - 1] as number);
  }

  /** Neighbours in ascending order (a fresh array). */
  list(id: number): SortedIds {
    const s = this.slot[id];
    if (s === undefined || s === 0) return EMPTY_IDS;
    if (s > 0) return [s];
    const off = -s;
    const pool = this.pool;
    const n = pool[off - 1] as number;
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = pool[off + i] as number;
    return out;
  }

  /** Copies of the slots of ids 0..maxId and of the pool (for a snapshot read while writes go on): see `adjacencyPairs`. */
  capture(maxId: number, sink?: CaptureSink): { readonly slot: Int32Array; readonly pool: Int32Array } {
    const slot = new Int32Array(maxId + 1);
    slot.set(this.slot.subarray(0, Math.min(this.slot.length, maxId + 1)));
    sink?.(slot);
    const pool = this.pool.slice(0, this.top);
    sink?.(pool);
    return { slot, pool };
  }

  /** The smallest neighbour, if any. */
  first(id: number): number | undefined {
    const s = this.slot[id];
    if (s === undefined || s === 0) return undefined;
    return s > 0 ? s : (this.pool[-s] as number);
  }

  has(id: number, x: number): boolean {
    const s = this.slot[id];
    if (s === undefined || s === 0) return false;
    if (s > 0) return s === x;
    const off = -s - 1;
    const n = this.pool[off] as number;
    const i = this.search(off + 1, n, x);
    return i < off + 1 + n && this.pool[i] === x;
  }

  add(id: number, x: number): boolean {
    if (id >= this.slot.length) this.slot = grownInt32(this.slot, id);
    const s = this.slot[id] as number;
    if (s === 0) {
      this.slot[id] = x;
      return true;
    }
    if (s > 0) {
      if (s === x) return false;
      const off = this.alloc(2);
      const pool = this.pool;
      pool[off] = 2;
      pool[off + 1] = Math.min(s, x);
      pool[off + 2] = Math.max(s, x);
      this.slot[id] = -(off + 1);
      return true;
    }
    const off = -s - 1;
    const n = this.pool[off] as number;
    const start = off + 1;
    const pos = this.search(start, n, x);
    if (pos < start + n && this.pool[pos] === x) return false;
    const k = sizeClass(n + 1);
    if (n + 1 < 1 << k) {
      this.pool.copyWithin(pos + 1, pos, start + n);
      this.pool[pos] = x;
      this.pool[off] = n + 1;
      return true;
    }
    const next = this.alloc(k + 1);
    const pool = this.pool; // alloc may have replaced it
    const before = pos - start;
    pool[next] = n + 1;
    pool.copyWithin(next + 1, start, pos);
    pool[next + 1 + before] = x;
    pool.copyWithin(next + 2 + before, pos, start + n);
    this.release(off, k);
    this.slot[id] = -(next + 1);
    return true;
  }

  remove(id: number, x: number): boolean {
    const s = this.slot[id];
    if (s === undefined || s === 0) return false;
    if (s > 0) {
      if (s !== x) return false;
      this.slot[id] = 0;
      return true;
    }
    const off = -s - 1;
    const n = this.pool[off] as number;
    const start = off + 1;
    const pos = this.search(start, n, x);
    if (pos >= start + n || this.pool[pos] !== x) return false;
    const k = sizeClass(n + 1);
    if (n === 2) {
      this.slot[id] = this.pool[pos === start ? start + 1 : start] as number;
      this.release(off, k);
    } else if (sizeClass(n) < k) {
      const next = this.alloc(k - 1);
      const pool = this.pool;
      pool[next] = n - 1;
      pool.copyWithin(next + 1, start, pos);
      pool.copyWithin(next + 1 + (pos - start), pos + 1, start + n);
      this.release(off, k);
      this.slot[id] = -(next + 1);
    } else {
      this.pool.copyWithin(pos, pos + 1, start + n);
      this.pool[off] = n - 1;
    }
    return true;
  }

  /** Bytes held by the typed arrays (for memory reports). */
  byteSize(): number {
    return this.slot.byteLength + this.pool.byteLength;
  }

  /** First index in [start, start+n) whose value is >= x. */
  private search(start: number, n: number, x: number): number {
    const pool = this.pool;
    let lo = start;
    let hi = start + n;
    if ((pool[hi - 1] as number) < x) return hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((pool[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private alloc(k: number): number {
    const headFree = this.free[k] as number;
    if (headFree !== NO_BLOCK) {
      this.free[k] = this.pool[headFree] as number;
      return headFree;
    }
    const size = 1 << k;
    if (this.top + size > this.pool.length) {
      const next = new Int32Array(Math.max(this.top + size, Math.ceil(this.pool.length * 1.5)));
      next.set(this.pool.subarray(0, this.top));
      this.pool = next;
    }
    const off = this.top;
    this.top += size;
    return off;
  }

  private release(off: number, k: number): void {
    this.pool[off] = this.free[k] as number;
    this.free[k] = off;
  }
}

/**
 * Writes every (id, neighbour) pair of a captured adjacency (`Adjacency.capture`), by id then neighbour,
 * into `from`/`to` from index 0; returns how many.
 */
export function adjacencyPairs(slot: Int32Array, pool: Int32Array, from: Int32Array, to: Int32Array): number {
  let k = 0;
  for (let id = 1; id < slot.length; id++) {
    const s = slot[id] as number;
    if (s === 0) continue;
    if (s > 0) {
      from[k] = id;
      to[k++] = s;
      continue;
    }
    const off = -s;
    const n = pool[off - 1] as number;
    from.fill(id, k, k + n);
    to.set(pool.subarray(off, off + n), k);
    k += n;
  }
  return k;
}

/** The smallest k with 2^k >= m (m >= 2). */
function sizeClass(m: number): number {
  return 32 - Math.clz32(m - 1);
}
