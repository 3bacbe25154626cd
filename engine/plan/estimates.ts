// Size statistics the planner chooses by: node counts per type, index entry and key counts, edge
// counts. Read through a structural view of the store (sizes only, never node data), so plan/ stays
// free of store/ imports.

import type { IndexKind } from '../schema/model.js';

/** Index statistics the planner may consult (sizes only, no data). */
export interface Estimates {
  typeCount(type: string): number;
  /** Entries (value, node) of an index and its distinct keys; undefined if there is no such index. */
  indexSize(predicate: string, kind: IndexKind): { entries: number; keys: number } | undefined;
}

export interface CostEstimates extends Estimates {
  /** Average number of edges of `predicate` per node of `parentType` (forward, or reverse for `~p` fields). */
  fanOut(predicate: string, parentType: string, reverse: boolean): number;
}

/** What the statistics are read from: the sizes a GraphStore exposes. */
export interface StatisticsSource {
  countOfType(type: string): number;
  scalar(predicate: string): { index(kind: IndexKind): unknown };
  edges(predicate: string): { readonly size: number };
}

export function storeEstimates(store: StatisticsSource): CostEstimates {
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

/** No statistics: every estimate is 0 (plans whose evaluation order does not matter, e.g. per edge). */
export const noEstimates: Estimates = { typeCount: () => 0, indexSize: () => undefined };
