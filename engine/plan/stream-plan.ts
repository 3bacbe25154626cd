// Streamed pages: when every condition of a filter can be checked on one node from typed column
// values (number and DateTime comparisons, `has` of a scalar) a page can be taken by walking nodes in
// the page's order and checking each, stopping after offset + first, instead of collecting every
// match first. Three walks: the order field's index from the bound of a range on that same field
// (`range-walk`), the order field's whole index (`walk-check`), the type's nodes in uid order for
// unordered pages (`scan-check`). Which one runs, if any, is an adaptive choice made with the
// estimated match count when run (chooseStream); the plan only says which walks are possible.

import type { FieldKind, FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { FilterPlan } from './filter-plan.js';
import { prefersWalk, typedTestCost, walkCost, type OrderPlan } from './order-plan.js';

export type IndexNode = Extract<FilterPlan, { op: 'index' }>;

/** `range-first-k` is what exec/ runs instead of collecting when a range can be walked (the page keeps k). */
export type StreamStrategy = 'range-walk' | 'walk-check' | 'scan-check' | 'range-first-k';

export interface StreamPlan {
  /** A range condition on the order key every match must satisfy: its index is walked from its bound. */
  readonly driver: IndexNode | undefined;
  /**
   * The range conditions every match must satisfy (top-level conjuncts): an unordered set (an
   * aggregate) is gathered by walking the narrowest one and checking the rest, with no id list built.
   */
  readonly ranges: readonly IndexNode[];
}

const scalarKinds: readonly FieldKind[] = ['scalar', 'enum', 'geo', 'embedding'];
const comparisons = new Set(['eq', 'le', 'lt', 'ge', 'gt', 'between']);
const numberKinds: readonly IndexKind[] = ['int', 'float'];
const dateTimeKinds: readonly IndexKind[] = ['year', 'month', 'day', 'hour'];

/** The stream plan of a filter and order, when every filter condition can be checked per node. */
export function planStream(type: TypeModel, filter: FilterPlan, order: OrderPlan): StreamPlan | undefined {
  // No filter: the type's list is at hand, and its ordered first k is cached (exec/order-page.ts).
  if (filter.op === 'scan' || !checkable(type, filter)) return undefined;
  if (order.keys.length > 1) return undefined;
  const conjuncts = filter.op === 'and' ? filter.children : [filter];
  const ranges = conjuncts.filter((node): node is IndexNode => node.op === 'index' && node.fn !== 'eq');
  return { driver: order.walk === undefined ? undefined : driverOf(ranges, order), ranges };
}

/** Whether a node can be checked from one node's typed values (exec/filter-check.ts compiles it). */
export function checkable(type: TypeModel, node: FilterPlan): boolean {
  switch (node.op) {
    case 'scan':
      return true;
    case 'has': {
      // A field named by a value is known only when run: exec/ then collects if it is no scalar.
      if (node.field === undefined) return true;
      const field = type.fields.get(node.field);
      return field !== undefined && hasCheckable(field);
    }
    case 'index':
      return comparisons.has(node.fn) && typedKey(node.model, node.index);
    case 'not':
      return checkable(type, node.child);
    case 'and':
    case 'or':
      return node.children.every((child) => checkable(type, child));
    default:
      return false;
  }
}

/** `has` of a scalar stored under its own predicate is one column lookup per node. */
export function hasCheckable(field: FieldModel): boolean {
  return scalarKinds.includes(field.kind) && field.languages === undefined;
}

/** A single-valued Int/Float (read from the column's numbers) or DateTime field (keys kept by its index). */
function typedKey(field: FieldModel, index: IndexKind | 'none'): boolean {
  if (field.isList || field.languages !== undefined) return false;
  if (field.typeName === 'Int' || field.typeName === 'Float') return numberKinds.includes(index as IndexKind);
  return field.typeName === 'DateTime' && dateTimeKinds.includes(index as IndexKind);
}

/** A range on the single order key, answered by the index the order walks, that every match must satisfy. */
function driverOf(ranges: readonly IndexNode[], order: OrderPlan): IndexNode | undefined {
  const key = order.keys[0];
  if (key === undefined) return undefined;
  return ranges.find((node) => node.model.predicate === key.model.predicate && node.index === order.walk);
}

/**
 * The walk to take, or undefined to collect every match first (order-plan.ts prefersWalk: typed
 * tests, the matches gathered from their ranges). A walk from the range bound of the order key
 * visits no more than the range holds: it always pays.
 */
export function chooseStream(stream: StreamPlan, order: OrderPlan, limit: number | undefined, matches: number, total: number): StreamStrategy | undefined {
  if (stream.driver !== undefined) return 'range-walk';
  if (limit === undefined) return undefined;
  const walk = order.keys.length === 0 ? 'scan-check' : order.walk === undefined ? undefined : 'walk-check';
  if (walk === undefined) return undefined;
  // Instead of collecting, a range can be walked keeping the first k (`range-first-k`): each match is
  // visited and tested like a walk's node, and offered to a bounded heap most reject.
  if (stream.ranges.length > 0 && limit <= maxFirstK) return walkCost(limit, total, matches, typedTestCost) < rangeFirstKCost * matches ? walk : undefined;
  return prefersWalk(limit, total, matches, matches, typedTestCost) ? walk : undefined;
}

/** Above this offset + first, keeping the first k in a bounded heap (util/top-k.ts) costs more than sorting the matches (exec/stream-page.ts). */
export const maxFirstK = 256;
/** A range-first-k's cost per match in walk visits (measured: float-between at 10k posts, 2% of the type matching). */
const rangeFirstKCost = 2;
