// `order: {asc|desc: f, then: ...}` and `first`/`offset` over a set of node ids.
// Nodes without a value for an order key sort after those with one (as Dgraph does).

import type { SortedIds } from '../util/sorted-ids.js';
import type { FieldModel, TypeModel } from '../schema/model.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { ExecContext } from './exec-context.js';

export interface OrderInput {
  readonly asc?: string | null;
  readonly desc?: string | null;
  readonly then?: OrderInput | null;
}

export interface PageArgs {
  readonly order?: OrderInput | null | undefined;
  readonly first?: number | null | undefined;
  readonly offset?: number | null | undefined;
}

interface SortKey {
  readonly field: FieldModel;
  readonly descending: boolean;
}

export function orderAndPage(ctx: ExecContext, type: TypeModel, ids: SortedIds, args: PageArgs): SortedIds {
  const keys = sortKeys(type, args.order);
  let result: readonly number[] = ids;
  if (keys.length > 0) result = sortIds(ctx, ids, keys);
  const offset = Math.max(0, args.offset ?? 0);
  const first = args.first;
  if (offset === 0 && (first === undefined || first === null)) return result;
  const end = first === undefined || first === null ? undefined : offset + Math.max(0, first);
  return result.slice(offset, end);
}

function sortKeys(type: TypeModel, order: OrderInput | null | undefined): SortKey[] {
  const keys: SortKey[] = [];
  for (let level = order; level !== undefined && level !== null; level = level.then) {
    const name = level.asc ?? level.desc;
    if (name === undefined || name === null) continue;
    const field = type.fields.get(name);
    if (field !== undefined) keys.push({ field, descending: level.asc === undefined || level.asc === null });
  }
  return keys;
}

function sortIds(ctx: ExecContext, ids: SortedIds, keys: readonly SortKey[]): number[] {
  const columns = keys.map((k) => ctx.graph.store.scalar(k.field.predicate));
  const rows = ids.map((id) => ({ id, values: columns.map((c) => sortable(c.get(id))) }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareMissingLast(a.values[i], b.values[i], (keys[i] as SortKey).descending);
      if (c !== 0) return c;
    }
    return a.id - b.id;
  });
  return rows.map((r) => r.id);
}

type Sortable = string | number | bigint | boolean | undefined;

function sortable(value: ScalarValue | readonly ScalarValue[] | undefined): Sortable {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v === 'object') return undefined;
  return v as Sortable;
}

function compareMissingLast(a: Sortable, b: Sortable, descending: boolean): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  const c = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -c : c;
}

/** Compares two stored scalars of one field, for min/max aggregates. */
export function compareValues(a: ScalarValue, b: ScalarValue, _field: FieldModel): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
