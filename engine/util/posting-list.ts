// Posting lists: the set of node ids stored under one key of an index (or one type, or one column's
// "has a value" set). Small sets are plain frozen-by-convention arrays or a bare number; large ones a
// PostingList that absorbs out-of-order writes in side sets and merges them on the next read.
//
// Every SortedIds handed out is a snapshot: it is never mutated afterwards, so callers may keep it
// across later writes.

import { EMPTY_IDS, contains, intersect, lowerBound, type SortedIds } from './sorted-ids.js';

/** One id, a small sorted array (copy-on-write) or a PostingList. */
export type Posting = number | readonly number[] | PostingList;

/** Above this many ids a posting becomes a PostingList. */
const SMALL_MAX = 32;

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
    this.bits = undefined;
    const main = this.main;
    const n = main.length;
    if ((n === 0 || (main[n - 1] as number) < id) && !this.adds?.has(id)) {
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
    if ((this.adds !== undefined && this.adds.size > 0) || (this.dels !== undefined && this.dels.size > 0)) {
      this.main = this.merged();
      this.adds = undefined;
      this.dels = undefined;
    }
    this.shared = true;
    return this.main;
  }

  /** A membership bitset (cached until the next write), or undefined when it would outweigh the list. */
  bitset(): Uint32Array | undefined {
    if (this.bits !== undefined) return this.bits;
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
    const dels = this.dels;
    const base = dels !== undefined && dels.size > 0 ? this.main.filter((x) => !dels.has(x)) : this.main;
    if (this.adds === undefined || this.adds.size === 0) return base === this.main ? base.slice() : base;
    const extra = Float64Array.from(this.adds).sort();
    const out: number[] = new Array<number>(base.length + extra.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < base.length && j < extra.length) {
      const x = base[i] as number;
      const y = extra[j] as number;
      if (x < y) {
        out[k++] = x;
        i++;
      } else {
        out[k++] = y;
        j++;
      }
    }
    while (i < base.length) out[k++] = base[i++] as number;
    while (j < extra.length) out[k++] = extra[j++] as number;
    return out;
  }
}

/** Lists at least this long get a membership bitset when intersected (if dense enough). */
export const BITSET_MIN = 1024;

/** A bitset of sorted `ids`, or undefined for short or sparse lists (where the bitset would be larger). */
export function bitsetOf(ids: SortedIds): Uint32Array | undefined {
  const n = ids.length;
  if (n < BITSET_MIN) return undefined;
  const words = ((ids[n - 1] as number) >>> 5) + 1;
  if (words > n * 2) return undefined;
  const bits = new Uint32Array(words);
  for (let k = 0; k < n; k++) {
    const id = ids[k] as number;
    bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31));
  }
  return bits;
}

/** The ids present in every bitset (a word-wise AND: for dense lists, cheaper than probing each id). */
export function andBitsets(bitsets: readonly Uint32Array[]): number[] {
  const out: number[] = [];
  let words = Infinity;
  for (const b of bitsets) words = Math.min(words, b.length);
  if (bitsets.length === 0 || words === Infinity) return out;
  const a = bitsets[0] as Uint32Array;
  const b = (bitsets[1] ?? a) as Uint32Array;
  for (let w = 0; w < words; w++) {
    let x = (a[w] as number) & (b[w] as number);
    for (let k = 2; k < bitsets.length && x !== 0; k++) x &= (bitsets[k] as Uint32Array)[w] as number;
    while (x !== 0) {
      const low = x & -x;
      out.push(w * 32 + 31 - Math.clz32(low));
      x ^= low;
    }
  }
  return out;
}

/** Whether to AND whole bitsets rather than probe the smallest list's ids: its ids fill a quarter of the words. */
function denseEnough(smallest: number, bitsetWords: number): boolean {
  return smallest * 4 >= bitsetWords;
}

/** The ids of `ids` present in every bitset. */
export function probeBitsets(ids: SortedIds, bitsets: readonly Uint32Array[]): number[] {
  const out: number[] = [];
  const first = bitsets[0];
  if (first === undefined) return ids.slice();
  const nFirst = first.length;
  outer: for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    const w = id >>> 5;
    const bit = 1 << (id & 31);
    if (w >= nFirst || ((first[w] as number) & bit) === 0) continue;
    for (let b = 1; b < bitsets.length; b++) {
      const bits = bitsets[b] as Uint32Array;
      if (w >= bits.length || ((bits[w] as number) & bit) === 0) continue outer;
    }
    out.push(id);
  }
  return out;
}

/**
 * Intersection of postings, smallest first: a much smaller list gallops into the next one; lists of
 * similar size are intersected by probing the running result against cached bitsets of the larger
 * PostingLists (one bit test per id instead of a merge over every list).
 */
export function intersectPostings(postings: readonly Posting[]): SortedIds {
  return intersectLists(postings, postingSize, postingIds, (p) => (p instanceof PostingList ? p.bitset() : undefined));
}

/**
 * Intersection of id lists of any representation, smallest first, given each list's size, its
 * ascending ids and its cached membership bitset (undefined when it has none): when the smallest
 * list is dense, every list's bitset is ANDed word by word; otherwise a much smaller running result
 * gallops into the next list and one of similar size is probed against that list's bitset.
 * No lists, or an empty one → EMPTY_IDS. A single list comes back as its own ids (not a copy);
 * two or more non-empty lists always give a fresh array.
 */
export function intersectLists<L>(
  lists: readonly L[],
  size: (list: L) => number,
  ids: (list: L) => SortedIds,
  bitset: (list: L) => Uint32Array | undefined,
): SortedIds {
  if (lists.length === 0) return EMPTY_IDS;
  const sorted = [...lists].sort((a, b) => size(a) - size(b));
  const smallest = sorted[0] as L;
  if (size(smallest) === 0) return EMPTY_IDS;
  if (sorted.length === 1) return ids(smallest);
  const dense = bitset(smallest);
  if (dense !== undefined && denseEnough(size(smallest), dense.length)) {
    const all: Uint32Array[] = [dense];
    for (let k = 1; k < sorted.length; k++) {
      const bits = bitset(sorted[k] as L);
      if (bits === undefined) break;
      all.push(bits);
    }
    if (all.length === sorted.length) return andBitsets(all);
  }
  let acc: SortedIds = ids(smallest);
  const probes: Uint32Array[] = [];
  for (let k = 1; k < sorted.length && acc.length > 0; k++) {
    const list = sorted[k] as L;
    const bits = acc.length * 16 < size(list) ? undefined : bitset(list);
    if (bits !== undefined) probes.push(bits);
    else acc = intersect(acc, ids(list));
  }
  return probes.length === 0 ? acc : probeBitsets(acc, probes);
}

/** Adds `id`; returns the new posting, or null if `id` was already there. */
export function postingAdd(p: Posting | undefined, id: number): Posting | null {
  if (p === undefined) return id;
  if (typeof p === 'number') {
    if (p === id) return null;
    return p < id ? [p, id] : [id, p];
  }
  if (p instanceof PostingList) return p.add(id) ? p : null;
  const n = p.length;
  let i: number;
  if ((p[n - 1] as number) < id) i = n;
  else {
    i = lowerBound(p, id);
    if (p[i] === id) return null;
  }
  if (n >= SMALL_MAX) {
    const list = new PostingList(p.slice());
    list.add(id);
    return list;
  }
  const out = new Array<number>(n + 1);
  for (let k = 0; k < i; k++) out[k] = p[k] as number;
  out[i] = id;
  for (let k = i; k < n; k++) out[k + 1] = p[k] as number;
  return out;
}

/** Removes `id`; returns the new posting (undefined when empty), or null if `id` was absent. */
export function postingRemove(p: Posting | undefined, id: number): Posting | undefined | null {
  if (p === undefined) return null;
  if (typeof p === 'number') return p === id ? undefined : null;
  if (p instanceof PostingList) {
    if (!p.remove(id)) return null;
    return p.size <= SMALL_MAX / 4 ? shrink(p.toArray()) : p;
  }
  const i = lowerBound(p, id);
  if (p[i] !== id) return null;
  return shrink(p.filter((_, k) => k !== i));
}

function shrink(a: SortedIds): Posting | undefined {
  if (a.length === 0) return undefined;
  if (a.length === 1) return a[0] as number;
  return a.slice();
}

/** The ids of a posting in ascending order (a snapshot). */
export function postingIds(p: Posting | undefined): SortedIds {
  if (p === undefined) return EMPTY_IDS;
  if (typeof p === 'number') return [p];
  if (p instanceof PostingList) return p.toArray();
  return p;
}

export function postingSize(p: Posting | undefined): number {
  if (p === undefined) return 0;
  if (typeof p === 'number') return 1;
  if (p instanceof PostingList) return p.size;
  return p.length;
}

export function postingHas(p: Posting | undefined, id: number): boolean {
  if (p === undefined) return false;
  if (typeof p === 'number') return p === id;
  if (p instanceof PostingList) return p.has(id);
  return contains(p, id);
}
