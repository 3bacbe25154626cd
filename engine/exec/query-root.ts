// Root query fields: get<T>, query<T>, aggregate<T>.

import type { FieldPlan } from '../plan/selection-plan.js';
import type { RootFieldModel, TypeModel } from '../schema/model.js';
import { GraphStore } from '../store/graph-store.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { aggregateObject } from './aggregate.js';
import { FieldError, type ExecContext, type Path } from './exec-context.js';
import { evaluateFilter } from './filter-eval.js';
import { orderAndPage, type PageArgs } from './order-page.js';
import { readList, readObject, type Completed } from './read-objects.js';
import { findByXid } from './xid-lookup.js';

export function resolveQueryRoot(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan, path: Path): Completed {
  const type = ctx.typeModel(root.type ?? '');
  const args = ctx.argumentsOf(plan);
  switch (root.kind) {
    case 'get': {
      const id = getTarget(ctx, type, args, plan);
      return id === undefined || plan.selection === undefined ? null : readObject(ctx, id, type, plan.selection, path);
    }
    case 'query': {
      const ids = queryIds(ctx, type, args);
      return readList(ctx, orderAndPage(ctx, type, ids, args as PageArgs), type, plan, path);
    }
    case 'aggregate': {
      const ids = queryIds(ctx, type, args);
      return plan.selection === undefined ? null : aggregateObject(ctx, type, ids, plan.selection);
    }
    default:
      throw new FieldError(`${plan.fieldName} is not supported yet`);
  }
}

export function queryIds(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>): SortedIds {
  const universe = ctx.graph.store.nodesOfType(type.name);
  return evaluateFilter(ctx, type, args['filter'] as Record<string, unknown> | undefined, universe);
}

/** get<T>(id, xid...): every supplied key must match the same node of the type. */
function getTarget(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>, plan: FieldPlan): number | undefined {
  const store = ctx.graph.store;
  let found: number | undefined;
  if (type.idField !== undefined && args[type.idField] !== undefined && args[type.idField] !== null) {
    const raw = String(args[type.idField]);
    const id = GraphStore.parseUid(raw);
    if (id === undefined) throw new FieldError(`ID argument (${raw}) of ${plan.fieldName} was not able to be parsed`);
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
