// Sorted, duplicate-free arrays of dense node ids: the currency between indexes, store and exec.
// (Implementation of the set operations lives with the store work; this file fixes the type.)

import { sortedDistinctArray } from './id-sort.js';

export type SortedIds = readonly number[];

/** Shared empty result; never mutated. */
export const EMPTY_IDS: SortedIds = Object.freeze([]) as SortedIds;

/** Index of the first element >= id in [lo, hi). */
export function lowerBound(a: SortedIds, id: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Binary search. */
export function contains(a: SortedIds, id: number): boolean {
  const i = lowerBound(a, id);
  return i < a.length && a[i] === id;
}

/** Intersection; gallops through the larger side when sizes differ a lot. */
export function intersect(a: SortedIds, b: SortedIds): number[] {
  if (a.length > b.length) [a, b] = [b, a];
  const out: number[] = [];
  if (a.length === 0) return out;
  if (a.length * 16 < b.length) {
    let lo = 0;
    for (const x of a) {
      lo = lowerBound(b, x, lo);
      if (lo >= b.length) break;
      if (b[lo] === x) out.push(x);
    }
    return out;
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out;
}

/** Like intersectMany, but a single set comes back as it is (no copy): the ids are read-only. */
export function intersectAll(sets: readonly SortedIds[]): SortedIds {
  if (sets.length === 1) return sets[0] as SortedIds;
  return intersectMany([...sets]);
}

/** Intersection of several sets, smallest first. No sets → empty. */
export function intersectMany(sets: SortedIds[]): number[] {
  if (sets.length === 0) return [];
  const sorted = [...sets].sort((x, y) => x.length - y.length);
  let acc: number[] = (sorted[0] as SortedIds).slice();
  for (let k = 1; k < sorted.length && acc.length > 0; k++) acc = intersect(acc, sorted[k] as SortedIds);
  return acc;
}

export function union(a: SortedIds, b: SortedIds): number[] {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as number);
  while (j < b.length) out.push(b[j++] as number);
  return out;
}

/** Union of several sets: pairwise merges for few sets, sort + dedupe for many. */
export function unionMany(sets: SortedIds[]): number[] {
  const nonEmpty = sets.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return (nonEmpty[0] as SortedIds).slice();
  if (nonEmpty.length <= 4) {
    let acc = union(nonEmpty[0] as SortedIds, nonEmpty[1] as SortedIds);
    for (let k = 2; k < nonEmpty.length; k++) acc = union(acc, nonEmpty[k] as SortedIds);
    return acc;
  }
  let total = 0;
  for (const s of nonEmpty) total += s.length;
  const buf = new Int32Array(total);
  let n = 0;
  for (const s of nonEmpty) for (const x of s) buf[n++] = x;
  return sortedDistinctArray(buf);
}

/** a minus b. */
export function difference(a: SortedIds, b: SortedIds): number[] {
  if (b.length === 0) return a.slice();
  const out: number[] = [];
  let j = 0;
  for (const x of a) {
    while (j < b.length && (b[j] as number) < x) j++;
    if (j < b.length && b[j] === x) continue;
    out.push(x);
  }
  return out;
}

/** Inserts in place keeping order; false if already present. */
export function insertSorted(a: number[], id: number): boolean {
  const n = a.length;
  if (n === 0 || (a[n - 1] as number) < id) {
    a.push(id);
    return true;
  }
  const i = lowerBound(a, id);
  if (a[i] === id) return false;
  a.splice(i, 0, id);
  return true;
}

/** Removes in place; false if absent. */
export function removeSorted(a: number[], id: number): boolean {
  const n = a.length;
  if (n > 0 && a[n - 1] === id) {
    a.pop();
    return true;
  }
  const i = lowerBound(a, id);
  if (i >= n || a[i] !== id) return false;
  a.splice(i, 1);
  return true;
}

/** Up to this many ids, removeAll splices each (measured on 30k ids: 1 id 28 µs by splice, 99 µs by moving ids one by one; 16 ids 422 vs 222). */
const SPLICE_MAX = 3;

/**
 * Removes every id of `gone` from the ascending `a`, in place (ids of `gone` not in `a` are ignored):
 * `gone` sorted, each found by binary search after the previous, the ids between moved down once, so
 * the cost is the part of `a` after the first removed id, not a splice (or a Set lookup) per element.
 */
export function removeAll(a: number[], gone: Iterable<number>): void {
  const sorted = Float64Array.from(gone).sort();
  if (sorted.length <= SPLICE_MAX) {
    // A few ids: a splice each moves the tail as a block, faster than moving it id by id once.
    for (let k = sorted.length - 1; k >= 0; k--) removeSorted(a, sorted[k] as number);
    return;
  }
  const n = a.length;
  let w = 0;
  let r = 0;
  for (let k = 0; k < sorted.length; k++) {
    const id = sorted[k] as number;
    const at = lowerBound(a, id, r, n);
    if (w === r) w = r = at;
    else while (r < at) a[w++] = a[r++] as number;
    if (r < n && a[r] === id) r++;
  }
  if (w === r) return;
  while (r < n) a[w++] = a[r++] as number;
  a.length = w;
}

/** Sorts and de-duplicates ids collected in any order, in place. */
export function toSortedIds(ids: number[]): SortedIds {
  if (ids.length < 2) return ids;
  ids.sort((x, y) => x - y);
  let w = 1;
  for (let r = 1; r < ids.length; r++) {
    if (ids[r] !== ids[w - 1]) ids[w++] = ids[r] as number;
  }
  ids.length = w;
  return ids;
}
