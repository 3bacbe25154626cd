// A large posting: ids kept in a sorted array that absorbs out-of-order writes in side sets and merges
// them on the next read. Every array handed out is a snapshot (copy-on-write): it is never mutated
// afterwards, so callers may keep it across later writes.

import { lowerBound, type SortedIds } from '../../util/sorted-ids.js';
import { bitsetOf } from './bitsets.js';

/** The ids of one posting once it outgrows a small array. */
export class PostingList {
  private main: number[];
  /** `main` has been handed out: copy before mutating it in place. */
  private shared = false;
  /** Ids not in `main`. */
  private adds: Set<number> | undefined;
  /**
   * The positions in `main` of ids that are logically gone, one bit each: the binary search that finds
   * a removed id finds its bit (a Set of ids cost two hash lookups a removal, and a sort to compact).
   * Pushes and pops at the end keep positions; only a compaction moves ids, and it drops the bits.
   */
  private gone: Uint32Array | undefined;
  private goneCount = 0;
  /** Membership bitset of the ids, built on demand for intersections; dropped by the next write. */
  private bits: Uint32Array | undefined;

  constructor(sorted: number[] = []) {
    this.main = sorted;
  }

  get size(): number {
    return this.main.length - this.goneCount + (this.adds?.size ?? 0);
  }

  has(id: number): boolean {
    if (this.adds?.has(id)) return true;
    const i = lowerBound(this.main, id);
    return this.main[i] === id && !this.isGone(i);
  }

  add(id: number): boolean {
    const main = this.main;
    const n = main.length;
    const last = n === 0 ? -1 : (main[n - 1] as number);
    // The same id again (a value repeating a token): no write, the bitset stays.
    if (last === id && this.goneCount === 0) return false;
    this.bits = undefined;
    if (last < id && !this.adds?.has(id)) {
      if (this.adds === undefined || this.adds.size === 0) {
        this.ownMain().push(id);
        return true;
      }
    }
    if (id <= last) {
      const i = lowerBound(main, id);
      if (main[i] === id) {
        if (!this.isGone(i)) return false;
        const gone = this.gone as Uint32Array;
        gone[i >>> 5] = (gone[i >>> 5] as number) & ~(1 << (i & 31));
        this.goneCount--;
        return true;
      }
    }
    if (this.adds === undefined) this.adds = new Set();
    if (this.adds.has(id)) return false;
    this.adds.add(id);
    this.compactIfLarge(this.adds.size);
    return true;
  }

  remove(id: number): boolean {
    this.bits = undefined;
    if (this.adds?.delete(id)) return true;
    const main = this.main;
    const i = lowerBound(main, id);
    if (i >= main.length || main[i] !== id || this.isGone(i)) return false;
    if (i === main.length - 1) {
      this.ownMain().pop();
      return true;
    }
    let gone = this.gone;
    if (gone === undefined || gone.length <= i >>> 5) {
      const grown = new Uint32Array((main.length + 31) >>> 5);
      if (gone !== undefined) grown.set(gone);
      this.gone = gone = grown;
    }
    gone[i >>> 5] = (gone[i >>> 5] as number) | (1 << (i & 31));
    this.goneCount++;
    this.compactIfLarge(this.goneCount);
    return true;
  }

  /** Any one id (undefined when empty), without merging pending writes. */
  someId(): number | undefined {
    for (let i = 0; i < this.main.length; i++) if (!this.isGone(i)) return this.main[i];
    if (this.adds !== undefined) for (const id of this.adds) return id;
    return undefined;
  }

  /** The ids in ascending order (a snapshot). */
  toArray(): SortedIds {
    this.compact();
    this.shared = true;
    return this.main;
  }

  /** The ids in ascending order for a read done before the next write (a snapshot's copy): not handed out, so that write copies nothing. */
  peek(): SortedIds {
    this.compact();
    return this.main;
  }

  private isGone(i: number): boolean {
    const gone = this.gone;
    return gone !== undefined && ((gone[i >>> 5] ?? 0) & (1 << (i & 31))) !== 0;
  }

  /**
   * Merges the side sets into a new `main` once one outgrows an eighth of it: a Set entry costs several
   * times an array slot, and lists written over and over without a read (a trigram's, under rewrites)
   * would otherwise hold every pending write (+41 MB over 20k trigram rewrites). Amortised O(1) a write.
   */
  private compactIfLarge(pending: number): void {
    if (pending > (this.main.length >>> 3) + 16) this.compact();
  }

  private compact(): void {
    if ((this.adds !== undefined && this.adds.size > 0) || this.goneCount > 0) {
      this.main = this.merged();
      this.shared = false;
      this.adds = undefined;
    }
    this.gone = undefined;
    this.goneCount = 0;
  }

  /** A membership bitset (cached until the next write), or undefined when it would outweigh the list; `build` false: only a cached one. */
  bitset(build = true): Uint32Array | undefined {
    if (this.bits !== undefined || !build) return this.bits;
    const ids = this.toArray();
    this.bits = bitsetOf(ids);
    return this.bits;
  }

  private ownMain(): number[] {
    if (this.shared) {
      this.main = this.main.slice();
      this.shared = false;
    }
    return this.main;
  }

  /** `main` without its gone ids, merged with `adds`: in place (one pass) when there are no adds. */
  private merged(): number[] {
    if (this.adds === undefined || this.adds.size === 0) {
      const main = this.ownMain();
      let w = 0;
      for (let r = 0; r < main.length; r++) if (!this.isGone(r)) main[w++] = main[r] as number;
      main.length = w;
      return main;
    }
    const main = this.main;
    const extra = Float64Array.from(this.adds).sort();
    const out: number[] = new Array<number>(main.length - this.goneCount + extra.length);
    let j = 0;
    let k = 0;
    for (let i = 0; i < main.length; i++) {
      if (this.isGone(i)) continue;
      const x = main[i] as number;
      while (j < extra.length && (extra[j] as number) < x) out[k++] = extra[j++] as number;
      out[k++] = x;
    }
    while (j < extra.length) out[k++] = extra[j++] as number;
    return out;
  }
}
