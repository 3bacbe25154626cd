// Runs a root list plan (plan/query-plan.ts) with one request's arguments: the filter tree, then the
// page step the plan's adaptive rule picks for the real candidate count. Nothing here chooses an
// index or a strategy of its own; `run` (EXPLAIN only) records what ran.

import { choosePage, pageLimit, pageParams } from '../plan/order-plan.js';
import type { QueryPlan, QueryRun } from '../plan/query-plan.js';
import type { TypeModel } from '../schema/model.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';
import { runFilter } from './filter-eval.js';
import { runPage } from './order-page.js';
import { typeUniverse } from './universe.js';

type Args = Readonly<Record<string, unknown>>;

/** The ordered page: filter, then walk / top-k / sort / slice as the plan's rule decides. */
export function runQueryPlan(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): SortedIds {
  const ids = runQueryFilter(ctx, type, plan, args, run);
  const page = pageParams(args);
  const strategy = choosePage(plan.order, pageLimit(page), ids.length, ctx.graph.store.countOfType(type.name));
  return runPage(ctx, plan.order, strategy, ids, page, run);
}

/** The candidates: the nodes of `type` the plan's filter selects. */
export function runQueryFilter(ctx: ExecContext, type: TypeModel, plan: QueryPlan, args: Args, run?: QueryRun): SortedIds {
  const universe = typeUniverse(ctx.graph.store, type.name);
  const ids = runFilter(ctx, type, plan.filter, args['filter'] as Args | null | undefined, universe, run);
  if (run !== undefined) run.candidates = ids.length;
  return ids;
}
