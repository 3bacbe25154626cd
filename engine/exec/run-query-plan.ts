// Runs a root list plan (plan/query-plan.ts) with one request's arguments: the filter tree, then the
// page step the plan's adaptive rule picks for the real candidate count; or, for filters checkable per
// node, a streamed page (stream-page.ts) when its rule prefers a walk. Nothing here chooses an
// index or a strategy of its own; `run` (EXPLAIN only) records what ran.

import { choosePage, pageLimit, pageParams } from '../plan/order-plan.js';
import type { QueryPlan, QueryRun } from '../plan/query-plan.js';
import type { TypeModel } from '../schema/model.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';
import { runFilter } from './filter-eval.js';
import { runPage } from './order-page.js';
import { streamMatches, streamPage } from './stream-page.js';

type Args = Readonly<Record<string, unknown>>;

/** The ordered page: filter, then walk / top-k / sort / slice as the plan's rule decides. */
export function runQueryPlan(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): SortedIds {
  const page = pageParams(args);
  if (plan.stream !== undefined) {
    const streamed = streamPage(ctx, type, plan, plan.stream, args['filter'] as Args | null | undefined, page, run);
    if (streamed !== undefined) return streamed;
  }
  const ids = runQueryFilter(ctx, type, plan, args, run);
  const strategy = choosePage(plan.order, pageLimit(page), ids.length, ctx.graph.store.countOfType(type.name));
  return runPage(ctx, plan.order, strategy, ids, page, run);
}

/** The candidates: the nodes of `type` the plan's filter selects. */
export function runQueryFilter(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): SortedIds {
  const universe = ctx.graph.store.nodesOfType(type.name);
  const ids = runFilter(ctx, type, plan.filter, args['filter'] as Args | null | undefined, universe, run?.produced);
  if (run !== undefined) run.candidates = ids.length;
  return ids;
}

/**
 * The matches of an aggregate: by a walk of a range condition when the filter is checkable per node
 * (no id list of the range is built and sorted), else the filter's candidates. `inIdOrder` false
 * allows any order (count, min, max and integer sums do not depend on it).
 */
export function runQueryMatches(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, inIdOrder: boolean, run?: QueryRun): SortedIds {
  if (plan.stream !== undefined) {
    const ids = streamMatches(ctx, type, plan, plan.stream, args['filter'] as Args | null | undefined, inIdOrder, run);
    if (ids !== undefined) return ids;
  }
  return runQueryFilter(ctx, type, plan, args, run);
}
