// A checkable filter plan (plan/stream-plan.ts `checkable`) compiled with one request's values into a
// test of one node, for streamed pages: comparisons read the typed value in place (the column's
// numbers, or the DateTime index's keys by id), so a check allocates and parses nothing. Also the
// estimated match count the stream choice is made with (from index key positions and column sizes,
// no id list is built).

import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { Bound } from '../indexes/postings/sorted-chunk-map.js';
import type { FilterPlan } from '../plan/filter-plan.js';
import { valueAt } from '../plan/filter-plan.js';
import { hasCheckable, type IndexNode } from '../plan/stream-plan.js';
import type { IndexKind, TypeModel } from '../schema/model.js';
import type { RangeBounds, ScalarValue } from '../indexes/value-index.js';
import type { ExecContext } from './exec-context.js';
import { rangeBounds } from './filter-eval.js';

export type NodeCheck = (id: number) => boolean;

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

const never: NodeCheck = () => false;
const always: NodeCheck = () => true;

/** The node test of `node` with the request's `filter` values; undefined when the data cannot be read in place. */
export function compileCheck(ctx: ExecContext, type: TypeModel, node: FilterPlan, filter: Filter, boundsOf: BoundsOf): NodeCheck | undefined {
  switch (node.op) {
    case 'scan':
      return always;
    case 'has': {
      const field = type.fields.get(node.field ?? String(valueAt(filter, node.at)));
      if (field === undefined) return never;
      if (!hasCheckable(field)) return undefined;
      const column = ctx.graph.store.scalar(field.predicate);
      return (id) => column.has(id);
    }
    case 'index':
      return compareCheck(ctx, node, boundsOf(node));
    case 'not': {
      const child = compileCheck(ctx, type, node.child, filter, boundsOf);
      return child === undefined ? undefined : (id) => !child(id);
    }
    case 'and':
    case 'or': {
      const parts: NodeCheck[] = [];
      for (const child of node.children) {
        const part = compileCheck(ctx, type, child, filter, boundsOf);
        if (part === undefined) return undefined;
        parts.push(part);
      }
      return node.op === 'and' ? allOf(parts) : anyOf(parts);
    }
    default:
      return undefined;
  }
}

/** A comparison of the node's number (Int/Float column) or DateTime key (its index's keys by id) with the bounds. */
function compareCheck(ctx: ExecContext, node: IndexNode, bounds: RangeBounds<ScalarValue>): NodeCheck | undefined {
  const column = ctx.graph.store.scalar(node.model.predicate);
  const index = column.index(node.index as IndexKind) as OrderedIndex | undefined;
  if (index === undefined) return undefined;
  const keys = index.keyBounds(bounds);
  if (keys === null) return never;
  const lower = numberBound(keys.lower);
  const upper = numberBound(keys.upper);
  if (lower === null || upper === null) return undefined;
  const inRange = between(lower, upper);
  const byId = index.keysById();
  if (byId !== undefined) {
    const values = byId.keys;
    return (id) => inRange(values[id] as number); // NaN (no value) and undefined (past the end) compare false
  }
  const numbers = column.numbers();
  if (numbers === undefined) return undefined;
  const { present, nums } = numbers;
  return (id) => present[id] === 1 && inRange(nums[id] as number);
}

type NumberBound = { readonly value: number; readonly inclusive: boolean } | undefined;

/** A key bound as a number bound; null for bigint keys (Int64), which are not checked in place. */
function numberBound(bound: Bound<number | bigint | string> | undefined): NumberBound | null {
  if (bound === undefined) return undefined;
  return typeof bound.value === 'number' ? { value: bound.value, inclusive: bound.inclusive } : null;
}

function between(lower: NumberBound, upper: NumberBound): (v: number) => boolean {
  const lo = lower?.value ?? -Infinity;
  const hi = upper?.value ?? Infinity;
  const loIn = lower === undefined || lower.inclusive;
  const hiIn = upper === undefined || upper.inclusive;
  if (loIn && hiIn) return (v) => v >= lo && v <= hi;
  if (loIn) return (v) => v >= lo && v < hi;
  if (hiIn) return (v) => v > lo && v <= hi;
  return (v) => v > lo && v < hi;
}

function allOf(parts: readonly NodeCheck[]): NodeCheck {
  if (parts.length === 1) return parts[0] as NodeCheck;
  if (parts.length === 2) {
    const [a, b] = parts as [NodeCheck, NodeCheck];
    return (id) => a(id) && b(id);
  }
  return (id) => parts.every((p) => p(id));
}

function anyOf(parts: readonly NodeCheck[]): NodeCheck {
  if (parts.length === 2) {
    const [a, b] = parts as [NodeCheck, NodeCheck];
    return (id) => a(id) || b(id);
  }
  return (id) => parts.some((p) => p(id));
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
