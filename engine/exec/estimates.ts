// Index statistics for the planner, read from the store's index sizes (no node data).

import type { CostEstimates } from '../plan/query-cost.js';
import type { IndexKind } from '../schema/model.js';
import type { GraphStore } from '../store/graph-store.js';

export function storeEstimates(store: GraphStore): CostEstimates {
  return {
    typeCount: (type) => store.countOfType(type),
    indexSize: (predicate: string, kind: IndexKind) => {
      const index = store.scalar(predicate).index(kind) as { entryCount?: number; keyCount?: number } | undefined;
      if (index === undefined || index.entryCount === undefined) return undefined;
      return { entries: index.entryCount, keys: index.keyCount ?? index.entryCount };
    },
    // The mean over every node of the parent type (those without edges included), so that
    // parents × fan-out is the edges read when the parents are the whole type.
    fanOut: (predicate: string, parentType: string) => store.edges(predicate).size / Math.max(1, store.countOfType(parentType)),
  };
}
