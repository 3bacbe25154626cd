// Root query fields: get<T>, query<T>, aggregate<T>, check<T>Password, querySimilar<T>By*.

import { messages } from '../errors/messages.js';
import type { FieldPlan, SelectionPlan } from '../plan/selection-plan.js';
import type { RootFieldModel, TypeModel } from '../schema/model.js';
import { GraphStore } from '../store/graph-store.js';
import { intersect, type SortedIds } from '../util/sorted-ids.js';
import { aggregateObject, type AggregateMatches } from './aggregate.js';
import { cascadeFor, type Cascade } from './cascade.js';
import { explainQuery } from '../plan/explain.js';
import { newQueryRun, type QueryPlan, type QueryRun } from '../plan/query-plan.js';
import { getPlanFor, queryPlanFor } from './query-plan-cache.js';
import { explainGet, type GetPlan } from '../plan/get-plan.js';
import { passwordMatches } from './check-password.js';
import { coerceArguments, FieldError, type ExecContext, type Path } from './exec-context.js';
import { evaluateFilter } from './filter-eval.js';
import { type PageArgs } from './order-page.js';
import { runQueryFilter, runQueryMatches, runQueryPlan } from './run-query-plan.js';
import { CASCADED, readList, readObject, readPage, type Completed } from './read-objects.js';
import { metricOf, nearest, queryVector } from './similarity.js';
import { findByXid } from './xid-lookup.js';

export function resolveQueryRoot(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan, path: Path): Completed {
  const type = ctx.typeModel(root.type ?? '');
  const args = ctx.argumentsOf(plan);
  const cascade = cascadeFor(plan, undefined, ctx.variables);
  switch (root.kind) {
    case 'get': {
      const id = getTarget(ctx, type, args, plan);
      if (id === undefined || plan.selection === undefined || (ctx.auth !== undefined && !ctx.auth.mayRead(id, type))) return null;
      const object = readObject(ctx, id, type, plan.selection, path, cascade);
      return object === CASCADED ? null : object;
    }
    case 'query':
      if (ctx.acl !== undefined && ctx.acl.removesRoot(type, coerceArguments(plan, ctx.variables)['filter']) && ctx.auth?.readsRestricted(plan) !== true) return [];
      return runQuery(ctx, root, type, plan, path, args, cascade);
    case 'aggregate':
      // A rule false for the claims as a whole answers null, not a count of 0 (Dgraph).
      return plan.selection === undefined || ctx.auth?.denies(type) === true ? null : aggregateRoot(ctx, root, type, args, plan, plan.selection);
    case 'checkPassword': {
      const id = getTarget(ctx, type, args, plan);
      const secret = type.secret?.field ?? '';
      if (id === undefined || plan.selection === undefined || !passwordMatches(ctx, type, id, args[secret])) return null;
      // Only the `password` rules (the type's and its interfaces'), not the query rule (Dgraph).
      if (ctx.auth !== undefined && ctx.auth.affected([id], type, 'password').length === 0) return null;
      const object = readObject(ctx, id, type, plan.selection, path, cascade);
      return object === CASCADED ? null : object;
    }
    case 'similarById':
    case 'similarByEmbedding':
      return similar(ctx, root, type, plan, path, args);
    default:
      throw new FieldError(`${plan.fieldName} is not supported yet`);
  }
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
  // Under `@auth` rules the page is taken from the nodes the rules let through.
  const allowed = authorizedMatches(ctx, root, type, args, plan);
  if (allowed !== undefined) return readPage(ctx, allowed, type, plan, path, args as PageArgs, cascade);
  const ids = cascade === undefined ? queryPage(ctx, root, type, args, plan) : cascadeCandidates(ctx, root, type, args, plan);
  // Rules that let every node through were decided by the claims alone (authorizedMatches explains the others).
  if (ctx.explain !== undefined && type.kind === 'object' && ctx.auth?.restrictsType(type) === true) ctx.explain.push(ctx.auth.explain(type.name, false));
  return cascade === undefined ? readList(ctx, ids, type, plan, path) : readPage(ctx, ids, type, plan, path, args as PageArgs, cascade);
}

/** Under `@cascade` the page is taken from the survivors, so every match of the filter is a candidate (id order), EXPLAINed. */
export function cascadeCandidates(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Record<string, unknown>, plan: FieldPlan): SortedIds {
  const queryPlan = queryPlanFor(ctx, root.name, type, args, plan);
  const run = ctx.explain === undefined ? undefined : newQueryRun();
  const ids = runQueryFilter(ctx, type, queryPlan, args, run);
  if (run !== undefined) run.strategy = 'sort after @cascade';
  ctx.explain?.push(explainQuery(queryPlan, args, run));
  return ids;
}

/**
 * A `query<T>`'s matches the request's `@auth` rules let through, in id order (undefined: the type is
 * not restricted). An object type's allowed list is intersected with the filter's matches; an
 * interface's matches are checked one by one. Root plans assume their type's universe (their index
 * answers are not re-checked), so the filter runs as planned and is never handed the allowed list.
 */
export function authorizedMatches(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Record<string, unknown>, plan: FieldPlan): SortedIds | undefined {
  const auth = ctx.auth;
  if (auth === undefined || !auth.restrictsType(type)) return undefined;
  // EXPLAIN tells whether the rules' answer was cached, so it asks before `scope` computes it.
  const cached = ctx.explain !== undefined && type.kind === 'object' ? auth.isCached(type.name) : false;
  const scope = auth.scope(type);
  if (scope === 'all') return undefined;
  const unfiltered = args['filter'] === undefined || args['filter'] === null;
  const ids = scope === undefined ? auth.filter(queryIds(ctx, root.name, type, args, plan), type) : unfiltered ? scope : intersect(queryIds(ctx, root.name, type, args, plan), scope);
  if (ctx.explain !== undefined && type.kind === 'object') {
    if (unfiltered) ctx.explain.push(`${plan.responseName}: ${type.name}\n  every node of the type`);
    ctx.explain.push(auth.explain(type.name, cached));
  }
  return ids;
}

/** The ordered page a `query<T>` without `@cascade` returns (exec/run-query-plan.ts), EXPLAINed after it ran. */
export function queryPage(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Record<string, unknown>, occurrence?: FieldPlan): SortedIds {
  const queryPlan = queryPlanFor(ctx, root.name, type, args, occurrence);
  if (ctx.explain === undefined) return runQueryPlan(ctx, type, queryPlan, args);
  const run = newQueryRun();
  const out = runQueryPlan(ctx, type, queryPlan, args, run);
  ctx.explain.push(explainQuery(queryPlan, args, run));
  return out;
}

/** The ids of `type` a root field's filter selects (aggregates, mutations' `filter`), through its plan. */
export function queryIds(ctx: ExecContext, rootName: string, type: TypeModel, args: Readonly<Record<string, unknown>>, occurrence?: FieldPlan): SortedIds {
  const queryPlan = queryPlanFor(ctx, rootName, type, args, occurrence);
  const run = ctx.explain === undefined ? undefined : newQueryRun();
  const ids = runQueryFilter(ctx, type, queryPlan, args, run);
  ctx.explain?.push(explainQuery(queryPlan, args, run));
  return ids;
}

/** An `aggregate<T>` field's object (both read paths), EXPLAINed after the reduction (which may put a walk's matches in uid order). */
export function aggregateRoot(ctx: ExecContext, root: RootFieldModel, type: TypeModel, args: Readonly<Record<string, unknown>>, plan: FieldPlan, selection: SelectionPlan): Record<string, unknown> {
  const queryPlan = queryPlanFor(ctx, root.name, type, args, plan);
  const run = ctx.explain === undefined ? undefined : newQueryRun();
  const out = aggregateObject(ctx, type, aggregateMatches(ctx, type, queryPlan, args, run), selection);
  ctx.explain?.push(explainQuery(queryPlan, args, run));
  return out;
}

/** The matches an aggregate reduces (exec/run-query-plan.ts runQueryMatches), then the @auth rules. */
function aggregateMatches(ctx: ExecContext, type: TypeModel, queryPlan: QueryPlan, args: Readonly<Record<string, unknown>>, run: QueryRun | undefined): AggregateMatches {
  const matches = runQueryMatches(ctx, type, queryPlan, args, run);
  if (ctx.auth === undefined) return matches;
  // The rules may drop a walk's first or last match: its ends no longer hold.
  const ids = matches.inIdOrder === undefined ? matches.ids : matches.inIdOrder();
  return { ids: ctx.auth.filter(Array.isArray(ids) ? (ids as SortedIds) : Array.from(ids), type) };
}

/** The topK nearest nodes (exec/similarity.ts), then the type and the filter, in distance order. */
function similar(ctx: ExecContext, root: RootFieldModel, type: TypeModel, plan: FieldPlan, path: Path, args: Record<string, unknown>): Completed {
  const { ids, distances } = similarMatches(ctx, root, type, args, plan);
  ctx.vectorDistances = distances;
  try {
    return readList(ctx, ids, type, plan, path, cascadeFor(plan, undefined, ctx.variables));
  } finally {
    ctx.vectorDistances = undefined;
  }
}

/** A similarity root's answer nodes in distance order (not uid order), with every found node's distance. */
export function similarMatches(
  ctx: ExecContext,
  root: RootFieldModel,
  type: TypeModel,
  args: Record<string, unknown>,
  plan: FieldPlan,
): { readonly ids: number[]; readonly distances: ReadonlyMap<number, number> } {
  const field = type.fields.get(String(args['by']));
  if (field === undefined) throw new FieldError(`unknown embedding ${String(args['by'])}`);
  // Under ACL, Dgraph's similar_to block (and the by-id block's read of the vector) on an unreadable embedding is removed: no distances.
  if (ctx.acl !== undefined && !ctx.acl.reads(field.predicate)) return { ids: [], distances: new Map() };
  let vector: Float32Array;
  if (root.kind === 'similarByEmbedding') vector = queryVector(args['vector'] as number[]);
  else {
    const id = getTarget(ctx, type, args, plan);
    const stored = id === undefined ? undefined : ctx.graph.store.scalar(field.predicate).get(id);
    if (!(stored instanceof Float32Array)) return { ids: [], distances: new Map() };
    vector = stored;
  }
  const { ids, distances, explain } = nearest(ctx, field, metricOf(ctx.apiSchema, type, field), vector, Number(args['topK']));
  const store = ctx.graph.store;
  const readable = (id: number): boolean => store.hasType(id, type.name) && (ctx.auth === undefined || ctx.auth.mayRead(id, type));
  const filter = args['filter'] as Record<string, unknown> | null | undefined;
  // No filter: the readable nodes in distance order, without the filter's uid-ordered round trip.
  if ((filter === undefined || filter === null) && ctx.explain === undefined) return { ids: ids.filter(readable), distances };
  const ofType = ids.filter(readable).sort((a, b) => a - b);
  const kept = new Set(evaluateFilter(ctx, type, filter, ofType));
  ctx.explain?.push(`${plan.fieldName}: ${type.name}\n${explain}, ${kept.size} of the type after the filter`);
  return { ids: ids.filter((id) => kept.has(id)), distances };
}

/** get<T>(id, xid...): runs the field's get plan — every supplied key must find the same node of the type. */
export function getTarget(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>, plan: FieldPlan): number | undefined {
  const getPlan = getPlanFor(plan, type, args);
  const found = runGet(ctx, type, getPlan, args, plan.fieldName);
  ctx.explain?.push(explainGet(getPlan, found === undefined ? null : GraphStore.uidOf(found)));
  return found;
}

function runGet(ctx: ExecContext, type: TypeModel, getPlan: GetPlan, args: Record<string, unknown>, fieldName: string): number | undefined {
  const store = ctx.graph.store;
  let found: number | undefined;
  const keys = ctx.acl === undefined ? getPlan.keys : ctx.acl.getKeys(getPlan.keys);
  if (keys === undefined) return undefined;
  for (const key of keys) {
    if (key.op === 'uid') {
      const raw = String(args[key.arg]);
      const id = GraphStore.parseUid(raw);
      if (id === undefined) throw new FieldError(messages.idArgumentNotParsed(raw, fieldName));
      if (!store.nodeExists(id) || !store.hasType(id, type.name)) return undefined;
      found = id;
      continue;
    }
    const id = findByXid(ctx, type, key.model, args[key.arg], key.index);
    if (id === undefined || (found !== undefined && found !== id)) return undefined;
    found = id;
  }
  return found;
}
