// The one cache of root list plans (plan/query-plan.ts): per field occurrence (a FieldPlan, cached
// with its document), one plan per argument shape. Plans hold no filter values, `first` or `offset`
// (exec reads them from each request's arguments), so one plan serves every request of a shape.

import type { FieldPlan } from '../plan/selection-plan.js';
import { storeEstimates } from '../plan/estimates.js';
import { orderShape, planQuery, planShapeKey, type QueryPlan } from '../plan/query-plan.js';
import type { TypeModel } from '../schema/model.js';
import type { ExecContext } from './exec-context.js';

interface CachedPlan {
  readonly plan: QueryPlan;
  /** Nodes of the type when planned: re-plan when it grew or shrank a lot since (estimates decide the order of intersections). */
  readonly count: number;
}

const plansByOccurrence = new WeakMap<FieldPlan, Map<string, CachedPlan>>();
const maxShapesPerOccurrence = 256;

const fresh = (cached: CachedPlan | undefined, count: number): cached is CachedPlan =>
  cached !== undefined && count <= cached.count * 2 + 16 && count * 2 + 16 >= cached.count;

/** The plan of a root list field's arguments; `occurrence` absent (mutation selections): planned anew. */
export function queryPlanFor(ctx: ExecContext, rootName: string, type: TypeModel, args: Readonly<Record<string, unknown>>, occurrence?: FieldPlan): QueryPlan {
  const store = ctx.graph.store;
  if (occurrence === undefined) return planQuery(rootName, type, args, storeEstimates(store));
  const count = store.countOfType(type.name);
  let shapes = plansByOccurrence.get(occurrence);
  if (shapes === undefined) plansByOccurrence.set(occurrence, (shapes = new Map()));
  const key = shapeKey(occurrence, args, ctx.variables);
  const cached = shapes.get(key);
  if (fresh(cached, count)) return cached.plan;
  const plan = planQuery(rootName, type, args, storeEstimates(store));
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
