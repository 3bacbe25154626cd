// A membership test over one sorted id list, for filters checked per candidate (an ordered walk, or the
// small side of an intersection): a search per id (galloping when ids come ascending), never materialising or copying the list; or,
// once the list's cached bitset exists or the searches so far cost about what building it costs
// (log2(n) steps each, n to build), one bit test per id. A walk over a common token's list (40k ids at
// 1M posts) spent most of its time in those searches' cache misses. Valid while the list is not written
// (one request's call).

import { lowerBound, type SortedIds } from '../../util/sorted-ids.js';

export interface Membership {
  /** Ids in the list (exact). */
  readonly size: number;
  has(id: number): boolean;
  /** The list's ids, ascending (read during the caller's call only). */
  readonly ids: SortedIds;
  /** The list's ids as a snapshot later writes do not change (may copy). */
  snapshot(): SortedIds;
  /** The list's membership bitset when it was cached already: testers over several lists test it in place (inBitsets). */
  readonly bits?: Uint32Array;
}

export const NO_MEMBERS: Membership = { size: 0, has: () => false, ids: [], snapshot: () => [] };

/**
 * The list's membership bitset: with `build` false only when already cached; undefined when the list
 * has none (short or sparse lists, see bitsets.ts).
 */
export type BitsetOf = (build: boolean) => Uint32Array | undefined;

/**
 * A search step's cost in bitset-building steps (one id set): a step is a cache miss in a long list,
 * the build a sequential pass. Measured over 150 lists (ids spread over 1.1M / 110k): builds 10-16 ns
 * an id, search steps 26-49 ns, so a 40k list's bitset costs ~600-1,000 searches, not the 2.6k that
 * one unit a step said (at 1M posts each term list was searched for ~10 requests before its bitset).
 */
const searchStepCost = 3;

/** Searches made so far in lists without a bitset (by list: they are stable until written, and a write drops the bitset too). */
const searched = new WeakMap<SortedIds, number>();

/** `snapshot` defaults to `ids` itself, for lists that are snapshots already; without `bitset`, binary searches only. */
export function membershipOf(ids: SortedIds, snapshot: () => SortedIds = () => ids, bitset?: BitsetOf): Membership {
  const n = ids.length;
  if (n === 0) return NO_MEMBERS;
  // Ascending probes (a driver scanned in uid order) gallop from the previous answer's place: a few
  // steps in cache instead of a search over the whole list each; others search below it.
  let at = 0;
  const search = (id: number): boolean => {
    const prev = at;
    if (prev < n && (ids[prev] as number) < id) {
      let bound = 1;
      while (prev + bound < n && (ids[prev + bound] as number) < id) bound *= 2;
      at = lowerBound(ids, id, prev + (bound >>> 1) + 1, Math.min(prev + bound + 1, n));
    } else at = lowerBound(ids, id, 0, Math.min(prev + 1, n));
    return at < n && ids[at] === id;
  };
  if (bitset === undefined) return { size: n, has: search, ids, snapshot };
  const cached = bitset(false);
  if (cached !== undefined) return { size: n, has: inBitsets([cached]), ids, snapshot, bits: cached };
  // Ski rental: search until the searches cost what building the bitset costs, then build it. The
  // searches are counted per list across memberships (a request's walk at 1M posts searches a 40k
  // list ~400 times, under the 2.6k the bitset costs: counted per request, it was never built).
  const budget = Math.ceil(n / (searchStepCost * Math.log2(n + 1)));
  let left = budget - (searched.get(ids) ?? 0);
  let has: (id: number) => boolean = (id) => {
    if (--left <= 0) {
      searched.delete(ids);
      const built = bitset(true);
      has = built === undefined ? search : inBitsets([built]);
    } else if ((left & 31) === 0) searched.set(ids, budget - left);
    return search(id);
  };
  return { size: n, has: (id) => has(id), ids, snapshot };
}

/**
 * Whether an id is in any of `sets` (one, two or more bitsets): the bit tests in one function, not a
 * closure per list and per junction (a walk tests hundreds of ids per request).
 */
export function inBitsets(sets: readonly Uint32Array[]): (id: number) => boolean {
  const a = sets[0];
  if (a === undefined) return () => false;
  const na = a.length;
  if (sets.length === 1) {
    return (id) => {
      const w = id >>> 5;
      return w < na && ((a[w] as number) & (1 << (id & 31))) !== 0;
    };
  }
  const b = sets[1] as Uint32Array;
  const nb = b.length;
  if (sets.length === 2) {
    return (id) => {
      const w = id >>> 5;
      const bit = 1 << (id & 31);
      return (w < na && ((a[w] as number) & bit) !== 0) || (w < nb && ((b[w] as number) & bit) !== 0);
    };
  }
  return (id) => {
    const w = id >>> 5;
    const bit = 1 << (id & 31);
    for (let k = 0; k < sets.length; k++) {
      const s = sets[k] as Uint32Array;
      if (w < s.length && ((s[w] as number) & bit) !== 0) return true;
    }
    return false;
  };
}
