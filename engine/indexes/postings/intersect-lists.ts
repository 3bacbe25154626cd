// Intersection of id lists of any representation (postings, flexsearch's id arrays), smallest first:
// galloping for lists of very different sizes, cached bitsets for long, dense ones.

import { EMPTY_IDS, intersect, type SortedIds } from '../../util/sorted-ids.js';
import { andBitsets, denseEnough, probeBitsets } from './bitsets.js';
import { PostingList } from './posting-list.js';
import { postingIds, postingSize, type Posting } from './posting.js';

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
