// How many nodes a filter selects, estimated per request from its values (index key positions, posting
// and column sizes; no id list built): what a streamed page (stream-page.ts) chooses its walk with.

import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { RangeBounds, ScalarValue } from '../indexes/value-index.js';
import { valueAt, type FilterPlan } from '../plan/filter-plan.js';
import type { IndexNode } from '../plan/stream-plan.js';
import type { IndexKind, TypeModel } from '../schema/model.js';
import type { ExecContext } from './exec-context.js';
import { rangeBounds } from './stored-values.js';

type Filter = Readonly<Record<string, unknown>> | null | undefined;

/** A range node's bounds with the request's values, converted once per request (DateTime text is parsed). */
export type BoundsOf = (node: IndexNode) => RangeBounds<ScalarValue>;

export function requestBounds(filter: Filter): BoundsOf {
  const seen = new Map<IndexNode, RangeBounds<ScalarValue>>();
  return (node) => {
    let bounds = seen.get(node);
    if (bounds === undefined) seen.set(node, (bounds = rangeBounds(node.model, node.fn, valueAt(filter, node.at))));
    return bounds;
  };
}

/**
 * About how many of `total` nodes the filter selects: ranges from the index's key positions, `eq`
 * from its posting, `has` from the column's size; conditions taken as independent.
 */
export function estimateMatches(ctx: ExecContext, type: TypeModel, node: FilterPlan, filter: Filter, boundsOf: BoundsOf, total: number): number {
  const share = (n: FilterPlan): number => Math.min(1, estimateMatches(ctx, type, n, filter, boundsOf, total) / Math.max(1, total));
  switch (node.op) {
    case 'scan':
      return total;
    case 'has': {
      const field = type.fields.get(node.field ?? String(valueAt(filter, node.at)));
      return field === undefined ? 0 : ctx.graph.store.scalar(field.predicate).size;
    }
    case 'index': {
      const index = ctx.graph.store.scalar(node.model.predicate).index(node.index as IndexKind) as OrderedIndex | undefined;
      if (index === undefined) return total;
      const bounds = boundsOf(node);
      return node.fn === 'eq' && bounds.lower !== undefined ? index.eq(bounds.lower.value).length : index.estimateRange(bounds);
    }
    case 'not':
      return total * (1 - share(node.child));
    case 'and':
      return total * node.children.reduce((p, child) => p * share(child), 1);
    case 'or':
      return total * (1 - node.children.reduce((p, child) => p * (1 - share(child)), 1));
    default:
      return total;
  }
}
