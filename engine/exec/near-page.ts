// An ordered page of a `near` filter from the geo grid's layout cells (plan/near-plan.ts): each cell's
// points in the order key's order, kept per cell and column; the cells merged in a heap by their heads,
// a cell placed against the cap (and ordered, when its order is not kept) only once the merge reaches
// it, the points of cells crossing the cap's edge tested as they come out, stopping at the page.
// Answers equal collecting the matches and taking their top k (ties by id, missing values last, NaN never kept).

import type { GeoCell, NearCells } from '../indexes/geo-point-grid.js';
import type { NearCheck } from '../indexes/geo-index.js';
import type { ScalarColumn } from '../store/scalar-column.js';
import { collectCost, type OrderKey, type OrderPlan } from '../plan/order-plan.js';
import { nearLayouts, prefersNearCells } from '../plan/near-plan.js';
import type { QueryRun } from '../plan/query-plan.js';
import type { FilterPlan } from '../plan/filter-plan.js';
import type { ExecContext } from './exec-context.js';
import { numberSortKey } from './order-page.js';

/**
 * Kept per cell and (column, direction), each part valid for the column version it was read at: the
 * cell's least key (a bound of its head, for the heap) and, once a merge reached the cell, its ids and
 * keys ascending by (key, id).
 */
interface CellKeys {
  readonly column: ScalarColumn;
  readonly desc: boolean;
  leastVersion: number;
  least: number;
  orderVersion: number;
  ids: Int32Array;
  keys: Float64Array;
}

const none = new Int32Array(0);

/** The cell's keys for (column, direction), kept in its memo with those of the other orders asked for. */
function keysOf(cell: GeoCell, column: ScalarColumn, desc: boolean): CellKeys {
  let all = cell.memo as CellKeys[] | undefined;
  if (all === undefined) cell.memo = all = [];
  for (const keys of all) if (keys.column === column && keys.desc === desc) return keys;
  const fresh: CellKeys = { column, desc, leastVersion: -1, least: Infinity, orderVersion: -1, ids: none, keys: new Float64Array(0) };
  all.push(fresh);
  return fresh;
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
  if (numbers === undefined) return undefined;
  const version = column.version;
  // Before listing the cells (which costs about what they are worth), the layouts from the buckets and
  // the bound; a layout whose cells turn out unordered may cost more than the walk where the other does not.
  let listed: ReturnType<typeof listLayout>;
  for (const layout of nearLayouts(limit, near.buckets, near.upper, matches, walk)) {
    listed = listLayout(near, layout === 'buckets', column, key.desc, version, limit, matches, walk);
    if (listed !== undefined) break;
  }
  if (listed === undefined) return undefined;
  const { whole, cells, keys } = listed;
  const keyOf = numberSortKey(numbers, key.desc);
  const merged = merge(cells, keys, keyOf, version, near.test, limit);
  if (run !== undefined) {
    run.checked.add(plan);
    run.strategy = 'near-cells';
    run.visited = merged.taken;
    run.candidates = merged.ids.length;
    run.nearCells = { whole, cells: cells.cells.length, placed: merged.placed, inside: merged.inside, ordered: merged.ordered, collect: collectCost(near.upper, matches) };
  }
  return merged.ids;
}

/** The cap's cells in one layout with their kept keys, when the merge over them still pays once their kept state is known. */
function listLayout(near: NearCheck, whole: boolean, column: ScalarColumn, desc: boolean, version: number, limit: number, matches: number, walk: number): { whole: boolean; cells: NearCells; keys: CellKeys[] } | undefined {
  const cells = near.cells(whole);
  const keys = cells.cells.map((cell) => keysOf(cell, column, desc));
  let unbounded = 0;
  let unordered = 0;
  for (let c = 0; c < keys.length; c++) {
    const k = keys[c] as CellKeys;
    const n = (cells.cells[c] as GeoCell).ids.length;
    if (k.orderVersion !== version) {
      unordered += n;
      if (k.leastVersion !== version) unbounded += n;
    }
  }
  return prefersNearCells(limit, cells.cells.length, cells.points, unbounded, unordered, matches, near.upper, walk, whole) ? { whole, cells, keys } : undefined;
}

/** The least key of a cell whose order is not kept for this version, read again after a write to the column. */
function least(cell: GeoCell, k: CellKeys, keyOf: (id: number) => number, version: number): number {
  if (k.leastVersion !== version) {
    let least = Infinity;
    for (let i = 0; i < cell.ids.length; i++) {
      const value = keyOf(cell.ids[i] as number);
      if (value < least) least = value;
    }
    k.least = least;
    k.leastVersion = version;
  }
  return k.least;
}

/**
 * Orders the cell by the column, at least its first `need` points: after a write to the column a whole
 * order's keys are read again and it is re-sorted only when one changed. A cell four times larger than
 * `need` keeps only its first `need` (a page takes a few points of each cell it reaches); the merge
 * orders the rest if it runs past them.
 */
function orderCell(cell: GeoCell, k: CellKeys, keyOf: (id: number) => number, version: number, need: number): void {
  const n = cell.ids.length;
  if (k.orderVersion === version && k.ids.length >= Math.min(need, n)) return;
  if (k.orderVersion !== -1 && k.ids.length === n) {
    let same = true;
    for (let i = 0; i < k.ids.length && same; i++) same = keyOf(k.ids[i] as number) === k.keys[i];
    if (same) {
      k.orderVersion = version;
      return;
    }
  }
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = keyOf(cell.ids[i] as number);
  const first = 4 * need < n ? packedFirst(cell.ids, raw, need) : undefined;
  if (first !== undefined) {
    k.ids = first.ids;
    k.keys = first.keys;
    k.orderVersion = version;
    return;
  }
  const ids = new Int32Array(n);
  const keys = new Float64Array(n);
  if (!packedOrder(cell.ids, raw, ids, keys)) {
    const at = Array.from({ length: n }, (_, i) => i);
    at.sort((a, b) => (raw[a] as number) - (raw[b] as number) || (cell.ids[a] as number) - (cell.ids[b] as number));
    for (let i = 0; i < n; i++) {
      ids[i] = cell.ids[at[i] as number] as number;
      keys[i] = raw[at[i] as number] as number;
    }
  }
  k.ids = ids;
  k.keys = keys;
  k.orderVersion = version;
}

/** Ids below 2^22 and integer keys below 2^30 in magnitude (a missing value, +Infinity, as 2^30) pack into one exact double: key · 2^22 + id. */
const PACK = 2 ** 22;
const MISSING = 2 ** 30;

/** The (key, id) pair as one exact double (PACK), or NaN when the key or id does not fit. */
function packed(key: number, id: number): number {
  if (key === Infinity) return id < PACK ? MISSING * PACK + id : NaN;
  return Number.isInteger(key) && key < MISSING && key > -MISSING && id < PACK ? key * PACK + id : NaN;
}

/** Packed pairs back into ids and keys. */
function unpack(pairs: Float64Array, count: number, ids: Int32Array, keys: Float64Array): void {
  for (let i = 0; i < count; i++) {
    const p = pairs[i] as number;
    const key = Math.floor(p / PACK);
    keys[i] = key === MISSING ? Infinity : key;
    ids[i] = p - key * PACK;
  }
}

/**
 * The (key, id) order by the typed array's native sort of packed pairs, when every key is an integer
 * below 2^30 in magnitude or missing (+Infinity) and every id below 2^22 (Int columns, the usual order
 * key): the comparator sort it replaces cost most of a request's ordering of the cells it reached
 * first. False otherwise (the comparator then sorts).
 */
function packedOrder(cellIds: ArrayLike<number>, raw: Float64Array, ids: Int32Array, keys: Float64Array): boolean {
  const n = raw.length;
  const pairs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = packed(raw[i] as number, cellIds[i] as number);
    if (Number.isNaN(p)) return false;
    pairs[i] = p;
  }
  pairs.sort();
  unpack(pairs, n, ids, keys);
  return true;
}

/** The first `need` (< the cell's points) in (key, id) order, kept sorted by insertion as the pairs pass; undefined when a pair does not pack. */
function packedFirst(cellIds: ArrayLike<number>, raw: Float64Array, need: number): { ids: Int32Array; keys: Float64Array } | undefined {
  const first = new Float64Array(need);
  let m = 0;
  for (let i = 0; i < raw.length; i++) {
    const p = packed(raw[i] as number, cellIds[i] as number);
    if (Number.isNaN(p)) return undefined;
    if (m === need && p >= (first[need - 1] as number)) continue;
    let at = m < need ? m++ : need - 1;
    for (; at > 0 && (first[at - 1] as number) > p; at--) first[at] = first[at - 1] as number;
    first[at] = p;
  }
  const ids = new Int32Array(need);
  const keys = new Float64Array(need);
  unpack(first, need, ids, keys);
  return { ids, keys };
}

/** The merge's per-cell state, reused by every merge (it runs to its end without yielding): six typed arrays allocated per request cost more than the heap work at 1M. */
let scratch = newScratch(64);

function newScratch(size: number) {
  return { headKey: new Float64Array(size), headId: new Int32Array(size), place: new Int8Array(size), ready: new Uint8Array(size), pos: new Int32Array(size), heap: new Int32Array(size) };
}

/** The scratch for `count` cells, reset: none placed (-1), none ready, every position 0. */
function scratchFor(count: number): ReturnType<typeof newScratch> {
  if (scratch.heap.length < count) scratch = newScratch(Math.max(count, 2 * scratch.heap.length));
  scratch.place.fill(-1, 0, count);
  scratch.ready.fill(0, 0, count);
  scratch.pos.fill(0, 0, count);
  return scratch;
}

/**
 * The k-way merge of the cells: a min-heap by each cell's next (key, id). A cell whose order is not
 * kept enters at (its least key, -1), a bound of its head; it is placed against the cap and ordered
 * only when it reaches the top (then goes back at its real head), so cells a page never reaches cost
 * a heap entry. Crossing cells' points are tested as taken.
 */
function merge(
  cells: NearCells,
  keys: readonly CellKeys[],
  keyOf: (id: number) => number,
  version: number,
  test: (id: number) => boolean,
  limit: number,
): { ids: number[]; taken: number; placed: number; inside: number; ordered: number } {
  const out: number[] = [];
  const count = cells.cells.length;
  const { headKey, headId, place, ready, pos, heap } = scratchFor(count);
  let m = 0;
  let placed = 0;
  let inside = 0;
  let ordered = 0;
  if (limit <= 0) return { ids: out, taken: 0, placed, inside, ordered };
  for (let c = 0; c < count; c++) {
    const cell = cells.cells[c] as GeoCell;
    if (cell.ids.length === 0) continue;
    const k = keys[c] as CellKeys;
    if (k.orderVersion === version) {
      ready[c] = 1;
      headKey[c] = k.keys[0] as number;
      headId[c] = k.ids[0] as number;
    } else {
      headKey[c] = least(cell, k, keyOf, version);
      headId[c] = -1;
    }
    heap[m++] = c;
  }
  const before = (a: number, b: number): boolean => {
    const ka = headKey[a] as number;
    const kb = headKey[b] as number;
    return ka < kb || (ka === kb && (headId[a] as number) < (headId[b] as number));
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
  const dropTop = (): void => {
    heap[0] = heap[--m] as number;
    if (m > 0) siftDown(0);
  };
  for (let i = (m >> 1) - 1; i >= 0; i--) siftDown(i);
  let taken = 0;
  while (m > 0 && out.length < limit) {
    const c = heap[0] as number;
    if (place[c] === -1) {
      const at = cells.place(c);
      place[c] = at;
      placed++;
      if (at === 0) {
        dropTop();
        continue;
      }
      if (at === 2) inside++;
    }
    const k = keys[c] as CellKeys;
    if (ready[c] === 0) {
      orderCell(cells.cells[c] as GeoCell, k, keyOf, version, limit);
      ready[c] = 1;
      ordered += k.ids.length;
      headKey[c] = k.keys[0] as number;
      headId[c] = k.ids[0] as number;
      siftDown(0);
      continue;
    }
    const i = pos[c] as number;
    const id = k.ids[i] as number;
    taken++;
    // NaN keys sort last here (every comparison false) and are never kept, as top-k keeps none.
    if (!Number.isNaN(k.keys[i]) && (place[c] === 2 || test(id))) out.push(id);
    pos[c] = i + 1;
    if (i + 1 === k.ids.length) {
      const cell = cells.cells[c] as GeoCell;
      if (k.ids.length === cell.ids.length) {
        dropTop();
        continue;
      }
      // Past the first points kept: the whole order, which begins with them.
      orderCell(cell, k, keyOf, version, cell.ids.length);
      ordered += k.ids.length;
    }
    headKey[c] = k.keys[i + 1] as number;
    headId[c] = k.ids[i + 1] as number;
    siftDown(0);
  }
  return { ids: out, taken, placed, inside, ordered };
}
