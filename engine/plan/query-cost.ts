// The estimated cost of a query before it runs: the nodes it would read, level by level — a root field's
// candidates (its page size, or the type's count), times each edge's average fan-out (capped by the
// edge's page size) below it. Built from the selection plan, the coerced arguments and size statistics
// only, like query-plan.ts; exec/ refuses operations above `--max-query-cost` with it.

import { isEdgeField, type RootFieldModel, type SchemaModel, type TypeModel } from '../schema/model.js';
import type { CostEstimates } from './estimates.js';
import { planFilter } from './filter-plan.js';
import type { FieldPlan, SelectionPlan } from './selection-plan.js';

export interface CostInputs {
  readonly model: SchemaModel;
  readonly estimates: CostEstimates;
  /** Coerced arguments of a field (variables substituted): read only to refine by filters. */
  argumentsOf(plan: FieldPlan): Readonly<Record<string, unknown>>;
  /** The coerced value of a field's page-size argument (`first`, `topK`), if given. */
  pageSize(plan: FieldPlan, argument: 'first' | 'topK'): unknown;
}

export interface QueryCost {
  /** Estimated nodes read by the whole operation. */
  readonly total: number;
  /** The root field that contributes most (where an error points). */
  readonly costliest: FieldPlan | undefined;
}

/**
 * Cost of the root query fields in `roots`. Page sizes bound each level; filters are not counted unless
 * `refine` is set (the cheap bound is enough for nearly every query, so the filter plan is built only
 * when that bound is over the limit).
 */
export function estimateQueryCost(inputs: CostInputs, roots: readonly FieldPlan[], refine = false): QueryCost {
  let total = 0;
  let worst = -1;
  let costliest: FieldPlan | undefined;
  for (const plan of roots) {
    const root = inputs.model.queries.get(plan.fieldName);
    const cost = root === undefined ? 0 : rootCost(inputs, root, plan, refine);
    total += cost;
    if (cost > worst) {
      worst = cost;
      costliest = plan;
    }
  }
  return { total, costliest };
}

function rootCost(inputs: CostInputs, root: RootFieldModel, plan: FieldPlan, refine: boolean): number {
  const type = root.type === undefined ? undefined : inputs.model.types.get(root.type);
  if (type === undefined) return 0;
  let nodes: number;
  switch (root.kind) {
    case 'get':
    case 'checkPassword':
      nodes = 1;
      break;
    case 'aggregate':
      return candidates(inputs, type, plan, refine);
    case 'query':
      nodes = pageOf(candidates(inputs, type, plan, refine), inputs.pageSize(plan, 'first'));
      break;
    case 'similarById':
    case 'similarByEmbedding':
      nodes = pageOf(candidates(inputs, type, plan, refine), inputs.pageSize(plan, 'topK'));
      break;
    default:
      return 0;
  }
  return nodes + (plan.selection === undefined ? 0 : selectionCost(inputs, plan.selection, type, nodes));
}

function candidates(inputs: CostInputs, type: TypeModel, plan: FieldPlan, refine: boolean): number {
  const count = inputs.estimates.typeCount(type.name);
  if (!refine) return count;
  const filter = inputs.argumentsOf(plan)['filter'] as Readonly<Record<string, unknown>> | null | undefined;
  return filter !== undefined && filter !== null ? planFilter(type, filter, inputs.estimates, count).estimate : count;
}

/** `count` capped by a page size argument, when there is one. */
function pageOf(count: number, first: unknown): number {
  return typeof first === 'number' && first >= 0 ? Math.min(count, first) : count;
}

/** Nodes read below `parents` nodes of `type` (for interfaces and unions, the costliest member type). */
function selectionCost(inputs: CostInputs, selection: SelectionPlan, type: TypeModel, parents: number): number {
  if (parents === 0) return 0;
  if (type.kind === 'object') return objectCost(inputs, selection, type, parents);
  let worst = 0;
  for (const name of type.possibleTypes) {
    const member = inputs.model.types.get(name);
    if (member !== undefined && member.kind === 'object') worst = Math.max(worst, objectCost(inputs, selection, member, parents));
  }
  return worst;
}

function objectCost(inputs: CostInputs, selection: SelectionPlan, type: TypeModel, parents: number): number {
  let cost = 0;
  for (const plan of selection.forType(type.name)) {
    const aggregate = plan.fieldName.endsWith('Aggregate') && !type.fields.has(plan.fieldName);
    const field = type.fields.get(aggregate ? plan.fieldName.slice(0, -'Aggregate'.length) : plan.fieldName);
    if (field === undefined || field.custom !== undefined || !isEdgeField(field)) continue;
    const fan = inputs.estimates.fanOut(field.reverseOf ?? field.predicate, type.name, field.reverseOf !== undefined);
    if (aggregate) {
      cost += parents * fan; // every target is read, none is nested
      continue;
    }
    // (Arguments are coerced only when a page size may be among them.)
    const paged = field.isList && (plan.nodes[0]?.arguments?.length ?? 0) > 0;
    const children = parents * (paged ? pageOf(fan, inputs.pageSize(plan, 'first')) : field.isList ? fan : Math.min(1, fan));
    const target = inputs.model.types.get(field.typeName);
    cost += children + (plan.selection === undefined || target === undefined ? 0 : selectionCost(inputs, plan.selection, target, children));
  }
  return cost;
}
