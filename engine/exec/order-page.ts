// `order: {asc|desc: f, then: ...}` and `first`/`offset` over a set of node ids.
// Nodes without a value for an order key sort after those with one (as Dgraph does).

import type { SortedIds } from '../util/sorted-ids.js';
import type { FieldModel, TypeModel } from '../schema/model.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { ExecContext } from './exec-context.js';
import type { NumericColumnView, ScalarColumn } from '../store/scalar-column.js';
import { choosePage, listOrderPrice, maxCachedPrefix, pageLimit, pageParams, planOrder, type OrderKey, type OrderPlan, type PageParams, type PageStrategy } from '../plan/order-plan.js';
import type { QueryRun } from '../plan/query-plan.js';
import type { EdgeRun } from '../plan/explain.js';
import { languageValue } from './language-value.js';
import { walkOrdered } from './index-walk.js';
import { cacheCounters } from '../util/cache-stats.js';
import { TopK, TopKScratch } from '../util/top-k.js';

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

/** Edge order plans by the `order` argument value: the same object for every parent of one request (and for every request when written without variables). */
const edgeOrders = new WeakMap<OrderInput, { readonly type: TypeModel; readonly plan: OrderPlan }>();

function edgeOrder(type: TypeModel, order: OrderInput | null | undefined): OrderPlan {
  if (order === undefined || order === null) return planOrder(type, order, false);
  const cached = edgeOrders.get(order);
  if (cached !== undefined && cached.type === type) return cached.plan;
  const plan = planOrder(type, order, false);
  edgeOrders.set(order, { type, plan });
  return plan;
}

/** Orders and pages an edge's (or a mutation's) targets: its order planned once per argument value, never walked. */
export function orderAndPage(ctx: ExecContext, type: TypeModel, ids: SortedIds, args: PageArgs, edgeRun?: EdgeRun): SortedIds {
  const order = edgeOrder(type, args.order);
  const page = pageParams(args as Readonly<Record<string, unknown>>);
  const strategy = choosePage(order, pageLimit(page), ids.length, ids.length);
  if (edgeRun !== undefined) edgeRun.pageSteps.set(strategy, (edgeRun.pageSteps.get(strategy) ?? 0) + 1);
  return runPage(ctx, order, strategy, ids, page);
}

/**
 * Runs the page step a plan chose (order-plan.ts choosePage): no order (a slice), a full sort, top-k
 * (over the column's typed arrays for one number key), or an ordered-index walk. `run` records the
 * step and whether the first k came from the cached prefix.
 */
export function runPage(ctx: ExecContext, order: OrderPlan, strategy: PageStrategy, ids: SortedIds, page: PageParams, run?: QueryRun): SortedIds {
  const limit = pageLimit(page);
  if (run !== undefined) run.strategy = strategy;
  let result: SortedIds = ids;
  if (strategy === 'sort') result = sortAll(ctx, order, ids, run);
  else if (strategy === 'top-k' || strategy === 'index-walk') {
    const top = firstK(ctx, order, strategy, ids, limit ?? ids.length, run);
    return page.offset === 0 ? top : top.slice(page.offset);
  }
  if (page.offset === 0 && limit === undefined) return result;
  return result.slice(page.offset, limit);
}

/**
 * The first `k` in order, by walk or top-k; reused from the cached prefix while the candidates and
 * column are unchanged. `run` gets the branch that produced them (a walk falls back to top-k only
 * if the store lacks the planned index).
 */
function firstK(ctx: ExecContext, order: OrderPlan, strategy: PageStrategy, ids: SortedIds, k: number, run: QueryRun | undefined): SortedIds {
  const key = order.keys[0] as OrderKey;
  const column = ctx.graph.store.scalar(key.model.predicate);
  if (run !== undefined) run.cachedPrefix = true; // until a branch computes
  if (strategy === 'index-walk' && order.walk !== undefined) {
    const walk = order.walk;
    const prefix = cachedOrderPrefix(ids, k, column, key.desc, (n) => (ran(run, 'index-walk'), walkOrdered(ctx, key.model, walk, key.desc, ids, 0, n)));
    if (prefix !== undefined) return prefix;
  }
  const top = topOf(ctx, order, run);
  // The cache is per column: only one-key orders of plain columns use it.
  if (!prefixCacheable(order)) return top(ids, k);
  return cachedOrderPrefix(ids, k, column, key.desc, (n) => top(ids, n));
}

/** Whether the order's first k can be kept per candidate list (one key on a plain column). */
function prefixCacheable(order: OrderPlan): boolean {
  const key = order.keys[0];
  return key !== undefined && (order.numeric || (order.keys.length === 1 && key.model.languages === undefined));
}

/** The first n of a list in the order, by top-k: over the column's numbers for one number key. */
function topOf(ctx: ExecContext, order: OrderPlan, run: QueryRun | undefined): (list: SortedIds, n: number) => number[] {
  const key = order.keys[0] as OrderKey;
  const numbers = order.numeric ? ctx.graph.store.scalar(key.model.predicate).numbers() : undefined;
  return (list, n) => {
    ran(run, 'top-k');
    if (numbers !== undefined) return topKNumeric(list, n, numbers, key.desc);
    const { readers, compare } = rowsOf(ctx, order.keys);
    const rowOf = (id: number): Row => ({ id, values: readers.map((c) => sortable(c.get(id))) });
    const primary = readers[0] as (typeof readers)[number];
    // Rows clearly worse than the current k-th on the first key are rejected without allocating.
    const clearlyWorse = (id: number, worst: Row): boolean => compareMissingLast(sortable(primary.get(id)), worst.values[0], key.desc) > 0;
    return topK(list, n, rowOf, compare, clearlyWorse);
  };
}

/**
 * The first k of the union of `lists` (snapshots, e.g. the postings of `anyofterms`' terms) without
 * building the union: every one of its first k is among the first k of a list holding it, and each
 * list's first k are kept by the order-prefix cache (the union would be a new array every request),
 * then merged. Undefined when the order cannot be cached per list.
 */
export function firstKOfLists(ctx: ExecContext, order: OrderPlan, lists: readonly SortedIds[], k: number): { readonly ids: SortedIds; readonly cached: boolean; readonly candidates: number } | undefined {
  if (!prefixCacheable(order)) return undefined;
  const key = order.keys[0] as OrderKey;
  const column = ctx.graph.store.scalar(key.model.predicate);
  const top = topOf(ctx, order, undefined);
  let cached = true;
  // Index lists are stable until written: worth caching shorter than a per-request list.
  const prefixes = lists.map((list) => prefixOf(list, k, column, key.desc, (n) => ((cached = false), top(list, n)), 2 * k));
  let candidates = 0;
  for (const prefix of prefixes) candidates += Math.min(k, prefix.length);
  const numbers = order.numeric ? column.numbers() : undefined;
  if (numbers === undefined) {
    const compare = comparatorOf(ctx, order);
    return { ids: mergeOrdered(prefixes, k, (l, i, m, j) => compare((prefixes[l] as SortedIds)[i] as number, (prefixes[m] as SortedIds)[j] as number) < 0), cached, candidates };
  }
  // By the prefixes' own sort keys: at 1M nodes each key read from the column was a cache miss.
  const keyOf = numberSortKey(numbers, key.desc);
  const keys = prefixes.map((prefix, l) => keysOfPrefix(prefix, k, keyOf, prefixByCandidates.get(lists[l] as SortedIds)?.ids === prefix));
  const before = (l: number, i: number, m: number, j: number): boolean => {
    const a = (keys[l] as Float64Array)[i] as number;
    const b = (keys[m] as Float64Array)[j] as number;
    return a < b || (a === b && ((prefixes[l] as SortedIds)[i] as number) < ((prefixes[m] as SortedIds)[j] as number));
  };
  return { ids: mergeOrdered(prefixes, k, before), cached, candidates };
}

/** Sort keys (numberSortKey) of cached prefixes, read once per prefix (a new prefix after each write to the column). */
const prefixKeys = new WeakMap<SortedIds, Float64Array>();

/** The sort keys of a prefix's first `k` ids (all of a `kept` one, the cache's own array, kept with it). */
function keysOfPrefix(prefix: SortedIds, k: number, keyOf: (id: number) => number, kept: boolean): Float64Array {
  const hit = kept ? prefixKeys.get(prefix) : undefined;
  if (hit !== undefined) return hit;
  const keys = new Float64Array(kept ? prefix.length : Math.min(k, prefix.length));
  for (let i = 0; i < keys.length; i++) keys[i] = keyOf(prefix[i] as number);
  if (kept) prefixKeys.set(prefix, keys);
  return keys;
}

/**
 * The first k of an index list (a snapshot) in the order, kept in the prefix cache however short the
 * list; undefined when the order cannot be cached per list (prefixCacheable).
 */
export function listPrefix(ctx: ExecContext, order: OrderPlan, list: SortedIds, k: number): SortedIds | undefined {
  if (!prefixCacheable(order)) return undefined;
  const key = order.keys[0] as OrderKey;
  const top = topOf(ctx, order, undefined);
  return cachedOrderPrefix(list, k, ctx.graph.store.scalar(key.model.predicate), key.desc, (n) => top(list, n), 0);
}

/** Whether listPrefix(list, k) would come from the cache. */
export function listPrefixCached(ctx: ExecContext, order: OrderPlan, list: SortedIds, k: number): boolean {
  const key = order.keys[0];
  return key !== undefined && prefixCacheable(order) && cachedPrefix(list, k, ctx.graph.store.scalar(key.model.predicate), key.desc) !== undefined;
}

/**
 * Rent paid toward ordering each index list (a snapshot: stable until written), the ski rental of
 * plan/order-plan.ts listOrderRent; dropped when the list is ordered.
 */
const orderRent = new WeakMap<SortedIds, number>();

/** What ordering a list whose first k are not cached still costs (prefersListOrder's `unpaid`): its price less the rent paid. */
export function unpaidOrder(list: SortedIds): number {
  return Math.max(0, listOrderPrice(list.length) - (orderRent.get(list) ?? 0));
}

/** The same over the lists firstKOfLists would order (prefersListPrefixes): those not cached, at least 2k long. */
export function unpaidOrders(ctx: ExecContext, order: OrderPlan, lists: readonly SortedIds[], k: number): number {
  let unpaid = 0;
  for (const list of lists) if (list.length >= 2 * k && !listPrefixCached(ctx, order, list, k)) unpaid += unpaidOrder(list);
  return unpaid;
}

/** Adds `rent` to what `lists` whose first k are not cached have paid, shared by their sizes. */
export function payOrderRent(ctx: ExecContext, order: OrderPlan, lists: readonly SortedIds[], k: number, rent: number): void {
  if (rent <= 0) return;
  const uncached = lists.filter((list) => list.length >= 2 * k && !listPrefixCached(ctx, order, list, k));
  let ids = 0;
  for (const list of uncached) ids += list.length;
  for (const list of uncached) orderRent.set(list, (orderRent.get(list) ?? 0) + (rent * list.length) / ids);
}

/** The list is being ordered: its rent is spent (after a write to the order column it starts over). */
export function spendOrderRent(list: SortedIds): void {
  orderRent.delete(list);
}

/**
 * The first k distinct ids of lists each in one order, reading at most k of each: `before(l, i, m, j)`
 * says whether list l's i-th id comes before list m's j-th (a repeated id meets itself: neither
 * comes before the other, so its copies are taken one after another and the second is dropped).
 */
function mergeOrdered(lists: readonly SortedIds[], k: number, before: (l: number, i: number, m: number, j: number) => boolean): number[] {
  const at = new Int32Array(lists.length);
  const out: number[] = [];
  let last = -1;
  while (out.length < k) {
    let from = -1;
    for (let l = 0; l < lists.length; l++) {
      const i = at[l] as number;
      if (i >= k || i >= (lists[l] as SortedIds).length) continue;
      if (from < 0 || before(l, i, from, at[from] as number)) from = l;
    }
    if (from < 0) break;
    const id = (lists[from] as SortedIds)[at[from] as number] as number;
    at[from] = (at[from] as number) + 1;
    if (id !== last) out.push((last = id));
  }
  return out;
}

/** Two ids in a one-key order (prefixCacheable), ties by id: the order top-k keeps. */
function comparatorOf(ctx: ExecContext, order: OrderPlan): (a: number, b: number) => number {
  const key = order.keys[0] as OrderKey;
  const column = ctx.graph.store.scalar(key.model.predicate);
  const numbers = order.numeric ? column.numbers() : undefined;
  if (numbers !== undefined) {
    const keyOf = numberSortKey(numbers, key.desc);
    return (a, b) => keyOf(a) - keyOf(b) || a - b;
  }
  return (a, b) => compareMissingLast(sortable(column.get(a)), sortable(column.get(b)), key.desc) || a - b;
}

/** Records the branch that computed the first k (EXPLAIN only). */
function ran(run: QueryRun | undefined, branch: PageStrategy): void {
  if (run === undefined) return;
  run.strategy = branch;
  run.cachedPrefix = false;
}

interface Row {
  readonly id: number;
  readonly values: readonly Sortable[];
}

interface ValueReader {
  get(id: number): ScalarValue | readonly ScalarValue[] | undefined;
}

/** Value readers per key (language-fallback fields `pred@.` read through their languages) and the row order. */
function rowsOf(ctx: ExecContext, keys: readonly OrderKey[]): { readers: ValueReader[]; compare: (a: Row, b: Row) => number } {
  const store = ctx.graph.store;
  const readers = keys.map((k): ValueReader => (k.model.languages === undefined ? store.scalar(k.model.predicate) : { get: (id: number) => languageValue(store, k.model, id) }));
  const compare = (a: Row, b: Row): number => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareMissingLast(a.values[i], b.values[i], (keys[i] as OrderKey).desc);
      if (c !== 0) return c;
    }
    return a.id - b.id;
  };
  return { readers, compare };
}

/**
 * Every candidate sorted. By one column, a long list's order is kept like a prefix (the whole list
 * is its own longest prefix), so the next page of any offset over the same list is a slice until
 * the column is written; short lists (an edge's targets) are sorted each time, as cheaply.
 */
function sortAll(ctx: ExecContext, order: OrderPlan, ids: SortedIds, run: QueryRun | undefined): SortedIds {
  const key = order.keys[0] as OrderKey;
  // A few candidates by one number: insertion into the typed buffer of top-k, no row objects.
  const numbers = order.numeric && ids.length <= maxInsertionSort ? ctx.graph.store.scalar(key.model.predicate).numbers() : undefined;
  if (numbers !== undefined) return topKNumeric(ids, ids.length, numbers, key.desc);
  if (order.keys.length !== 1 || key.model.languages !== undefined || ids.length < minCachedOrder) return sortIds(ctx, ids, order.keys);
  if (run !== undefined) run.cachedPrefix = true; // until the sort runs
  const column = ctx.graph.store.scalar(key.model.predicate);
  return cachedOrderPrefix(ids, ids.length, column, key.desc, () => (ran(run, 'sort'), sortIds(ctx, ids, order.keys)));
}

/** Every candidate sorted. */
function sortIds(ctx: ExecContext, ids: SortedIds, keys: readonly OrderKey[]): SortedIds {
  const { readers, compare } = rowsOf(ctx, keys);
  const rows = ids.map((id): Row => ({ id, values: readers.map((c) => sortable(c.get(id))) }));
  rows.sort(compare);
  return rows.map((r) => r.id);
}

interface CachedPrefix {
  readonly column: ScalarColumn;
  readonly version: number;
  readonly descending: boolean;
  readonly ids: SortedIds;
}

/**
 * The first k of a candidate list in one column's order (by top-k or by an ordered-index walk). A list
 * an index hands out never changes afterwards (postings are copy-on-write), so the same candidates
 * (say, the same term) ordered by the same column give the same first k until that column is
 * written: the repeated query skips reading every candidate's value. A list built for one request
 * (an intersection) is simply collected with its entry.
 */
const prefixByCandidates = new WeakMap<SortedIds, CachedPrefix>();
/** Up to this many candidates a one-number sort is an insertion sort (quadratic, but no allocation per row). */
const maxInsertionSort = 64;
/** Lists at least this long keep their order (whole, or first k): shorter ones are ordered in a few µs. */
const minCachedOrder = 256;

export function cachedOrderPrefix<T extends SortedIds | undefined>(
  ids: SortedIds,
  k: number,
  column: ScalarColumn,
  descending: boolean,
  compute: (count: number) => T,
  minCached = minCachedOrder,
): SortedIds | T {
  const prefix = prefixOf(ids, k, column, descending, compute, minCached);
  return prefix === undefined || prefix.length <= k ? prefix : prefix.slice(0, k);
}

/** cachedOrderPrefix's first k or more: on a hit the cache's own array (not to be written). */
function prefixOf<T extends SortedIds | undefined>(ids: SortedIds, k: number, column: ScalarColumn, descending: boolean, compute: (count: number) => T, minCached: number): SortedIds | T {
  // Short lists (an edge's targets, a new array per parent) are ordered as fast as a cache entry is kept.
  if (ids.length < minCached) return compute(k);
  const hit = cachedPrefix(ids, k, column, descending);
  if (hit !== undefined) {
    cacheCounters.orderPrefix.hits++;
    return hit;
  }
  cacheCounters.orderPrefix.misses++;
  // A miss fills the next power of two (pages further on, say offsets 0, 5, 10, ..., then hit):
  // the first 2k cost about what the first k do. A huge `first` is not worth keeping alive as long
  // as the posting, unless it is the whole order (`sortAll`).
  const fill = k <= maxCachedPrefix ? Math.min(ids.length, maxCachedPrefix, Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, k))))) : k;
  const top = compute(Math.max(k, fill));
  if (top !== undefined && (fill <= maxCachedPrefix || fill === ids.length)) prefixByCandidates.set(ids, { column, version: column.version, descending, ids: top });
  return top;
}

/** The cached first k (or more) of `ids` in the column's order, while valid. */
function cachedPrefix(ids: SortedIds, k: number, column: ScalarColumn, descending: boolean): SortedIds | undefined {
  const hit = prefixByCandidates.get(ids);
  // A prefix as long as the list is its whole order: it answers any k.
  if (hit === undefined || hit.column !== column || hit.version !== column.version || hit.descending !== descending) return undefined;
  return hit.ids.length >= k || hit.ids.length === ids.length ? hit.ids : undefined;
}

/** A node's key in one number column's order (smaller first, missing values +Infinity), as topKNumeric computes it inline. */
export function numberSortKey(column: NumericColumnView, descending: boolean): (id: number) => number {
  const sign = descending ? -1 : 1;
  const { present, nums } = column;
  return (id) => {
    const value = nums[id];
    // Absent slots hold 0 (or lie past the end): only then is `present` read.
    return (value === 0 || value === undefined) && present[id] !== 1 ? Infinity : (value as number) * sign;
  };
}

/**
 * Top-k for the commonest order (one Int/Float key) straight over the column's typed arrays, in the
 * bounded heap of util/top-k.ts (the one streamed pages and vector scans use): no per-row objects and
 * no per-id column call. Keys are the value times the sign (smaller is better), missing values
 * +Infinity (last), ties by ascending id, as in the general path.
 */
export function topKNumeric(ids: SortedIds, k: number, column: NumericColumnView, descending: boolean): number[] {
  if (k === 0) return [];
  const { present, nums } = column;
  const sign = descending ? -1 : 1;
  if (k >= minThresholdK && ids.length >= thresholdRatio * k) {
    const kept = topKBelowThreshold(ids, k, column, sign);
    if (kept !== undefined) return kept;
  }
  const top = numericTop.take(k);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const value = nums[id];
    // Absent slots hold 0 (or lie past the end): only then is `present` read, sparing a cache miss.
    top.offer((value === 0 || value === undefined) && present[id] !== 1 ? Infinity : (value as number) * sign, id);
  }
  return top.drain().ids;
}

const numericTop = new TopKScratch();

/** Top-k by a sampled threshold from this k up (a list's cached first 1,024: heap work was most of ordering it). */
const minThresholdK = 64;
/** ... over at least this many ids per kept one (fewer: the heap's insertions are few anyway). */
const thresholdRatio = 8;
/** Ids sampled for the threshold: 256 keys sorted natively cost a few µs. */
const thresholdSamples = 256;

/**
 * topKNumeric's first k with little heap work: a threshold t from a sample of the keys, expected to
 * pass about twice k, then the heap over the ids whose key is at most t only. Exact whenever at least k
 * pass (every other id's key is above t, so after all of them in (key, id) order); undefined when
 * fewer pass or far too many (a skewed sample), and the caller runs the plain heap.
 */
function topKBelowThreshold(ids: SortedIds, k: number, column: NumericColumnView, sign: number): number[] | undefined {
  const { present, nums } = column;
  const n = ids.length;
  const keyOf = (id: number): number => {
    const value = nums[id];
    return (value === 0 || value === undefined) && present[id] !== 1 ? Infinity : (value as number) * sign;
  };
  const sample = new Float64Array(thresholdSamples);
  for (let s = 0; s < thresholdSamples; s++) sample[s] = keyOf(ids[Math.floor(((s + 0.5) * n) / thresholdSamples)] as number);
  sample.sort();
  const at = Math.ceil((2 * k * thresholdSamples) / n) + 2;
  if (at >= thresholdSamples) return undefined;
  const threshold = sample[at] as number;
  if (!(threshold < Infinity)) return undefined;
  const cap = 8 * k;
  const keys = new Float64Array(cap);
  const kept = new Int32Array(cap);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i] as number;
    const value = nums[id];
    // Absent slots hold 0 (or lie past the end): only then is `present` read.
    const key = (value === 0 || value === undefined) && present[id] !== 1 ? Infinity : (value as number) * sign;
    if (key > threshold) continue;
    if (count === cap) return undefined;
    keys[count] = key;
    kept[count++] = id;
  }
  if (count < k) return undefined;
  const top = new TopK(k);
  for (let i = 0; i < count; i++) top.offer(keys[i] as number, kept[i] as number);
  return top.drain().ids;
}

/** The `k` smallest rows in order, keeping a sorted buffer and rejecting most rows with one compare. */
function topK(
  ids: SortedIds,
  k: number,
  rowOf: (id: number) => Row,
  compare: (a: Row, b: Row) => number,
  clearlyWorse: (id: number, worst: Row) => boolean,
): number[] {
  if (k === 0) return [];
  const best: Row[] = [];
  for (const id of ids) {
    if (best.length === k && clearlyWorse(id, best[k - 1] as Row)) continue;
    const row = rowOf(id);
    if (best.length === k && compare(row, best[k - 1] as Row) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid] as Row, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    // In-place shift (no splice): see topKNumeric.
    let j = best.length === k ? k - 1 : best.length;
    if (j === best.length) best.push(row);
    for (; j > lo; j--) best[j] = best[j - 1] as Row;
    best[lo] = row;
  }
  return best.map((r) => r.id);
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
