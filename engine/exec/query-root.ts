// Root query fields: get<T>, query<T>, aggregate<T>, check<T>Password, querySimilar<T>By*.

import type { FieldPlan } from '../plan/selection-plan.js';
import type { RootFieldModel, TypeModel } from '../schema/model.js';
import { GraphStore } from '../store/graph-store.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { aggregateObject } from './aggregate.js';
import { cascadeFor, type Cascade } from './cascade.js';
import { explainQuery } from '../plan/explain.js';
import { planArgumentsKey, planQuery, prefersIndexWalk, walkableIndex, type QueryPlan } from '../plan/query-plan.js';
import { storeEstimates } from './estimates.js';
import { walkOrdered } from './index-walk.js';
import { passwordMatches } from './check-password.js';
import { FieldError, type ExecContext, type Path } from './exec-context.js';
import { evaluateFilter } from './filter-eval.js';
import { cachedOrderPrefix, orderAndPage, type PageArgs } from './order-page.js';
import { CASCADED, readList, readObject, readPage, type Completed } from './read-objects.js';
import { metricOf, nearest } from './similarity.js';
import { findByXid } from './xid-lookup.js';
import { messages } from '../errors/messages.js';

export function resolveQueryRoot(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan, path: Path): Completed {
  const type = ctx.typeModel(root.type ?? '');
  const args = ctx.argumentsOf(plan);
  const cascade = cascadeFor(plan, undefined, ctx.variables);
  switch (root.kind) {
    case 'get': {
      const id = getTarget(ctx, type, args, plan);
      if (id === undefined || plan.selection === undefined) return null;
      const object = readObject(ctx, id, type, plan.selection, path, cascade);
      return object === CASCADED ? null : object;
    }
    case 'query':
      return runQuery(ctx, root, type, plan, path, args, cascade);
    case 'aggregate': {
      const ids = queryIds(ctx, type, args);
      return plan.selection === undefined ? null : aggregateObject(ctx, type, ids, plan.selection);
    }
    case 'checkPassword': {
      const id = getTarget(ctx, type, args, plan);
      const secret = type.secret?.field ?? '';
      if (id === undefined || plan.selection === undefined || !passwordMatches(ctx, type, id, args[secret])) return null;
      const object = readObject(ctx, id, type, plan.selection, path, cascade);
      return object === CASCADED ? null : object;
    }
    case 'similarById':
    case 'similarByEmbedding':
      return similar(ctx, root, type, plan, path, args);
    default:
      throw new FieldError(messages.notSupportedYet(plan.fieldName));
  }
}

interface CachedPlan {
  readonly plan: QueryPlan;
  /** Nodes of the type when planned: re-plan when it grew or shrank a lot since (estimates decide the strategy). */
  readonly count: number;
}

/** Plans by argument object: static arguments are coerced once per cached document, so are their plans. */
const plansByArguments = new WeakMap<object, CachedPlan>();
/** Plans by argument shape (planArgumentsKey), for arguments built per request from variables. */
const plansByShape = new WeakMap<RootFieldModel, Map<string, CachedPlan>>();
const maxShapesPerRoot = 256;

const fresh = (cached: CachedPlan | undefined, count: number): cached is CachedPlan =>
  cached !== undefined && count <= cached.count * 2 + 16 && count * 2 + 16 >= cached.count;

/**
 * Per field occurrence (a FieldPlan, cached with its document): the plan last used when each of its
 * variables held one string or number. Such values only fill leaves that planArgumentsKey writes
 * the same whatever they hold, so the argument shape is the document's; what can still differ is
 * `first`, `offset` and `order`, which is all execution takes from a plan besides EXPLAIN text
 * (filters are evaluated from the arguments). `order` is compared by identity: a literal order is one
 * object across requests (argument-template.ts builds objects that hold variables anew each time, so
 * `order: { asc: $f }` never matches). This spares building and hashing the shape key per request.
 */
interface OccurrencePlan {
  readonly first: unknown;
  readonly offset: unknown;
  readonly order: unknown;
  readonly entry: CachedPlan;
}

const plansByOccurrence = new WeakMap<FieldPlan, OccurrencePlan>();

function holdsSingleScalars(names: readonly string[], variables: Readonly<Record<string, unknown>>): boolean {
  for (const name of names) {
    const kind = typeof variables[name];
    if (kind !== 'string' && kind !== 'number' && kind !== 'bigint') return false;
  }
  return true;
}

function queryPlanFor(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Record<string, unknown>, occurrence?: FieldPlan): QueryPlan {
  const count = ctx.graph.store.countOfType(type.name);
  const byArguments = plansByArguments.get(args);
  if (fresh(byArguments, count)) return byArguments.plan;
  const shape = occurrence?.argumentShape;
  const memoizable = shape !== undefined && shape.kind !== 'static' && holdsSingleScalars(shape.variables, ctx.variables);
  if (memoizable) {
    const memo = plansByOccurrence.get(occurrence as FieldPlan);
    if (memo !== undefined && memo.first === args['first'] && memo.offset === args['offset'] && memo.order === args['order'] && fresh(memo.entry, count)) {
      return memo.entry.plan;
    }
  }
  const entry = planByShape(ctx, root, type, args, count);
  if (memoizable) plansByOccurrence.set(occurrence as FieldPlan, { first: args['first'], offset: args['offset'], order: args['order'], entry });
  return entry.plan;
}

function planByShape(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Record<string, unknown>, count: number): CachedPlan {
  let shapes = plansByShape.get(root);
  if (shapes === undefined) plansByShape.set(root, (shapes = new Map()));
  const key = planArgumentsKey(args);
  const byShape = shapes.get(key);
  if (fresh(byShape, count)) return byShape;
  const entry = { plan: planQuery(root.name, type, args, storeEstimates(ctx.graph.store)), count };
  plansByArguments.set(args, entry);
  if (shapes.size >= maxShapesPerRoot) shapes.clear();
  shapes.set(key, entry);
  return entry;
}

function runQuery(
  ctx: ExecContext,
  root: RootFieldModel,
  type: TypeModel,
  plan: FieldPlan,
  path: Path,
  args: Record<string, unknown>,
  cascade: Cascade | undefined,
): Completed {
  if (cascade === undefined) return readList(ctx, queryPage(ctx, root, type, args, plan), type, plan, path);
  // Under @cascade the page is taken from the survivors, so every candidate is read in order.
  ctx.explain?.push(explainQuery(queryPlanFor(ctx, root, type, args, plan)));
  return readPage(ctx, queryIds(ctx, type, args), type, plan, path, args as PageArgs, cascade);
}

/** The ordered page a `query<T>` without `@cascade` returns: by an ordered-index walk, or filter + order + page. */
export function queryPage(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Record<string, unknown>, occurrence?: FieldPlan): SortedIds {
  const queryPlan = queryPlanFor(ctx, root, type, args, occurrence);
  ctx.explain?.push(explainQuery(queryPlan));
  const ids = queryIds(ctx, type, args);
  const key = queryPlan.order[0];
  const limit = queryPlan.first === undefined ? undefined : queryPlan.offset + queryPlan.first;
  // The walk is chosen by the plan's index and confirmed against the actual candidate count.
  const total = ctx.graph.store.countOfType(type.name);
  if (key !== undefined && queryPlan.order.length === 1 && limit !== undefined && prefersIndexWalk(limit, ids.length, total)) {
    const field = type.fields.get(key.field);
    const kind = field === undefined ? undefined : walkableIndex(field);
    if (field !== undefined && kind !== undefined) {
      const column = ctx.graph.store.scalar(field.predicate);
      const prefix = cachedOrderPrefix(ids, limit, column, key.desc, () => walkOrdered(ctx, field, kind, key.desc, ids, 0, limit));
      if (prefix !== undefined) return queryPlan.offset === 0 ? prefix : prefix.slice(queryPlan.offset);
    }
  }
  return orderAndPage(ctx, type, ids, args as PageArgs);
}

export function queryIds(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>): SortedIds {
  const universe = ctx.graph.store.nodesOfType(type.name);
  return evaluateFilter(ctx, type, args['filter'] as Record<string, unknown> | undefined, universe, true);
}

/** The topK nearest nodes (exec/similarity.ts), then the type and the filter, in distance order. */
function similar(ctx: ExecContext, root: RootFieldModel, type: TypeModel, plan: FieldPlan, path: Path, args: Record<string, unknown>): Completed {
  const field = type.fields.get(String(args['by']));
  if (field === undefined) throw new FieldError(`unknown embedding ${String(args['by'])}`);
  let vector: Float32Array;
  if (root.kind === 'similarByEmbedding') vector = Float32Array.from(args['vector'] as number[]); // a float32vector, as in Dgraph
  else {
    const id = getTarget(ctx, type, args, plan);
    const stored = id === undefined ? undefined : ctx.graph.store.scalar(field.predicate).get(id);
    if (!(stored instanceof Float32Array)) return [];
    vector = stored;
  }
  const { ids, distances } = nearest(ctx, field, metricOf(ctx.apiSchema, type, field), vector, Number(args['topK']));
  const store = ctx.graph.store;
  const ofType = ids.filter((id) => store.hasType(id, type.name)).sort((a, b) => a - b);
  const kept = new Set(evaluateFilter(ctx, type, args['filter'] as Record<string, unknown> | undefined, ofType));
  ctx.vectorDistances = distances;
  try {
    return readList(ctx, ids.filter((id) => kept.has(id)), type, plan, path, cascadeFor(plan, undefined, ctx.variables));
  } finally {
    ctx.vectorDistances = undefined;
  }
}

/** get<T>(id, xid...): every supplied key must match the same node of the type. */
export function getTarget(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>, plan: FieldPlan): number | undefined {
  const store = ctx.graph.store;
  let found: number | undefined;
  if (type.idField !== undefined && args[type.idField] !== undefined && args[type.idField] !== null) {
    const raw = String(args[type.idField]);
    const id = GraphStore.parseUid(raw);
    if (id === undefined) throw new FieldError(messages.idArgumentNotParsed(raw, plan.fieldName));
    if (!store.nodeExists(id) || !store.hasType(id, type.name)) return undefined;
    found = id;
  }
  for (const name of type.xidFields) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    const field = type.fields.get(name);
    if (field === undefined) continue;
    const id = findByXid(ctx, type, field, value);
    if (id === undefined || (found !== undefined && found !== id)) return undefined;
    found = id;
  }
  return found;
}
