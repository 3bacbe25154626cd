// Index statistics for the planner, read from the store's index sizes (no node data).

import type { Estimates } from '../plan/query-plan.js';
import type { IndexKind } from '../schema/model.js';
import type { GraphStore } from '../store/graph-store.js';

export function storeEstimates(store: GraphStore): Estimates {
  return {
    typeCount: (type) => store.countOfType(type),
    indexSize: (predicate: string, kind: IndexKind) => {
      const index = store.scalar(predicate).index(kind) as { entryCount?: number; keyCount?: number } | undefined;
      if (index === undefined || index.entryCount === undefined) return undefined;
      return { entries: index.entryCount, keys: index.keyCount ?? index.entryCount };
    },
  };
}
