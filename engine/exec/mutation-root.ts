// Root mutation fields: add<T>, update<T>, delete<T>. Each runs in one store transaction: all or
// nothing. The payload is read after commit (delete: before, since the nodes are gone after).

import type { FieldPlan } from '../plan/selection-plan.js';
import type { RootFieldModel, TypeModel } from '../schema/model.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { ExecutionError, FieldError, pathOf, type ExecContext, type Path } from './exec-context.js';
import { evaluateFilter, isEdgeField } from './filter-eval.js';
import { NodeWriter } from './node-writer.js';
import { orderAndPage, type PageArgs } from './order-page.js';
import { queryIds } from './query-root.js';
import { readList, type Completed } from './read-objects.js';
import { toStoredValue } from './stored-values.js';
import { XidPrecheck } from './xid-precheck.js';
import { existingByXid } from './xid-lookup.js';
import { unionReference } from './union-member.js';
import { typeUniverse } from './universe.js';
import { messages } from '../errors/messages.js';
import { wireError } from '../errors/wire-error.js';

type Input = Readonly<Record<string, unknown>>;

export function resolveMutationRoot(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan, path: Path): Completed {
  // The rules see the store as this field starts (earlier fields and mutations of the commit group included).
  ctx.auth?.refresh();
  try {
    return resolveField(ctx, root, plan, path);
  } catch (error) {
    if (!(error instanceof MutationFailed)) throw error;
    // Without locations, as Dgraph; shown in debug mode only (executor.ts, shownOnlyInDebug).
    ctx.errors.push(wireError(error.message, undefined, [plan.responseName]));
    return null;
  }
}

function resolveField(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan, path: Path): Completed {
  const type = ctx.typeModel(root.type ?? '');
  const args = ctx.argumentsOf(plan);
  switch (root.kind) {
    case 'add': {
      const ids = inTransaction(ctx, plan, () => addNodes(ctx, type, args, plan));
      ctx.events.push({ type: type.name, operation: 'add', rootIds: ids.roots, input: args['input'] });
      ctx.auth?.refresh();
      return payload(ctx, type, plan, path, ids.roots, ids.count);
    }
    case 'update': {
      const ids = inTransaction(ctx, plan, () => updateNodes(ctx, type, args['input'] as Input, plan));
      ctx.events.push({ type: type.name, operation: 'update', rootIds: ids, input: args['input'] });
      ctx.auth?.refresh();
      return payload(ctx, type, plan, path, ids, ids.length);
    }
    case 'delete': {
      const matched = queryIds(ctx, plan.fieldName, type, ctx.argumentsOn(type, args), plan);
      const ids = ctx.auth === undefined ? matched : ctx.auth.affected(matched, type, 'delete');
      const before = payload(ctx, type, plan, path, ids, ids.length);
      inTransaction(ctx, plan, () => {
        for (const id of ids) ctx.graph.store.deleteNode(id);
      });
      ctx.events.push({ type: type.name, operation: 'delete', rootIds: ids });
      return before;
    }
    default:
      throw new FieldError(messages.notSupportedYet(plan.fieldName));
  }
}

/**
 * A check Dgraph makes once the mutation has run failed (inTransaction has rolled the writes back):
 * `message` is its whole error, reported without locations.
 */
class MutationFailed extends Error {}

/**
 * Dgraph's checks once a mutation has written (authorizeNewNodes, then the additional deletes' checks):
 * every node it created passes its type's `add` rules, and every existing node a single edge was taken
 * from (NodeWriter.link) passed its `update` rules.
 */
function authorizeWrites(ctx: ExecContext, writer: NodeWriter, plan: FieldPlan): void {
  const auth = ctx.auth;
  if (auth === undefined) return;
  if (!auth.mayAdd(writer.created)) throw new MutationFailed('mutation failed because authorization failed');
  if (writer.unlinkRefused) throw new MutationFailed(`couldn't rewrite query for mutation ${plan.fieldName} because authorization failed`);
}

/**
 * Runs one root field all-or-nothing. Inside an operation-level transaction (opened by the facade so the
 * whole operation becomes one log record) the field gets a savepoint; otherwise its own transaction.
 */
function inTransaction<T>(ctx: ExecContext, plan: FieldPlan, body: () => T): T {
  const store = ctx.graph.store;
  const outer = store.openTransaction;
  const mark = outer?.savepoint() ?? 0;
  const txn = outer ?? store.begin();
  try {
    const result = body();
    // Dgraph's mutation cost: one per new node and per edge or value written (undo records here).
    ctx.touched += txn.changesSince(mark);
    if (outer === undefined) txn.commit();
    return result;
  } catch (error) {
    if (outer === undefined) txn.rollback();
    else outer.rollbackTo(mark);
    if (error instanceof ExecutionError) throw new FieldError(messages.failedMutation(plan.fieldName, error.message));
    if (error instanceof FieldError) {
      throw new FieldError(
        `couldn't rewrite mutation ${plan.fieldName} because failed to rewrite mutation payload because ${error.message}`,
      );
    }
    throw error;
  }
}

function addNodes(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>, plan: FieldPlan): { roots: number[]; count: number } {
  const inputs = (args['input'] as Input[] | undefined) ?? [];
  const precheck = new XidPrecheck(ctx.model);
  // Like Dgraph, every top-level object is checked and all their errors reported together.
  const errors = inputs.map((input) => precheck.check(type, input)).filter((e) => e !== undefined);
  if (errors.length > 0) throw new FieldError(errors.join('\nfailed to rewrite mutation payload because '));
  const writer = new NodeWriter(ctx, precheck);
  const upsert = args['upsert'] === true;
  const roots: number[] = [];
  for (const input of inputs) {
    const root = writer.addRoot(type, input, upsert);
    if (root !== undefined) roots.push(root);
  }
  authorizeWrites(ctx, writer, plan);
  const unique = [...new Set(roots)].sort((a, b) => a - b);
  return { roots: unique, count: new Set([...writer.created, ...unique]).size };
}

function updateNodes(ctx: ExecContext, type: TypeModel, input: Input, occurrence: FieldPlan): number[] {
  const set = input['set'] as Input | null | undefined;
  const remove = input['remove'] as Input | null | undefined;
  // Checked while rewriting, before any node is matched (so also when none is): `set`, then `remove`.
  const precheck = new XidPrecheck(ctx.model);
  for (const patch of [set, remove]) {
    const error = patch === undefined || patch === null ? undefined : precheck.check(type, patch);
    if (error !== undefined) throw new FieldError(error);
  }
  if (remove !== undefined && remove !== null) checkRemovedReferences(ctx, type, remove);
  const matched = queryIds(ctx, `update${type.name}`, type, ctx.argumentsOn(type, { filter: input['filter'] }), occurrence);
  const ids = [...(ctx.auth === undefined ? matched : ctx.auth.affected(matched, type, 'update'))];
  if (ids.length > 1 && set !== undefined && set !== null) checkOneXidOwner(ctx, type, set, occurrence);
  const writer = new NodeWriter(ctx, precheck);
  if (ids.length === 0 && set !== undefined && set !== null) rewriteUnmatched(ctx, writer, type, set);
  for (const id of ids) {
    if (set !== undefined && set !== null) writer.setFields(type, id, set, 'update');
    if (remove !== undefined && remove !== null) removeFields(ctx, writer, type, id, remove);
  }
  authorizeWrites(ctx, writer, occurrence);
  return ids;
}

/**
 * Dgraph's check after an update whose `set` gives @id values: they cannot go to several nodes. A value
 * some node holds already fails earlier, as its rewrite does (NodeWriter's "already exists"). Worded for
 * debug mode only when the type has query rules (the matches would tell of nodes the caller cannot read).
 */
function checkOneXidOwner(ctx: ExecContext, type: TypeModel, set: Input, occurrence: FieldPlan): void {
  const values = type.xidFields.flatMap((name) => {
    const field = type.fields.get(name);
    return field === undefined || set[name] === undefined || set[name] === null ? [] : [{ field, value: set[name] }];
  });
  if (values.length === 0 || values.some(({ field, value }) => existingByXid(ctx, type, field, value) !== undefined)) return;
  const text = 'only one node is allowed in the filter while updating fields with @id directive';
  throw new MutationFailed(`mutation ${occurrence.fieldName} failed because ${ctx.auth?.restricts(type.name) === true ? messages.graphqlDebug(text) : text}`);
}

/** Objects to remove from an edge must name their node (by ID or @id), whatever the filter matches. */
function checkRemovedReferences(ctx: ExecContext, type: TypeModel, remove: Input): void {
  for (const [name, value] of Object.entries(remove)) {
    const field = type.fields.get(name);
    if (field === undefined || value === undefined || value === null || !isEdgeField(field)) continue;
    for (const given of Array.isArray(value) ? (value as Input[]) : [value as Input]) {
      const { type: target, input: ref } = memberOf(ctx, ctx.typeModel(field.typeName), given);
      if (target.kind !== 'object') continue;
      const byId = target.idField !== undefined && ref[target.idField] !== undefined && ref[target.idField] !== null;
      if (byId || target.xidFields.some((x) => ref[x] !== undefined && ref[x] !== null)) continue;
      const [xid] = target.xidFields;
      throw new FieldError(xid === undefined ? 'id is not provided' : `field ${xid} cannot be empty`);
    }
  }
}

/**
 * Dgraph rewrites `set` before it knows which nodes match, so its nested objects fail the same way
 * when none does: they are written to a scratch node and rolled back.
 */
function rewriteUnmatched(ctx: ExecContext, writer: NodeWriter, type: TypeModel, set: Input): void {
  const store = ctx.graph.store;
  const txn = store.openTransaction;
  const edges = Object.entries(set).filter(([name, value]) => {
    const field = type.fields.get(name);
    return value !== null && field !== undefined && isEdgeField(field);
  });
  if (txn === undefined || edges.length === 0 || type.kind !== 'object') return;
  const mark = txn.savepoint();
  const created = writer.created.length;
  try {
    const scratch = store.createNode();
    store.addType(scratch, type.name);
    writer.setFields(type, scratch, Object.fromEntries(edges), 'update');
  } finally {
    txn.rollbackTo(mark);
    writer.created.length = created; // rolled back: not new nodes to authorize
  }
}

/** `remove`: a scalar is deleted when the value matches (or null is given); edges are unlinked. */
function removeFields(ctx: ExecContext, writer: NodeWriter, type: TypeModel, id: number, remove: Input): void {
  const store = ctx.graph.store;
  for (const [name, value] of Object.entries(remove)) {
    const field = type.fields.get(name);
    if (field === undefined || value === undefined || field.kind === 'id') continue;
    if (isEdgeField(field)) {
      const target = ctx.typeModel(field.typeName);
      if (value === null) {
        writer.unlinkAll(id, field);
        continue;
      }
      for (const given of field.isList ? (value as Input[]) : [value as Input]) {
        const { type: member, input: ref } = memberOf(ctx, target, given);
        const to = referencedNode(ctx, member, ref);
        if (to !== undefined) writer.unlink(id, field, to);
      }
      continue;
    }
    const column = store.scalar(field.predicate);
    const current = column.get(id);
    if (current === undefined) continue;
    if (value === null) {
      column.delete(id);
    } else if (field.isList && Array.isArray(current)) {
      const drop = new Set((value as unknown[]).map((v) => String(toStoredValue(field, v))));
      const kept = (current as unknown[]).filter((v) => !drop.has(String(v)));
      if (kept.length === 0) column.delete(id);
      else column.set(id, kept as never);
    } else if (String(current) === String(toStoredValue(field, value))) {
      column.delete(id);
    }
  }
}

/** A union reference stands for its member's reference (`{ dogRef: { id } }` → Dog `{ id }`). */
function memberOf(ctx: ExecContext, type: TypeModel, ref: Input): { type: TypeModel; input: Input } {
  return unionReference(ctx.model, type, ref) ?? { type, input: ref };
}

function referencedNode(ctx: ExecContext, type: TypeModel, ref: Input): number | undefined {
  const ids = evaluateFilter(ctx, type, refAsFilter(type, ref), typeUniverse(ctx.graph.store, type.name));
  return ids[0];
}

function refAsFilter(type: TypeModel, ref: Input): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (type.idField !== undefined && ref[type.idField] !== undefined) filter[type.idField] = [ref[type.idField]];
  for (const name of type.xidFields) if (ref[name] !== undefined) filter[name] = { eq: ref[name] };
  return filter;
}

/** `{ lc(T)(filter, order, first, offset): [T], numUids, msg }` */
function payload(ctx: ExecContext, type: TypeModel, plan: FieldPlan, path: Path, ids: SortedIds, numUids: number): Completed {
  if (plan.selection === undefined) return null;
  const out: Record<string, unknown> = {};
  const payloadType = plan.definition === undefined ? '' : String(plan.definition.type).replace(/!$/, '');
  const listName = `${type.name.charAt(0).toLowerCase()}${type.name.slice(1)}`;
  for (const field of plan.selection.forType(payloadType)) {
    if (!ctx.isIncluded(field)) continue;
    const fieldPath = pathOf(path, field.responseName);
    if (field.fieldName === '__typename') out[field.responseName] = payloadType;
    else if (field.fieldName === 'numUids') out[field.responseName] = numUids;
    else if (field.fieldName === 'msg') out[field.responseName] = numUids === 0 ? 'No nodes were deleted' : 'Deleted';
    else if (field.fieldName === listName) {
      const args = ctx.argumentsOf(field);
      let selected = [...ids].sort((a, b) => a - b) as SortedIds;
      // The nodes the query rules let this request read (Dgraph reads the payload as a query by ids).
      if (ctx.auth !== undefined) selected = ctx.auth.filter(selected, type);
      if (args['filter'] !== undefined && args['filter'] !== null) {
        selected = evaluateFilter(ctx, type, args['filter'] as Record<string, unknown>, selected);
      }
      out[field.responseName] = readList(ctx, orderAndPage(ctx, type, selected, args as PageArgs), type, field, fieldPath);
    }
  }
  return out;
}
