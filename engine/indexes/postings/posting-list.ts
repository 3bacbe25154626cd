// A large posting: ids kept in a sorted array that absorbs out-of-order writes in side sets and merges
// them on the next read. Every array handed out is a snapshot (copy-on-write): it is never mutated
// afterwards, so callers may keep it across later writes.

import { contains, lowerBound, removeAll, type SortedIds } from '../../util/sorted-ids.js';
import { bitsetOf } from './bitsets.js';

/** The ids of one posting once it outgrows a small array. */
export class PostingList {
  private main: number[];
  /** `main` has been handed out: copy before mutating it in place. */
  private shared = false;
  /** Ids not in `main`. */
  private adds: Set<number> | undefined;
  /** Ids of `main` that are logically gone. */
  private dels: Set<number> | undefined;
  /** Membership bitset of the ids, built on demand for intersections; dropped by the next write. */
  private bits: Uint32Array | undefined;

  constructor(sorted: number[] = []) {
    this.main = sorted;
  }

  get size(): number {
    return this.main.length - (this.dels?.size ?? 0) + (this.adds?.size ?? 0);
  }

  has(id: number): boolean {
    if (this.adds?.has(id)) return true;
    return contains(this.main, id) && !this.dels?.has(id);
  }

  add(id: number): boolean {
    const main = this.main;
    const n = main.length;
    const last = n === 0 ? -1 : (main[n - 1] as number);
    // The same id again (a value repeating a token): no write, the bitset stays.
    if (last === id && this.dels === undefined) return false;
    this.bits = undefined;
    if (last < id && !this.adds?.has(id)) {
      if (this.adds === undefined || this.adds.size === 0) {
        this.ownMain().push(id);
        return true;
      }
    }
    if (this.dels?.delete(id)) return true;
    if (contains(main, id)) return false;
    if (this.adds === undefined) this.adds = new Set();
    if (this.adds.has(id)) return false;
    this.adds.add(id);
    this.compactIfLarge(this.adds.size);
    return true;
  }

  remove(id: number): boolean {
    this.bits = undefined;
    if (this.adds?.delete(id)) return true;
    if (this.dels?.has(id)) return false;
    const main = this.main;
    const i = lowerBound(main, id);
    if (i >= main.length || main[i] !== id) return false;
    if (i === main.length - 1) {
      this.ownMain().pop();
      return true;
    }
    if (this.dels === undefined) this.dels = new Set();
    this.dels.add(id);
    this.compactIfLarge(this.dels.size);
    return true;
  }

  /** Any one id (undefined when empty), without merging pending writes. */
  someId(): number | undefined {
    for (const id of this.main) if (this.dels === undefined || !this.dels.has(id)) return id;
    if (this.adds !== undefined) for (const id of this.adds) return id;
    return undefined;
  }

  /** The ids in ascending order (a snapshot). */
  toArray(): SortedIds {
    this.compact();
    this.shared = true;
    return this.main;
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
    if ((this.adds !== undefined && this.adds.size > 0) || (this.dels !== undefined && this.dels.size > 0)) {
      this.main = this.merged();
      this.shared = false;
      this.adds = undefined;
      this.dels = undefined;
    }
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

  private merged(): number[] {
    const dels = this.dels !== undefined && this.dels.size > 0 ? this.dels : undefined;
    if (this.adds === undefined || this.adds.size === 0) {
      // Only removals: moved down in place (one pass from the first removed id), no Set lookup per id.
      const base = this.ownMain();
      if (dels !== undefined) removeAll(base, dels);
      return base;
    }
    const main = this.main;
    const gone = dels === undefined ? undefined : Float64Array.from(dels).sort();
    const extra = Float64Array.from(this.adds).sort();
    const out: number[] = new Array<number>(main.length - (gone?.length ?? 0) + extra.length);
    let i = 0;
    let j = 0;
    let d = 0;
    let k = 0;
    while (i < main.length) {
      const x = main[i] as number;
      if (gone !== undefined && gone[d] === x) {
        d++;
        i++;
        continue;
      }
      while (j < extra.length && (extra[j] as number) < x) out[k++] = extra[j++] as number;
      out[k++] = x;
      i++;
    }
    while (j < extra.length) out[k++] = extra[j++] as number;
    return out;
  }
}
