// The one cache of plans: per field occurrence (a FieldPlan, cached with its document), one plan per
// argument shape — root list plans (plan/query-plan.ts), get lookups (plan/get-plan.ts) and edge
// filter plans (plan/filter-plan.ts). Plans hold no filter values, `first` or `offset`
// (exec reads them from each request's arguments), so one plan serves every request of a shape.

import type { FieldPlan } from '../plan/selection-plan.js';
import { storeEstimates } from '../plan/estimates.js';
import { planFilter, type FilterPlan } from '../plan/filter-plan.js';
import { keyMask, planGet, type GetPlan } from '../plan/get-plan.js';
import { filterShape, orderShape, planQuery, planShapeKey, type QueryPlan } from '../plan/query-plan.js';
import type { TypeModel } from '../schema/model.js';
import type { ExecContext } from './exec-context.js';
import { cacheCounters } from '../util/cache-stats.js';

interface CachedPlan {
  readonly plan: QueryPlan;
  /** Nodes of the type when planned: re-plan when it grew or shrank a lot since (estimates decide the order of intersections). */
  readonly count: number;
}

const plansByOccurrence = new WeakMap<FieldPlan, Map<string, CachedPlan>>();
/** Edge filters, per occurrence and shape (keyed by target type too: an interface edge's selection is per concrete type). */
const edgeFilterPlans = new WeakMap<FieldPlan, Map<string, CachedFilter>>();

interface CachedFilter {
  readonly plan: FilterPlan;
  readonly count: number;
}
const maxShapesPerOccurrence = 256;

const fresh = <T extends { readonly count: number }>(cached: T | undefined, count: number): cached is T =>
  cached !== undefined && count <= cached.count * 2 + 16 && count * 2 + 16 >= cached.count;

/** The plan of a root list field's arguments; `occurrence` absent (mutation selections): planned anew. */
export function queryPlanFor(ctx: ExecContext, rootName: string, type: TypeModel, args: Readonly<Record<string, unknown>>, occurrence?: FieldPlan): QueryPlan {
  const store = ctx.graph.store;
  if (occurrence === undefined) return planQuery(rootName, type, args, storeEstimates(store));
  const count = store.countOfType(type.name);
  let shapes = plansByOccurrence.get(occurrence);
  if (shapes === undefined) plansByOccurrence.set(occurrence, (shapes = new Map()));
  // Arguments ACL pruned (acl/acl-read.ts) are planned apart: a static shape's one plan is the unpruned one.
  const key = ctx.acl?.changed(args) === true ? `acl|${planShapeKey(args)}` : shapeKey(occurrence, args, ctx.variables);
  const cached = shapes.get(key);
  if (fresh(cached, count)) {
    cacheCounters.plan.hits++;
    return cached.plan;
  }
  cacheCounters.plan.misses++;
  const plan = planQuery(rootName, type, args, storeEstimates(store));
  if (shapes.size >= maxShapesPerOccurrence) shapes.clear();
  shapes.set(key, { plan, count });
  return plan;
}

interface CachedGet {
  readonly type: TypeModel;
  readonly mask: number;
  readonly plan: GetPlan;
}

/** Get plans per occurrence: usually one (an `_entities` occurrence looks up several types). */
const getPlans = new WeakMap<FieldPlan, CachedGet[]>();
const maxGetPlansPerOccurrence = 64;

/** The key lookups of a `get<T>`-like field for the keys its arguments supply (no allocation on a hit). */
export function getPlanFor(occurrence: FieldPlan, type: TypeModel, args: Readonly<Record<string, unknown>>): GetPlan {
  const mask = keyMask(type, args);
  let cached = getPlans.get(occurrence);
  if (cached === undefined) getPlans.set(occurrence, (cached = []));
  for (let i = 0; i < cached.length; i++) {
    const entry = cached[i] as CachedGet;
    if (entry.type === type && entry.mask === mask) {
      cacheCounters.plan.hits++;
      return entry.plan;
    }
  }
  cacheCounters.plan.misses++;
  const plan = planGet(occurrence.fieldName, type, mask);
  if (cached.length >= maxGetPlansPerOccurrence) cached.length = 0;
  cached.push({ type, mask, plan });
  return plan;
}

/**
 * The filter plan of an edge field's `filter` argument, planned with the target type's statistics
 * (what looking each condition up would cost, against which the filter step weighs checking each
 * target: plan/filter-plan.ts chooseFilterStep) and cached like root plans, so a filtered edge is
 * not planned again for every parent node.
 */
export function edgeFilterPlanFor(ctx: ExecContext, occurrence: FieldPlan, type: TypeModel, filter: Readonly<Record<string, unknown>>): FilterPlan {
  let shapes = edgeFilterPlans.get(occurrence);
  if (shapes === undefined) edgeFilterPlans.set(occurrence, (shapes = new Map()));
  const shape = occurrence.argumentShape;
  const key =
    ctx.acl?.changed(filter) === true
      ? `${type.name}|acl|${filterShape(filter)}`
      : shape.kind === 'static' || holdsSingleScalars(shape.variables, ctx.variables)
        ? type.name
        : `${type.name}|${filterShape(filter)}`;
  const store = ctx.graph.store;
  const count = store.countOfType(type.name);
  const cached = shapes.get(key);
  if (fresh(cached, count)) {
    cacheCounters.plan.hits++;
    return cached.plan;
  }
  cacheCounters.plan.misses++;
  const plan = planFilter(type, filter, storeEstimates(store), count, false);
  if (shapes.size >= maxShapesPerOccurrence) shapes.clear();
  shapes.set(key, { plan, count });
  return plan;
}

/**
 * The argument shape, cheaply where the document fixes it: static arguments have one shape; when
 * every variable holds one string or number, those fill leaves of a fixed filter shape, and only
 * the order's field names (enum values) can still differ.
 */
function shapeKey(occurrence: FieldPlan, args: Readonly<Record<string, unknown>>, variables: Readonly<Record<string, unknown>>): string {
  const shape = occurrence.argumentShape;
  if (shape.kind === 'static') return '';
  if (holdsSingleScalars(shape.variables, variables)) return orderShape(args['order']);
  return planShapeKey(args);
}

function holdsSingleScalars(names: readonly string[], variables: Readonly<Record<string, unknown>>): boolean {
  for (const name of names) {
    const kind = typeof variables[name];
    if (kind !== 'string' && kind !== 'number' && kind !== 'bigint') return false;
  }
  return true;
}
