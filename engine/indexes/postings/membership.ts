// A membership test over one sorted id list, for filters checked per candidate (an ordered walk, or the
// small side of an intersection): one binary search per id, so testing k ids costs k·log(n) and never
// materialises or copies the list. Valid while the list is not written (one request's call).

import { contains, type SortedIds } from '../../util/sorted-ids.js';

export interface Membership {
  /** Ids in the list (exact). */
  readonly size: number;
  has(id: number): boolean;
  /** The list's ids, ascending (read during the caller's call only). */
  readonly ids: SortedIds;
  /** The list's ids as a snapshot later writes do not change (may copy). */
  snapshot(): SortedIds;
}

export const NO_MEMBERS: Membership = { size: 0, has: () => false, ids: [], snapshot: () => [] };

/** `snapshot` defaults to `ids` itself, for lists that are snapshots already. */
export function membershipOf(ids: SortedIds, snapshot: () => SortedIds = () => ids): Membership {
  if (ids.length === 0) return NO_MEMBERS;
  return { size: ids.length, has: (id) => contains(ids, id), ids, snapshot };
}
