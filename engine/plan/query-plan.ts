// The executable plan of one root list field (`query<T>`, `aggregate<T>`): the access path and
// filter tree (filter-plan.ts), the order keys and the adaptive page step (order-plan.ts). Built
// from a filter shape, the order and index statistics only: it never reads node data, and holds no
// filter values, so one plan serves every request of the same shape (exec/query-plan-cache.ts).
// exec/run-query-plan.ts runs it and records what ran (QueryRun) for EXPLAIN.

import type { TypeModel } from '../schema/model.js';
import type { Estimates } from './estimates.js';
import { planFilter, type FilterPlan, type FilterStep } from './filter-plan.js';
import { planOrder, type OrderPlan, type PageStrategy } from './order-plan.js';
import { planStream, type StreamPlan, type StreamStrategy } from './stream-plan.js';
import { planNearCells } from './near-plan.js';

export interface QueryPlan {
  readonly root: string;
  readonly type: string;
  /** Access path and filter: `scan` of the type, `ids`, index lookups, and their intersections/unions. */
  readonly filter: FilterPlan;
  readonly order: OrderPlan;
  /** Set when every filter condition can be checked per node: the page may be streamed (stream-plan.ts). */
  readonly stream: StreamPlan | undefined;
  /** The filter is one `near` and the order one number: the page may be merged from the geo grid's cells (near-plan.ts). */
  readonly nearCells: boolean;
  /** The type's node count the estimates were taken at. */
  readonly total: number;
}

/** What running a plan did: filled by exec/ only when EXPLAIN is asked for. */
export interface QueryRun {
  /** Ids each filter node produced. */
  readonly produced: Map<FilterPlan, number>;
  /** The filter step that ran (filter-plan.ts chooseFilterStep). */
  filterStep: FilterStep;
  /** Filter nodes tested per candidate instead of producing ids (with everything under them). */
  readonly checked: Set<FilterPlan>;
  candidates: number;
  strategy: PageStrategy | StreamStrategy | 'sort after @cascade' | 'checked-walk' | 'checked-scan' | 'list-order' | 'near-cells';
  /** Index entries (or driver ids, for `checked-scan`) a walk checking the filter visited (also when it gave up). */
  visited: number;
  /** The page came from the cached first k of the same candidate list. */
  cachedPrefix: boolean;
  /** The range walked for an unordered set (an aggregate): its field and index. */
  walked?: string;
  /** An aggregate's walked matches: whether a Sum/Avg had them put in uid order (a count, Min and Max take the walk's order). */
  idOrder?: boolean;
  /** The filter node whose matches were a union of index lists, the page taken from each list's first k (none materialised), and how many lists. */
  unionLists?: { readonly node: FilterPlan; readonly count: number };
  /** The near page's cells (and how many lay inside the cap), points whose cell order was read again, and what collecting would have cost. */
  nearCells?: { readonly whole: boolean; readonly cells: number; readonly placed: number; readonly inside: number; readonly ordered: number; readonly collect: number };
}

export function planQuery(root: string, type: TypeModel, args: Readonly<Record<string, unknown>>, estimates: Estimates): QueryPlan {
  const total = estimates.typeCount(type.name);
  const filter = planFilter(type, args['filter'] as Record<string, unknown> | null | undefined, estimates, total);
  const order = planOrder(type, args['order'], true);
  return { root, type: type.name, filter, order, stream: planStream(type, filter, order), nearCells: planNearCells(filter, order), total };
}

export function newQueryRun(): QueryRun {
  return { produced: new Map(), filterStep: 'index', checked: new Set(), candidates: 0, strategy: 'none', cachedPrefix: false, visited: 0 };
}

/**
 * Everything planQuery reads of the arguments, as a string: the filter's keys, nesting, list
 * lengths, nulls and booleans, and the order. Filter values, `first` and `offset` never change a
 * plan (estimates are per index, not per value; the page step adapts when run), so requests
 * differing only in them share one.
 */
export function planShapeKey(args: Readonly<Record<string, unknown>>): string {
  return `${filterShape(args['filter'])}|${orderShape(args['order'])}`;
}

/** The order keys as a string (`asc` names, `desc` names, in `then` order). */
export function orderShape(order: unknown): string {
  let out = '';
  for (let level = order as Readonly<Record<string, unknown>> | null | undefined; level !== undefined && level !== null; level = level['then'] as never) {
    out += `${String(level['asc'])}/${String(level['desc'])};`;
  }
  return out;
}

/** A filter value's shape: keys, nesting, list lengths, nulls and booleans; other values are `v`. */
export function filterShape(value: unknown): string {
  if (value === null) return 'n';
  if (Array.isArray(value)) {
    let out = `[${value.length}`;
    for (const item of value) out += `,${filterShape(item)}`;
    return `${out}]`;
  }
  if (typeof value === 'object') {
    let out = '{';
    for (const key in value) out += `${key}:${filterShape((value as Record<string, unknown>)[key])};`;
    return `${out}}`;
  }
  return typeof value === 'boolean' ? 'b' : value === undefined ? 'u' : 'v';
}
