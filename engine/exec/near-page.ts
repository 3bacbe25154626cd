// An ordered page of a `near` filter from the geo grid's layout cells (plan/near-plan.ts): each cell's
// points in the order key's order, kept per cell and column; the cells' orders merged in a heap, the
// points of cells crossing the cap's edge tested as they come out, stopping at the page. Answers equal
// collecting the matches and taking their top k (ties by id, missing values last, NaN never kept).

import type { GeoCell, NearCells } from '../indexes/geo-point-grid.js';
import type { NearCheck } from '../indexes/geo-index.js';
import type { ScalarColumn } from '../store/scalar-column.js';
import { collectCost, type OrderKey, type OrderPlan } from '../plan/order-plan.js';
import { nearCellPoints, prefersNearCells } from '../plan/near-plan.js';
import type { QueryRun } from '../plan/query-plan.js';
import type { FilterPlan } from '../plan/filter-plan.js';
import type { ExecContext } from './exec-context.js';
import { numberSortKey } from './order-page.js';

/** A cell's ids and sort keys ascending by (key, id), valid for the column's `version`. */
interface CellOrder {
  readonly column: ScalarColumn;
  readonly desc: boolean;
  version: number;
  ids: Int32Array;
  keys: Float64Array;
}

/** Per cell, its orders by each (column, direction) asked for. */
const orders = new WeakMap<GeoCell, CellOrder[]>();

function keptOrder(cell: GeoCell, column: ScalarColumn, desc: boolean): CellOrder | undefined {
  const kept = orders.get(cell);
  if (kept !== undefined) for (const order of kept) if (order.column === column && order.desc === desc) return order;
  return undefined;
}

/**
 * The first `limit` matches of `near` in the order (one number key), merged from the cap's cells, when
 * the rule prefers that to collecting (`bound`: the grid's points read; `matches`: the estimate) and to
 * a walk costing `walk`; undefined otherwise.
 */
export function nearCellPage(ctx: ExecContext, plan: FilterPlan, order: OrderPlan, near: NearCheck, limit: number, walk: number, run: QueryRun | undefined): number[] | undefined {
  const key = order.keys[0] as OrderKey;
  const column = ctx.graph.store.scalar(key.model.predicate);
  const numbers = column.numbers();
  const matches = near.estimate;
  // Before listing the cells (which costs about what they are worth), their number from the buckets and the bound.
  const cellsAbout = Math.max(near.buckets, near.upper / nearCellPoints);
  if (numbers === undefined || !prefersNearCells(limit, cellsAbout, near.upper, 0, matches, near.upper, walk)) return undefined;
  const cells = near.cells();
  const kept = cells.cells.map((cell) => keptOrder(cell, column, key.desc));
  let stale = 0;
  for (let c = 0; c < kept.length; c++) if (kept[c]?.version !== column.version) stale += (cells.cells[c] as GeoCell).ids.length;
  const within = Math.max(matches, cells.insidePoints);
  if (!prefersNearCells(limit, cells.cells.length, cells.points, stale, within, near.upper, walk)) return undefined;
  const keyOf = numberSortKey(numbers, key.desc);
  const lists = cells.cells.map((cell, c) => cellOrder(cell, kept[c], column, keyOf, key.desc));
  const { ids, taken } = merge(cells, lists, near.test, limit);
  if (run !== undefined) {
    run.checked.add(plan);
    run.strategy = 'near-cells';
    run.visited = taken;
    run.candidates = ids.length;
    run.nearCells = { cells: cells.cells.length, inside: cells.inside.filter(Boolean).length, stale, collect: collectCost(near.upper, matches) };
  }
  return ids;
}

/** The cell's order by the column: kept; after a write to the column its keys are read again and it is re-sorted only when one changed. */
function cellOrder(cell: GeoCell, kept: CellOrder | undefined, column: ScalarColumn, keyOf: (id: number) => number, desc: boolean): CellOrder {
  if (kept !== undefined) {
    if (kept.version === column.version) return kept;
    let same = true;
    for (let i = 0; i < kept.ids.length && same; i++) same = keyOf(kept.ids[i] as number) === kept.keys[i];
    if (same) {
      kept.version = column.version;
      return kept;
    }
  }
  const n = cell.ids.length;
  const at = Array.from({ length: n }, (_, i) => i);
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = keyOf(cell.ids[i] as number);
  at.sort((a, b) => (raw[a] as number) - (raw[b] as number) || (cell.ids[a] as number) - (cell.ids[b] as number));
  const ids = new Int32Array(n);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = cell.ids[at[i] as number] as number;
    keys[i] = raw[at[i] as number] as number;
  }
  if (kept !== undefined) {
    kept.version = column.version;
    kept.ids = ids;
    kept.keys = keys;
    return kept;
  }
  const fresh: CellOrder = { column, desc, version: column.version, ids, keys };
  const all = orders.get(cell);
  if (all === undefined) orders.set(cell, [fresh]);
  else all.push(fresh);
  return fresh;
}

/** The k-way merge of the cells' orders: a min-heap of cells by their next (key, id); crossing cells' points tested as taken. */
function merge(cells: NearCells, lists: readonly CellOrder[], test: (id: number) => boolean, limit: number): { ids: number[]; taken: number } {
  const out: number[] = [];
  if (limit <= 0) return { ids: out, taken: 0 };
  const count = lists.length;
  const pos = new Int32Array(count);
  const heap = new Int32Array(count);
  let m = 0;
  for (let c = 0; c < count; c++) if ((lists[c] as CellOrder).ids.length > 0) heap[m++] = c;
  const before = (a: number, b: number): boolean => {
    const la = lists[a] as CellOrder;
    const lb = lists[b] as CellOrder;
    const ka = la.keys[pos[a] as number] as number;
    const kb = lb.keys[pos[b] as number] as number;
    return ka < kb || (ka === kb && (la.ids[pos[a] as number] as number) < (lb.ids[pos[b] as number] as number));
  };
  const siftDown = (from: number): void => {
    let i = from;
    const c = heap[i] as number;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= m) break;
      if (child + 1 < m && before(heap[child + 1] as number, heap[child] as number)) child++;
      if (!before(heap[child] as number, c)) break;
      heap[i] = heap[child] as number;
      i = child;
    }
    heap[i] = c;
  };
  for (let i = (m >> 1) - 1; i >= 0; i--) siftDown(i);
  let taken = 0;
  while (m > 0 && out.length < limit) {
    const c = heap[0] as number;
    const list = lists[c] as CellOrder;
    const i = pos[c] as number;
    const id = list.ids[i] as number;
    taken++;
    // NaN keys sort last here (every comparison false) and are never kept, as top-k keeps none.
    if (!Number.isNaN(list.keys[i]) && (cells.inside[c] === true || test(id))) out.push(id);
    pos[c] = i + 1;
    if (i + 1 === list.ids.length) heap[0] = heap[--m] as number;
    if (m > 0) siftDown(0);
  }
  return { ids: out, taken };
}
