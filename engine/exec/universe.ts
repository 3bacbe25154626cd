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
  return new ListUniverse(ids);
}

/** The live nodes of a type; the sorted list is only built if a step asks for it. */
export function typeUniverse(store: GraphStore, typeName: string): Universe {
  return new TypeUniverse(store, typeName);
}

// Classes rather than object literals of closures: one small allocation per filter run.
class ListUniverse implements Universe {
  constructor(private readonly list: SortedIds) {}
  get size(): number {
    return this.list.length;
  }
  has(id: number): boolean {
    return contains(this.list, id);
  }
  ids(): SortedIds {
    return this.list;
  }
}

class TypeUniverse implements Universe {
  constructor(
    private readonly store: GraphStore,
    private readonly typeName: string,
  ) {}
  get size(): number {
    return this.store.countOfType(this.typeName);
  }
  has(id: number): boolean {
    return this.store.nodeExists(id) && this.store.hasType(id, this.typeName);
  }
  ids(): SortedIds {
    return this.store.nodesOfType(this.typeName);
  }
}

/**
 * `ids` ∩ `universe`: a membership check per id when `ids` is much shorter (the cost of a galloping
 * intersection, without materialising the universe), else a merge with the universe's list.
 */
export function restrictTo(ids: SortedIds, universe: Universe): SortedIds {
  if (ids.length * 16 < universe.size) return ids.filter((id) => universe.has(id));
  return intersect(ids, universe.ids());
}
