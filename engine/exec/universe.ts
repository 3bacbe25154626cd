// The nodes a filter runs over. A root field's universe is every node of its type: handing that out as
// one sorted array costs O(nodes) right after any write (the type's posting merges its pending adds and
// deletes), so a filter that an index answers (`slug: { eq }` in a mutation, a get-like list) must
// not ask for it. It is materialised only by the plan steps that need every node (`scan`, `not`, a
// large intersection); short lists are checked node by node.

import type { GraphStore } from '../store/graph-store.js';
import { contains, intersect, type SortedIds } from '../util/sorted-ids.js';

export interface Universe {
  readonly size: number;
  has(id: number): boolean;
  /** Every node, ascending (a snapshot). */
  ids(): SortedIds;
}

/** A list of ids as a universe (edge targets, mutation payloads). */
export function listUniverse(ids: SortedIds): Universe {
  return { size: ids.length, has: (id) => contains(ids, id), ids: () => ids };
}

/** The live nodes of a type; the sorted list is only built if a step asks for it. */
export function typeUniverse(store: GraphStore, typeName: string): Universe {
  return {
    size: store.countOfType(typeName),
    has: (id) => store.nodeExists(id) && store.hasType(id, typeName),
    ids: () => store.nodesOfType(typeName),
  };
}

/**
 * `ids` ∩ `universe`: a membership check per id when `ids` is much shorter (the cost of a galloping
 * intersection, without materialising the universe), else a merge with the universe's list.
 */
export function restrictTo(ids: SortedIds, universe: Universe): SortedIds {
  if (ids.length * 16 < universe.size) return ids.filter((id) => universe.has(id));
  return intersect(ids, universe.ids());
}
