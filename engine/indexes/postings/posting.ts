// A posting: the set of node ids stored under one key of an index (or one type, or one column's "has a
// value" set). Small sets are a bare number or a sorted array that is copied on every write (so it is
// its own snapshot); above SMALL_MAX ids a PostingList. Every SortedIds handed out is a snapshot.

import { EMPTY_IDS, contains, lowerBound, type SortedIds } from '../../util/sorted-ids.js';
import { PostingList } from './posting-list.js';

/** One id, a small sorted array (copy-on-write) or a PostingList. */
export type Posting = number | readonly number[] | PostingList;

/** Above this many ids a posting becomes a PostingList (by default). */
export const SMALL_MAX = 32;

/**
 * Adds `id`; returns the new posting, or null if `id` was already there. `smallMax` below 2 skips
 * small arrays (a bare id, then a PostingList): for stores whose keys mostly collect many ids one by
 * one, where copying a small array on every add costs more than the PostingList object.
 */
export function postingAdd(p: Posting | undefined, id: number, smallMax = SMALL_MAX): Posting | null {
  if (p === undefined) return id;
  if (typeof p === 'number') {
    if (p === id) return null;
    const pair = p < id ? [p, id] : [id, p];
    return smallMax < 2 ? new PostingList(pair) : pair;
  }
  if (p instanceof PostingList) return p.add(id) ? p : null;
  const n = p.length;
  let i: number;
  if ((p[n - 1] as number) < id) i = n;
  else {
    i = lowerBound(p, id);
    if (p[i] === id) return null;
  }
  if (n >= smallMax) {
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
export function postingRemove(p: Posting | undefined, id: number, smallMax = SMALL_MAX): Posting | undefined | null {
  if (p === undefined) return null;
  if (typeof p === 'number') return p === id ? undefined : null;
  if (p instanceof PostingList) {
    if (!p.remove(id)) return null;
    return p.size <= smallMax / 4 ? shrink(p.toArray()) : p;
  }
  const i = lowerBound(p, id);
  if (p[i] !== id) return null;
  const n = p.length;
  if (n <= 2) return n === 1 ? undefined : (p[1 - i] as number);
  // One copy without the id (the old array may be a snapshot someone holds: never mutated).
  const out = new Array<number>(n - 1);
  for (let k = 0; k < i; k++) out[k] = p[k] as number;
  for (let k = i + 1; k < n; k++) out[k - 1] = p[k] as number;
  return out;
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

/** Calls `fn` for each id in ascending order. */
export function postingForEach(p: Posting | undefined, fn: (id: number) => void): void {
  if (p === undefined) return;
  if (typeof p === 'number') fn(p);
  else for (const id of postingIds(p)) fn(id);
}

/** Any one id of a posting (undefined when empty), without merging a PostingList's pending writes. */
export function postingSomeId(p: Posting | undefined): number | undefined {
  if (p === undefined || typeof p === 'number') return p;
  if (p instanceof PostingList) return p.someId();
  return p[0];
}
