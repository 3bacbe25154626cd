// How a list is ordered and paged: the order keys (parsed once per plan), the ordered index that
// could be walked, and the rule choosing between an index walk, top-k and a full sort. The rule
// needs the real candidate count, known only once the filter ran, so the plan holds it as an
// adaptive step: exec/ asks choosePage with the count and records the branch it took.

import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import { xidIndexKind } from './filter-plan.js';

export interface OrderKey {
  readonly field: string;
  readonly model: FieldModel;
  readonly desc: boolean;
}

export interface OrderPlan {
  readonly keys: readonly OrderKey[];
  /** The ordered index walked in the first key's order (one key only, root lists only). */
  readonly walk: IndexKind | undefined;
  /** One Int/Float key: top-k runs over the column's typed arrays. */
  readonly numeric: boolean;
}

export type PageStrategy = 'none' | 'index-walk' | 'top-k' | 'sort';

export interface PageParams {
  readonly offset: number;
  readonly first: number | undefined;
}

// DateTime indexes key by instant whatever their granularity, so they walk in time order too.
const orderedKinds: readonly IndexKind[] = ['int', 'int64', 'float', 'exact', 'year', 'month', 'day', 'hour'];
const walkStepCost = 4;

export const unordered: OrderPlan = { keys: [], walk: undefined, numeric: false };

/** The keys of an `order: {asc|desc: f, then: ...}` value; `walkable` allows an ordered-index walk. */
export function planOrder(type: TypeModel, order: unknown, walkable: boolean): OrderPlan {
  if (order === undefined || order === null) return unordered;
  const keys: OrderKey[] = [];
  for (let level = order as Readonly<Record<string, unknown>> | null | undefined; level !== undefined && level !== null; level = level['then'] as never) {
    const asc = level['asc'];
    const name = asc ?? level['desc'];
    const model = typeof name === 'string' ? type.fields.get(name) : undefined;
    if (model !== undefined) keys.push({ field: model.name, model, desc: asc === undefined || asc === null });
  }
  const only = keys.length === 1 ? (keys[0] as OrderKey).model : undefined;
  return {
    keys,
    walk: walkable && only !== undefined ? walkableIndex(only) : undefined,
    numeric: only !== undefined && !only.isList && (only.typeName === 'Int' || only.typeName === 'Float'),
  };
}

/** `first` and `offset` of a list field's arguments (absent or null `first`: no limit). */
export function pageParams(args: Readonly<Record<string, unknown>>): PageParams {
  const first = args['first'];
  return {
    offset: Math.max(0, Number(args['offset'] ?? 0)),
    first: first === undefined || first === null ? undefined : Math.max(0, Number(first)),
  };
}

export function pageLimit(page: PageParams): number | undefined {
  return page.first === undefined ? undefined : page.offset + page.first;
}

/**
 * The adaptive step: walk the ordered index, keep the top k, or sort every candidate. Taken with the
 * filter's estimate when planning (EXPLAIN before running) and with the real count when running.
 */
export function choosePage(order: OrderPlan, limit: number | undefined, candidates: number, total: number): PageStrategy {
  if (order.keys.length === 0) return 'none';
  if (limit === undefined) return 'sort';
  if (order.walk !== undefined && prefersIndexWalk(limit, candidates, total)) return 'index-walk';
  return prefersTopK(limit, candidates) ? 'top-k' : 'sort';
}

/**
 * Top-k reads every candidate once and shifts its buffer of k on each of the about k·ln(n/k)
 * insertions, so it beats sorting for small k only: k a quarter of the candidates or less, and k²
 * within 64 times the candidates (10,000 candidates: k ≤ 800; a million: k ≤ 8,000).
 */
export function prefersTopK(limit: number, candidates: number): boolean {
  return limit * 4 < candidates && limit * limit <= candidates * 64;
}

/**
 * Walking an ordered index visits about `limit × total / candidates` index entries (the candidates
 * are spread through the value order), each costing a few times a top-k step over one candidate;
 * top-k visits every candidate once. So the walk pays only when the candidates are a large share
 * of the type (measured: a walk step ≈ 4 top-k steps).
 */
export function prefersIndexWalk(limit: number, candidates: number, total: number): boolean {
  if (limit * 4 >= candidates) return false;
  return candidates * candidates > walkStepCost * limit * Math.max(total, candidates);
}

/**
 * Index entries a walk testing each node against the whole filter may visit before it gives up and
 * the candidates are collected instead: twice what collecting them costs (prefersWalk's terms), so a
 * walk chosen by an estimate is not abandoned near its expected length (giving up pays both), and a
 * bound far above the real count at most triples the work.
 */
export function checkedWalkBudget(limit: number, bound: number, matches: number, testCost: number): number {
  return Math.max((2 * (bound + collectCostPerMatch * matches)) / testCost, 4 * limit);
}

/** A walk's test of one node, in units of one collected id: a typed value read. */
export const typedTestCost = 1;
/**
 * A checked walk's visit (the order index step, the compiled filter's test, the page taker), in the
 * same units. Measured at 10k posts on term-any (two words, ordered, first 10): walking cost 167 µs
 * where collecting cost 68 µs, about 16 collected ids per visit.
 */
export const checkedVisitCost = 4 * walkStepCost;
/** Ordering a collected match (sorting the gathered ids, then top-k) costs about this many units. */
const collectCostPerMatch = 3;

/**
 * The one rule between a walk in page order testing each node (the order index, or uid order) and
 * collecting the matches first: the walk visits about `limit × total / matches` nodes (matches spread
 * through the order) at `testCost` each; collecting gathers the `bound` ids the matches are drawn
 * from (a range, a posting, a grid's buckets) and orders each match. `matches` is an estimate (lists
 * taken as independent): two common words each in 3% of the posts bound the walk at 3% but match
 * 0.1%, where the walk would visit a third of the index for nothing. `spread`: the matches the walk's
 * visits are counted from when not `matches` (a range holding the walk's start does not thin the walk
 * out: the walk meets the other conditions' share of `total`, while collecting costs the range).
 */
export function prefersWalk(limit: number, total: number, matches: number, bound: number, testCost: number, spread = matches): boolean {
  if (matches <= 0 || spread <= 0) return false;
  return walkCost(limit, total, spread, testCost) < collectCost(bound, matches);
}

/** Collecting `matches` from `bound` ids and ordering them (prefersWalk's alternative). */
export function collectCost(bound: number, matches: number): number {
  return bound + collectCostPerMatch * matches;
}

/** A walk's cost (prefersWalk): about `limit × total / spread` visits at `testCost` each. */
export function walkCost(limit: number, total: number, spread: number, testCost: number): number {
  return spread <= 0 ? Infinity : Math.min(total, (limit * total) / spread) * testCost;
}

/**
 * An ordered page from the driver list's own order (exec/checked-walk.ts walkListOrder: an index list
 * ordered by top-k once, its first K cached) testing each id against the rest of the filter, rather
 * than the cheaper of a walk costing `walk` and collecting: about `limit × driver / matches` tests,
 * plus `unpaid`, what ordering the list still costs now (0 when cached; listOrderPrice less the rent
 * paid, see listOrderRent).
 */
export function prefersListOrder(limit: number, driver: number, matches: number, unpaid: number, walk: number, maxVisits = maxListOrderVisits): boolean {
  if (matches <= 0) return false;
  const visits = listOrderVisits(limit, driver, matches);
  // A prefix longer than the cache keeps would be ordered again by every request.
  if (visits > maxVisits) return false;
  return unpaid + typedTestCost * visits < Math.min(walk, driver + collectCostPerMatch * matches);
}

/** About how many ids of the driver list a page of `limit` in its order tests (matches spread through it). */
export function listOrderVisits(limit: number, driver: number, matches: number): number {
  return Math.min(driver, (limit * driver) / Math.max(matches, 1e-9));
}

/**
 * The longest first k of a list the order-prefix cache keeps (exec/order-page.ts cachedOrderPrefix); a
 * longer one is ordered by every request. A power of two, as the fills are: a cap of 1,000 left pages
 * ending at 1,001–1,024 recomputed on every request.
 */
export const maxCachedPrefix = 1024;
/**
 * The most ids a list-order page is expected to test: its prefix (twice that) stays within what the
 * order-prefix cache keeps. A list of nothing but matches (a `has` list) reads exactly its page: it may
 * pass `maxCachedPrefix` instead.
 */
const maxListOrderVisits = maxCachedPrefix / 2;
/** Ordering a list's first k by top-k, per id of the list (a typed read and a heap compare; at 1M, a 30k-id list's first 1,024 took ~2 ms). */
const listOrderCostPerId = 2;

/**
 * What ordering an index list once costs (its first k by top-k, then kept by the order-prefix cache
 * until the order column is written): the price of the ski rental below.
 */
export function listOrderPrice(ids: number): number {
  return listOrderCostPerId * ids;
}

/**
 * Ski rental for a list's cached order. A page that goes without it (the list is not ordered yet, and
 * ordering it now costs more than the walk or the collecting it takes instead) pays its rent: what its
 * path costs beyond the list-order page with the order cached (0 when that would not be taken either).
 * Rent accrues per list until it reaches the list's price; the rules then count the list as paid for
 * (`unpaid` 0) and the next page orders it, so a list asked for again and again is ordered once
 * (at most twice what knowing the requests in advance would cost), and one asked once never is.
 * Without it a walk cheaper than one ordering was taken on every request, and the order never cached.
 */
export function listOrderRent(limit: number, driver: number, matches: number, walk: number, maxVisits = maxListOrderVisits): number {
  if (!prefersListOrder(limit, driver, matches, 0, walk, maxVisits)) return 0;
  return Math.min(walk, driver + collectCostPerMatch * matches) - typedTestCost * listOrderVisits(limit, driver, matches);
}

/**
 * A union of index lists (`anyofterms`) paged from each list's first k (exec/order-page.ts
 * firstKOfLists) rather than by a walk costing `walk` (Infinity: none): `unpaid`, what ordering the
 * lists whose first k are not cached still costs (their listOrderPrice less their rent), then k per
 * list are merged. Against collecting the union it never loses: that orders every list's ids too.
 */
export function prefersListPrefixes(limit: number, lists: number, unpaid: number, walk: number): boolean {
  return unpaid + limit * lists < walk;
}

/** The rent of a union page that walked instead (listOrderRent): the walk beyond merging cached first k, shared by the uncached lists by size. */
export function listPrefixesRent(limit: number, lists: number, walk: number): number {
  return walk === Infinity ? 0 : Math.max(0, walk - limit * lists);
}

/**
 * An unordered page from a driver list (the smallest list holding every match, in uid order) tested
 * per id, rather than collecting every match: the scan visits about `limit × driver / matches` ids
 * (a binary search each, ~4 merge steps of collecting), collecting costs about the driver's length.
 * `matches` is an estimate (lists taken as independent).
 */
export function prefersDriverScan(limit: number, driver: number, matches: number): boolean {
  if (driver === 0) return true;
  return (limit * driver * walkStepCost) / Math.max(matches, 1e-9) < driver;
}

/** The ordered index that can be walked in `field`'s value order, if any. */
export function walkableIndex(field: FieldModel): IndexKind | undefined {
  if (field.isList) return undefined;
  return orderedKinds.find((k) => field.search.includes(k) || (field.isXid && xidIndexKind(field) === k));
}
