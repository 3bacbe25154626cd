// Builds response objects for stored nodes from a selection plan, with GraphQL completion rules:
// a missing non-null field is an error that nulls the nearest nullable parent (REFERENCE §7).

import { getNullableType, isListType, isNonNullType, type GraphQLOutputType } from 'graphql';
import type { FieldPlan, SelectionPlan, UntypedFieldPlan } from '../plan/selection-plan.js';
import type { FieldModel, TypeModel } from '../schema/model.js';
import type { ScalarValue } from '../indexes/value-index.js';
import { GraphStore } from '../store/graph-store.js';
import type { StoredValue } from '../store/scalar-column.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { pathOf, type ExecContext, type Path } from './exec-context.js';
import { FieldError } from './exec-context.js';
import { isEdgeField, runFilter, type FilterRecord } from './filter-eval.js';
import { newEdgeRun, type EdgeRun } from '../plan/explain.js';
import { edgeFilterPlanFor } from './query-plan-cache.js';
import { orderAndPage, type PageArgs } from './order-page.js';
import { aggregateObject } from './aggregate.js';
import { toOutputValue } from './stored-values.js';
import { cascadeFor, passesCascade, type Cascade } from './cascade.js';
import { evaluateUnionFilter } from './union-filter.js';
import { hasDeclaredType } from './union-member.js';
import { languageValue } from './language-value.js';
import { messages } from '../errors/messages.js';

/** Marks a value that failed completion; its parent must become null (or fail in turn). */
export const INVALID: unique symbol = Symbol('invalid');
/** Marks a `@custom` field: left null here and recorded in `ctx.customSlots` for the second stage. */
const DEFERRED: unique symbol = Symbol('deferred');
/** Marks an object removed by `@cascade`: dropped from lists, null (without an error) elsewhere. */
export const CASCADED: unique symbol = Symbol('cascaded');
export type Completed = unknown;

const nonNullMissing = (field: string, type: GraphQLOutputType) =>
  `Non-nullable field '${field}' (type ${String(type)}) was not present in result from Dgraph.  GraphQL error propagation triggered.`;

/** A single-valued field found several values (e.g. a reverse edge): an error, and null propagated from here. */
function oneExpected(ctx: ExecContext, plan: FieldPlan, path: Path): typeof INVALID {
  ctx.addError(messages.listForOne, plan.nodes[0], path);
  return INVALID;
}

/** The object type a node is served as, when read through a field of type `declared`. */
export function concreteTypeOf(ctx: ExecContext, id: number, declared: TypeModel): TypeModel | undefined {
  if (declared.kind === 'object') return declared;
  for (const name of ctx.graph.store.typesOf(id)) {
    const type = ctx.model.types.get(name);
    if (type !== undefined && type.kind === 'object' && declared.possibleTypes.includes(name)) return type;
  }
  return undefined;
}

export function readObject(
  ctx: ExecContext,
  id: number,
  declared: TypeModel,
  selection: SelectionPlan,
  path: Path,
  cascade?: Cascade,
): Completed {
  const type = concreteTypeOf(ctx, id, declared);
  if (type === undefined) return null;
  const result: Record<string, unknown> = {};
  // Without READ on dgraph.type Dgraph cannot tell an abstract result's concrete type (selection-plan.ts `untyped`):
  // each field is then read as the type it was written on.
  const untyped = declared.kind !== 'object' && ctx.acl !== undefined && !ctx.acl.reads('dgraph.type');
  const plans = untyped ? selection.untyped(declared.name) : selection.forType(type.name);
  ctx.budget.object(plans.length);
  for (const plan of plans) {
    if (!ctx.isIncluded(plan)) continue;
    ctx.touched++;
    const fieldPath = pathOf(path, plan.responseName);
    const owner = untyped ? ownerOf(ctx, plan, type) : type;
    let value: Completed;
    try {
      value = resolveField(ctx, id, owner, plan, fieldPath, cascade);
      if (value === CASCADED) value = null;
      if (value === DEFERRED) {
        ctx.customSlots.push({ parentId: id, parentType: owner.name, plan, target: result, path: fieldPath });
        result[plan.responseName] = null;
        continue;
      }
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      ctx.addError(error.message, plan.nodes[0], fieldPath);
      value = null;
    }
    const fieldType = plan.definition?.type;
    if (value === INVALID || (value === null && fieldType !== undefined && isNonNullType(fieldType))) {
      if (value === null && fieldType !== undefined) ctx.addError(nonNullMissing(plan.fieldName, fieldType), plan.nodes[0], fieldPath);
      if (fieldType !== undefined && isNonNullType(fieldType)) return INVALID;
      value = null;
    }
    result[plan.responseName] = value;
  }
  if (cascade === undefined) return result;
  // (`stored` is asked only of listed fields the selection lacks: those are the node's own type's.)
  const checked = ctx.acl === undefined ? plans : readablePlans(ctx, type, plans, untyped);
  return passesCascade(cascade, result, checked, (name) => hasStoredValue(ctx, id, type, name)) ? result : CASCADED;
}

/** The type a field of an untyped result is read as: the one it was written on (else the node's own). */
function ownerOf(ctx: ExecContext, plan: FieldPlan, type: TypeModel): TypeModel {
  return ctx.model.types.get((plan as UntypedFieldPlan).on) ?? type;
}

/** Under ACL, `@cascade` checks only the fields left in Dgraph's pruned query (the readable ones). */
function readablePlans(ctx: ExecContext, type: TypeModel, plans: readonly FieldPlan[], untyped: boolean): readonly FieldPlan[] {
  return plans.filter((plan) => {
    const field = (untyped ? ownerOf(ctx, plan, type) : type).fields.get(plan.fieldName);
    return field === undefined || ctx.acl?.reads(field.predicate) !== false;
  });
}

function hasStoredValue(ctx: ExecContext, id: number, type: TypeModel, name: string): boolean {
  const field = type.fields.get(name);
  if (field === undefined) return false;
  if (ctx.acl !== undefined && !ctx.acl.reads(field.predicate)) return true; // not in the pruned query: not checked
  if (field.kind === 'id') return true;
  if (isEdgeField(field)) return edgeTargets(ctx, id, field).length > 0;
  return storedScalar(ctx, field, id) !== undefined;
}

function resolveField(ctx: ExecContext, id: number, type: TypeModel, plan: FieldPlan, path: Path, parent: Cascade | undefined): Completed {
  if (plan.fieldName === '__typename') return type.name;
  const field = type.fields.get(plan.fieldName);
  if (field === undefined) {
    if (plan.fieldName.endsWith('Aggregate')) return aggregateEdge(ctx, id, type, plan);
    if (plan.fieldName === 'vector_distance') return ctx.vectorDistances?.get(id) ?? null;
    return null;
  }
  if (field.kind === 'id') return GraphStore.uidOf(id);
  if (field.custom !== undefined) return DEFERRED; // resolved by the custom-logic stage
  // Under ACL a predicate the caller cannot read is absent from the result, as if it held no value.
  if (ctx.acl !== undefined && !ctx.acl.reads(field.predicate)) return field.isList ? [] : null;
  if (isEdgeField(field)) return readEdge(ctx, id, field, plan, path, cascadeFor(plan, parent, ctx.variables));
  const stored = storedScalar(ctx, field, id);
  if (stored === undefined) return field.isList ? [] : null;
  if (Array.isArray(stored)) return (stored as readonly ScalarValue[]).map((v) => completeScalar(v, plan, ctx));
  return completeScalar(stored as ScalarValue, plan, ctx);
}

/** A scalar field's stored value (language-fallback fields read the first language holding one). */
function storedScalar(ctx: ExecContext, field: FieldModel, id: number): StoredValue | undefined {
  const store = ctx.graph.store;
  return field.languages === undefined ? store.scalar(field.predicate).get(id) : languageValue(store, field, id);
}

export function completeScalar(value: ScalarValue, plan: FieldPlan, ctx: ExecContext): Completed {
  const output = toOutputValue(value);
  if (plan.selection === undefined || typeof output !== 'object' || output === null) return output;
  return pickGeo(output as Record<string, unknown>, plan.selection, ctx);
}

/** Geo values are objects (`Point {longitude latitude}` ...): apply the sub-selection to them. */
function pickGeo(value: Record<string, unknown>, selection: SelectionPlan, ctx: ExecContext): Completed {
  const typeName = 'points' in value ? 'PointList' : 'coordinates' in value ? 'Polygon' : 'polygons' in value ? 'MultiPolygon' : 'Point';
  const out: Record<string, unknown> = {};
  for (const plan of selection.forType(typeName)) {
    if (!ctx.isIncluded(plan)) continue;
    if (plan.fieldName === '__typename') {
      out[plan.responseName] = typeName;
      continue;
    }
    const member = value[plan.fieldName];
    out[plan.responseName] =
      plan.selection === undefined
        ? member
        : Array.isArray(member)
          ? member.map((m) => pickGeo(m as Record<string, unknown>, plan.selection as SelectionPlan, ctx))
          : pickGeo(member as Record<string, unknown>, plan.selection, ctx);
  }
  return out;
}

/** Targets of an edge field (forward, or reverse for `@dgraph(pred: "~p")`) restricted to its type. */
function edgeTargets(ctx: ExecContext, id: number, field: FieldModel): SortedIds {
  const store = ctx.graph.store;
  const targets = field.reverseOf !== undefined ? store.edges(field.reverseOf).in(id) : store.edges(field.predicate).out(id);
  if (field.kind === 'union') {
    const union = ctx.typeModel(field.typeName);
    return targets.filter((t) => hasDeclaredType(store, t, union));
  }
  // Usually every target has the type: then the list is returned as it is, with no copy.
  for (let i = 0; i < targets.length; i++) {
    if (!store.hasType(targets[i] as number, field.typeName)) return targets.filter((t) => store.hasType(t, field.typeName));
  }
  return targets;
}

/** An edge's targets passing the edge field's own `filter` argument, if any. */
export function filteredTargets(ctx: ExecContext, id: number, field: FieldModel, target: TypeModel, args: Readonly<Record<string, unknown>>, occurrence: FieldPlan): SortedIds {
  const all = edgeTargets(ctx, id, field);
  // Targets of a type with `@auth` query rules: only those the request's claims may read.
  const ids = ctx.auth === undefined ? all : ctx.auth.filter(all, target);
  ctx.budget.spend(ids.length); // filtering, ordering and paging them is work even when few are kept
  const filter = args['filter'];
  const run = edgeRunOf(ctx, occurrence, field, target);
  if (run !== undefined) run.targets += ids.length;
  if (filter === undefined || filter === null) return counted(run, ids);
  const value = filter as Record<string, unknown>;
  if (target.kind === 'union') return counted(run, evaluateUnionFilter(ctx, target, value, ids));
  const plan = edgeFilterPlanFor(ctx, occurrence, target, value);
  if (run === undefined) return runFilter(ctx, target, plan, value, ids);
  const record: FilterRecord = { produced: new Map(), filterStep: 'index' };
  const kept = runFilter(ctx, target, plan, value, ids, record);
  run.filter = plan;
  run.filterValue = value;
  run.filterSteps.set(record.filterStep, (run.filterSteps.get(record.filterStep) ?? 0) + 1);
  return counted(run, kept);
}

/** The EXPLAIN record of an edge occurrence (undefined without EXPLAIN), counting one more parent. */
function edgeRunOf(ctx: ExecContext, occurrence: FieldPlan, field: FieldModel, target: TypeModel): EdgeRun | undefined {
  const runs = ctx.edgeRuns;
  if (runs === undefined) return undefined;
  let run = runs.get(occurrence);
  if (run === undefined) runs.set(occurrence, (run = newEdgeRun(`${field.declaringType}.${occurrence.fieldName}`, target.name)));
  run.parents++;
  return run;
}

function counted(run: EdgeRun | undefined, kept: SortedIds): SortedIds {
  if (run !== undefined) run.kept += kept.length;
  return kept;
}

function readEdge(ctx: ExecContext, id: number, field: FieldModel, plan: FieldPlan, path: Path, cascade: Cascade | undefined): Completed {
  const target = ctx.typeModel(field.typeName);
  const args = ctx.argumentsOf(plan);
  const ids = filteredTargets(ctx, id, field, target, args, plan);
  if (!field.isList) {
    const [first] = ids;
    if (ids.length > 1) return oneExpected(ctx, plan, path);
    return first === undefined || plan.selection === undefined ? null : readObject(ctx, first, target, plan.selection, path, cascade);
  }
  return readPage(ctx, ids, target, plan, path, args as PageArgs, cascade);
}

/** Orders and pages `ids` and reads them; under `@cascade` the page is taken from the survivors. */
export function readPage(
  ctx: ExecContext,
  ids: SortedIds,
  type: TypeModel,
  plan: FieldPlan,
  path: Path,
  args: PageArgs,
  cascade: Cascade | undefined,
): Completed {
  const run = ctx.edgeRuns?.get(plan);
  if (cascade === undefined) return readList(ctx, orderAndPage(ctx, type, ids, args, run), type, plan, path);
  const all = readList(ctx, orderAndPage(ctx, type, ids, { order: args.order }, run), type, plan, path, cascade);
  if (!Array.isArray(all)) return all;
  const offset = Math.max(0, args.offset ?? 0);
  const first = args.first;
  return offset === 0 && (first === undefined || first === null) ? all : all.slice(offset, first === undefined || first === null ? undefined : offset + Math.max(0, first));
}

/** A list of nodes: an invalid element nulls itself in `[T]`, and the whole list in `[T!]`. */
export function readList(ctx: ExecContext, ids: SortedIds, type: TypeModel, plan: FieldPlan, path: Path, cascade?: Cascade): Completed {
  if (plan.selection === undefined) return [];
  const listType = plan.definition === undefined ? undefined : getNullableType(plan.definition.type);
  const itemNonNull = listType !== undefined && isListType(listType) && isNonNullType(listType.ofType);
  const out: unknown[] = [];
  for (let i = 0; i < ids.length; i++) {
    const item = readObject(ctx, ids[i] as number, type, plan.selection, pathOf(path, out.length), cascade);
    if (item === CASCADED) continue;
    if (item === INVALID) {
      if (itemNonNull) return INVALID;
      out.push(null);
    } else out.push(item);
  }
  return out;
}

/** `<f>Aggregate` of an edge: the aggregate object over the (filtered) targets. */
export function aggregateEdge(ctx: ExecContext, id: number, type: TypeModel, plan: FieldPlan): Completed {
  const field = type.fields.get(plan.fieldName.slice(0, -'Aggregate'.length));
  if (field === undefined || plan.selection === undefined || (ctx.acl !== undefined && !ctx.acl.reads(field.predicate))) return null;
  const target = ctx.typeModel(field.typeName);
  const args = ctx.argumentsOf(plan);
  if (ctx.auth?.denies(target) === true) return deniedAggregate(ctx, plan.selection, `${target.name}AggregateResult`);
  const ids = filteredTargets(ctx, id, field, target, args, plan);
  return aggregateObject(ctx, target, ids, plan.selection);
}

/** `<f>Aggregate` over a type whose rule is false for the claims: every field null (Dgraph: `{count: null, …}`). */
function deniedAggregate(ctx: ExecContext, selection: SelectionPlan, typeName: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const plan of selection.forType(typeName)) if (ctx.isIncluded(plan)) out[plan.responseName] = plan.fieldName === '__typename' ? typeName : null;
  return out;
}
