// Runs a root list plan (plan/query-plan.ts) with one request's arguments: the filter tree, then the
// page step the plan's adaptive rule picks for the real candidate count; or, for filters checkable per
// node, a streamed page (stream-page.ts) when its rule prefers a walk. Nothing here chooses an
// index or a strategy of its own; `run` (EXPLAIN only) records what ran.

import { checkedWalkBudget, choosePage, pageLimit, pageParams, prefersDriverScan, listOrderRent, listOrderVisits, listPrefixesRent, maxCachedPrefix, prefersListOrder, prefersListPrefixes, prefersWalk, checkedVisitCost, typedTestCost, walkCost, type OrderKey, type PageParams } from '../plan/order-plan.js';
import { valueAt, withinUniverse } from '../plan/filter-plan.js';
import { hasCheckable } from '../plan/stream-plan.js';
import { scanChecked, typeMember, walkChecked, walkListOrder } from './checked-walk.js';
import type { QueryPlan, QueryRun } from '../plan/query-plan.js';
import type { FilterPlan } from '../plan/filter-plan.js';
import type { TypeModel } from '../schema/model.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { AggregateMatches } from './aggregate.js';
import type { ExecContext } from './exec-context.js';
import { prepareFilter, runFilter, type PreparedFilter } from './filter-eval.js';
import { firstKOfLists, listPrefix, listPrefixCached, payOrderRent, runPage, spendOrderRent, unpaidOrder, unpaidOrders } from './order-page.js';
import { restrictTo, typeUniverse, type Universe } from './universe.js';
import { streamMatches, streamPage } from './stream-page.js';
import { nearCellPage } from './near-page.js';

type Args = Readonly<Record<string, unknown>>;

/**
 * The ordered page: a streamed page when the filter is checkable in place and a walk pays
 * (stream-page.ts); else, when the rule picks an index walk for the filter's bound (from its
 * postings), the walk tests each visited node against the filter (checked-walk.ts); otherwise, or when
 * that walk gives up, the filter's candidates, then walk / top-k / sort / slice as the rule decides.
 */
export function runQueryPlan(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): SortedIds {
  const page = pageParams(args);
  // Filters checkable in place first: a walk in page order (stream-page.ts), when its rule prefers one.
  if (plan.stream !== undefined) {
    const listed = hasListPage(ctx, type, plan, args['filter'] as Args | null | undefined, page, run);
    if (listed !== undefined) return listed;
    const streamed = streamPage(ctx, type, plan, plan.stream, args['filter'] as Args | null | undefined, page, run);
    if (streamed !== undefined) return streamed;
  }
  const total = ctx.graph.store.countOfType(type.name);
  let ids: SortedIds;
  if (plan.filter.op === 'scan' && run === undefined) ids = ctx.graph.store.nodesOfType(type.name); // no filter: the commonest list
  else {
    const universe = typeUniverse(ctx.graph.store, type.name);
    const filter = prepareFilter(ctx, type, args['filter'] as Args | null | undefined, universe, run?.produced, run?.checked);
    const walked = checkedPage(ctx, type, plan, filter, universe, page, total, run);
    if (walked !== undefined && 'page' in walked) return walked.page;
    ids = walked?.candidates ?? filter.bounded(plan.filter);
    if (run !== undefined) run.candidates = ids.length;
  }
  const strategy = choosePage(plan.order, pageLimit(page), ids.length, total);
  return runPage(ctx, plan.order, strategy, ids, page, run);
}

/**
 * A filter that is one `has` of a scalar under the type's own predicate: the column's id list (kept
 * until the column is written) holds exactly the matches, so the page can be a slice of that list's
 * own order, kept by the order-prefix cache for every offset and page size up to its length, instead
 * of a walk in page order testing each node (which pays about `limit × total / matches` visits per
 * request). Ski rental (plan/order-plan.ts listOrderRent) decides when ordering the list pays: a list
 * paged again and again is ordered once, one paged once never is. Undefined: the streamed page runs.
 */
function hasListPage(ctx: ExecContext, type: TypeModel, plan: QueryPlan, filter: Args | null | undefined, page: PageParams, run: QueryRun | undefined): SortedIds | undefined {
  const node = plan.filter;
  const limit = pageLimit(page);
  if (node.op !== 'has' || limit === undefined || plan.order.keys.length !== 1) return undefined;
  const field = type.fields.get(node.field ?? String(valueAt(filter, node.at)));
  if (field === undefined || !hasCheckable(field) || typeMember(ctx, type, field, everyNode) !== everyNode) return undefined;
  const list = ctx.graph.store.scalar(field.predicate).ids();
  const walk = plan.order.walk === undefined ? Infinity : walkCost(limit, ctx.graph.store.countOfType(type.name), list.length, typedTestCost);
  const cached = listPrefixCached(ctx, plan.order, list, limit);
  const unpaid = cached ? 0 : unpaidOrder(list);
  // Every id of the list is a match: a page reads exactly its prefix, so any page the cache keeps may be taken.
  if (!prefersListOrder(limit, list.length, list.length, unpaid, walk, maxCachedPrefix)) {
    if (!cached) payOrderRent(ctx, plan.order, [list], limit, listOrderRent(limit, list.length, list.length, walk, maxCachedPrefix));
    return undefined;
  }
  // Bought for every page the cache keeps at once, not for this page's length: a longer page would buy it again.
  const ordered = listPrefix(ctx, plan.order, list, cached ? limit : Math.max(limit, maxCachedPrefix));
  if (ordered === undefined) return undefined;
  if (!cached) spendOrderRent(list);
  const ids = ordered.slice(page.offset, limit);
  if (run !== undefined) {
    record(run, plan, 'list-order', page.offset + ids.length, page.offset + ids.length);
    run.cachedPrefix = cached;
  }
  return ids;
}

const everyNode = (): boolean => true;

/**
 * The page by an index walk checking the filter per node, when the rule picks it for the filter's
 * bound and the walk does not give up; or the candidates, when the filter had to be materialised to
 * be checked at all (then the usual page step runs over them).
 */
function checkedPage(
  ctx: ExecContext,
  type: TypeModel,
  plan: QueryPlan,
  filter: PreparedFilter,
  universe: Universe,
  page: PageParams,
  total: number,
  run: QueryRun | undefined,
): { readonly page: SortedIds } | { readonly candidates: SortedIds } | undefined {
  const limit = pageLimit(page);
  const walk = plan.order.walk;
  const unordered = plan.order.keys.length === 0;
  if (limit === undefined || plan.filter.op === 'scan') return undefined;
  const first = plan.order.keys[0];
  // Only filters with index lists are paged without an index walk (below); the rest need the order's index.
  if (walk === undefined && !unordered && !listFilter(plan.filter) && !plan.nearCells) return undefined;
  const check = filter.check(plan.filter, first === undefined ? undefined : { predicate: first.model.predicate, desc: first.desc });
  if (check.ids !== undefined) return { candidates: withinUniverse(plan.filter) ? check.ids : restrictTo(check.ids, universe) };
  // What the index walk checking the filter would cost (Infinity: no walk), against the list pages below.
  const walkCosts = walk === undefined ? Infinity : walkCost(limit, total, Math.min(universe.size, check.share * universe.size), checkedVisitCost);
  // A near filter's page merged from the geo grid's cells in the order, when its rule says that pays (near-page.ts).
  const near = plan.nearCells && check.near !== undefined ? nearCellPage(ctx, plan.filter, plan.order, check.near, limit, walkCosts, run) : undefined;
  if (near !== undefined) return { page: page.offset === 0 ? near : near.slice(page.offset) };
  // A union of lists (anyofterms) in a one-key order: the page from each list's first k, no union built.
  const lists = check.union;
  if (lists !== undefined && !unordered && withinUniverse(plan.filter)) {
    const union = lists();
    const fits = union.length <= maxUnionLists && check.bound > 2 * limit * union.length;
    const pays = fits && prefersListPrefixes(limit, union.length, unpaidOrders(ctx, plan.order, union, limit), walkCosts);
    const firsts = pays ? firstKOfLists(ctx, plan.order, union, limit) : undefined;
    if (fits && !pays) payOrderRent(ctx, plan.order, union, limit, listPrefixesRent(limit, union.length, walkCosts));
    if (firsts !== undefined) {
      if (!firsts.cached) for (const list of union) spendOrderRent(list);
      if (run !== undefined) {
        run.strategy = 'top-k';
        run.candidates = firsts.candidates;
        run.cachedPrefix = firsts.cached;
        run.unionLists = { node: plan.filter, count: union.length };
      }
      return { page: page.offset === 0 ? firsts.ids : firsts.ids.slice(page.offset) };
    }
  }
  // One list is its own candidate list: the usual page step (and its cached prefix per list) serves it.
  const exact = check.driver?.exact;
  if (exact !== undefined) {
    const candidates = withinUniverse(plan.filter) ? exact() : restrictTo(exact(), universe);
    run?.produced.set(plan.filter, candidates.length);
    return { candidates };
  }
  // An index list holding every match (an allofterms' smallest posting) in its own cached order, the rest tested per id.
  const driver = check.driver;
  if (!unordered && driver?.snapshot !== undefined && withinUniverse(plan.filter)) {
    const list = driver.snapshot();
    const matches = Math.min(check.bound, universe.size, check.share * universe.size);
    const cached = listPrefixCached(ctx, plan.order, list, limit);
    const unpaid = cached ? 0 : unpaidOrder(list);
    if (!prefersListOrder(limit, list.length, matches, unpaid, walkCosts)) {
      if (!cached) payOrderRent(ctx, plan.order, [list], limit, listOrderRent(limit, list.length, matches, walkCosts));
    } else {
      if (!cached) spendOrderRent(list);
      const walked = walkListOrder(ctx, plan.order, list, driver.test, page, listOrderVisits(limit, list.length, matches));
      if (walked !== undefined) {
        if (run !== undefined) record(run, plan, 'list-order', walked.visited, page.offset + walked.ids.length);
        return { page: walked.ids };
      }
    }
  }
  if (unordered) {
    // uid order: scan the driver (a superset of the matches, ascending) testing each id, stop at the page.
    const driver = check.driver;
    if (driver === undefined || !prefersDriverScan(limit, driver.ids.length, check.share * universe.size)) return undefined;
    const scanned = scanChecked(driver, universe, limit);
    if (run !== undefined) record(run, plan, 'checked-scan', scanned.visited, scanned.ids.length);
    return { page: page.offset === 0 ? scanned.ids : scanned.ids.slice(page.offset) };
  }
  if (walk === undefined) return undefined;
  const bound = Math.min(check.bound, universe.size);
  const matches = Math.min(bound, check.share * universe.size);
  // A range holding the walk's start counts as passing all (filter-check.ts rangeEstimate): the share is the walk's density, not the matches.
  if (!prefersWalk(limit, total, matches, bound, checkedVisitCost, Math.min(universe.size, check.share * universe.size))) return undefined;
  const key = plan.order.keys[0] as OrderKey;
  const { ids, visited } = walkChecked(ctx, type, key, walk, check.test, check.keyed, page, checkedWalkBudget(limit, bound, matches, checkedVisitCost));
  if (ids === undefined) {
    if (run !== undefined) run.visited = visited; // EXPLAIN: the walk gave up, the candidates are collected
    return undefined;
  }
  if (run !== undefined) record(run, plan, 'checked-walk', visited, page.offset + ids.length);
  return { page: ids };
}

/** Whether the filter may check as a union of lists (filter-check.ts `union`: anyof functions and ngram, `or`s of them) or with a list as its driver (allof functions, `and`s with one). */
function listFilter(node: FilterPlan): boolean {
  if (node.op === 'or') return node.children.every(listFilter);
  if (node.op === 'and') return node.children.some(listFilter);
  return node.op === 'index' && (node.fn === 'anyofterms' || node.fn === 'anyoftext' || node.fn === 'allofterms' || node.fn === 'alloftext' || node.fn === 'ngram');
}

/** Unions of more lists are built: merging every list's first k would cost more. */
const maxUnionLists = 8;

/** EXPLAIN: the whole filter was tested per node by `strategy`. */
function record(run: QueryRun, plan: QueryPlan, strategy: 'checked-walk' | 'checked-scan' | 'list-order', visited: number, kept: number): void {
  run.checked.add(plan.filter);
  run.strategy = strategy;
  run.visited = visited;
  run.candidates = kept;
}

/** The candidates: the nodes of `type` the plan's filter selects. */
export function runQueryFilter(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): SortedIds {
  const universe = typeUniverse(ctx.graph.store, type.name);
  const ids = runFilter(ctx, type, plan.filter, args['filter'] as Args | null | undefined, universe, run);
  if (run !== undefined) run.candidates = ids.length;
  return ids;
}

/**
 * The matches of an aggregate: by a walk of a range condition when the filter is checkable per node
 * (no id list of the range is built and sorted; the ids come in the range field's value order), else
 * the filter's candidates (ascending).
 */
export function runQueryMatches(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): AggregateMatches {
  if (plan.stream !== undefined) {
    const walked = streamMatches(ctx, type, plan, plan.stream, args['filter'] as Args | null | undefined, run);
    if (walked !== undefined) return walked;
  }
  return { ids: runQueryFilter(ctx, type, plan, args, run) };
}
