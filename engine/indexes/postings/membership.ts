// A membership test over one sorted id list, for filters checked per candidate (an ordered walk, or the
// small side of an intersection): one binary search per id, so testing k ids costs k·log(n) and never
// materialises or copies the list. Valid while the list is not written (one request's call).

import { contains, type SortedIds } from '../../util/sorted-ids.js';

export interface Membership {
  /** Ids in the list (exact). */
  readonly size: number;
  has(id: number): boolean;
  /** The list's ids, ascending. */
  readonly ids: SortedIds;
}

export const NO_MEMBERS: Membership = { size: 0, has: () => false, ids: [] };

export function membershipOf(ids: SortedIds): Membership {
  if (ids.length === 0) return NO_MEMBERS;
  return { size: ids.length, has: (id) => contains(ids, id), ids };
}
