// The fast path of read-objects.ts: writes the JSON text of stored nodes straight from a selection
// plan, without building response objects for JSON.stringify (which, with the garbage they leave,
// cost about half the engine's time on a 10-item list). It covers what needs no error and no second
// stage; anything else (a missing non-null value, `@cascade`, a `@custom` field, a field error) makes
// it give up with NOT_WRITABLE, and the caller answers through read-objects.ts instead. Reads change
// nothing, so starting over is safe.

import { isNonNullType } from 'graphql';
import type { FieldPlan, SelectionPlan } from '../plan/selection-plan.js';
import type { FieldModel, RootFieldModel, TypeModel } from '../schema/model.js';
import type { ScalarValue } from '../indexes/value-index.js';
import { GraphStore } from '../store/graph-store.js';
import type { ScalarColumn } from '../store/scalar-column.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { writeJson } from '../util/json-writer.js';
import { cascadeFor } from './cascade.js';
import type { ExecContext } from './exec-context.js';
import { evaluateFilter, isEdgeField } from './filter-eval.js';
import { orderAndPage, type PageArgs } from './order-page.js';
import { aggregateEdge, completeScalar, concreteTypeOf, edgeTargets } from './read-objects.js';
import { getTarget, queryPage } from './query-root.js';

/** Thrown when the answer needs the general path (errors, null propagation, cascade, custom logic). */
export const NOT_WRITABLE: unique symbol = Symbol('not writable');

/** Code units JSON must escape (surrogates included: a lone one is escaped by JSON.stringify). */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON escapes
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/;

function quote(text: string): string {
  return needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** JSON of a `get<T>` or `query<T>` root field, or undefined for the other root kinds. */
export function writeQueryRoot(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan): string | undefined {
  if (root.kind !== 'get' && root.kind !== 'query') return undefined;
  if (plan.selection === undefined || cascadeFor(plan, undefined, ctx.variables) !== undefined) throw NOT_WRITABLE;
  const type = ctx.typeModel(root.type ?? '');
  const args = ctx.argumentsOf(plan);
  if (root.kind === 'get') {
    const id = getTarget(ctx, type, args, plan);
    return id === undefined ? 'null' : writeObject(ctx, id, type, plan.selection);
  }
  return writeList(ctx, queryPage(ctx, root, type, args), type, plan.selection);
}

/** A field of one concrete type's selection, resolved once: what to write and where it is stored. */
interface FieldWriter {
  readonly plan: FieldPlan;
  readonly key: string;
  readonly nonNull: boolean;
  readonly kind: 'typename' | 'id' | 'scalar' | 'edge' | 'aggregate';
  readonly field: FieldModel | undefined;
  readonly column: ScalarColumn | undefined;
}

interface CompiledSelection {
  readonly store: GraphStore;
  readonly writers: readonly FieldWriter[];
}

/** Keyed by `SelectionPlan.forType`'s array (one per selection and concrete type, cached by the executor). */
const compiledSelections = new WeakMap<readonly FieldPlan[], CompiledSelection>();

function writersFor(ctx: ExecContext, type: TypeModel, plans: readonly FieldPlan[]): readonly FieldWriter[] {
  const store = ctx.graph.store;
  const cached = compiledSelections.get(plans);
  if (cached !== undefined && cached.store === store) return cached.writers;
  const writers = plans.map((plan): FieldWriter => {
    const key = `"${plan.responseName}":`;
    const nonNull = plan.definition !== undefined && isNonNullType(plan.definition.type);
    const base = { plan, key, nonNull, field: undefined, column: undefined };
    if (plan.fieldName === '__typename') return { ...base, kind: 'typename' };
    const field = type.fields.get(plan.fieldName);
    if (field === undefined) {
      if (!plan.fieldName.endsWith('Aggregate')) throw NOT_WRITABLE;
      return { ...base, kind: 'aggregate' };
    }
    if (field.custom !== undefined) throw NOT_WRITABLE;
    if (field.kind === 'id') return { ...base, kind: 'id', field };
    if (isEdgeField(field)) return { ...base, kind: 'edge', field };
    return { ...base, kind: 'scalar', field, column: store.scalar(field.predicate) };
  });
  compiledSelections.set(plans, { store, writers });
  return writers;
}

function writeObject(ctx: ExecContext, id: number, declared: TypeModel, selection: SelectionPlan): string {
  const type = concreteTypeOf(ctx, id, declared);
  if (type === undefined) return 'null';
  let out = '{';
  for (const writer of writersFor(ctx, type, selection.forType(type.name))) {
    if (!ctx.isIncluded(writer.plan)) continue;
    const value = writeField(ctx, id, type, writer);
    if (value === 'null' && writer.nonNull) throw NOT_WRITABLE;
    out += (out.length > 1 ? ',' : '') + writer.key + value;
  }
  return out + '}';
}

function writeList(ctx: ExecContext, ids: SortedIds, type: TypeModel, selection: SelectionPlan): string {
  let out = '[';
  for (let i = 0; i < ids.length; i++) {
    if (i > 0) out += ',';
    out += writeObject(ctx, ids[i] as number, type, selection);
  }
  return out + ']';
}

function writeField(ctx: ExecContext, id: number, type: TypeModel, writer: FieldWriter): string {
  switch (writer.kind) {
    case 'typename':
      return quote(type.name);
    case 'id':
      return quote(GraphStore.uidOf(id));
    case 'aggregate':
      return writeJson(aggregateEdge(ctx, id, type, writer.plan));
    case 'edge':
      return writeEdge(ctx, id, writer.field as FieldModel, writer.plan);
    default:
      break;
  }
  const stored = (writer.column as ScalarColumn).get(id);
  if (stored === undefined) return (writer.field as FieldModel).isList ? '[]' : 'null';
  if (!Array.isArray(stored)) return writeScalar(stored as ScalarValue, writer.plan, ctx);
  let out = '[';
  for (let i = 0; i < stored.length; i++) out += (i > 0 ? ',' : '') + writeScalar(stored[i] as ScalarValue, writer.plan, ctx);
  return out + ']';
}

function writeScalar(value: ScalarValue, plan: FieldPlan, ctx: ExecContext): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      // Geo objects and embeddings: built as objects, with the sub-selection applied.
      return writeJson(completeScalar(value, plan, ctx));
  }
}

function writeEdge(ctx: ExecContext, id: number, field: FieldModel, plan: FieldPlan): string {
  if (plan.selection === undefined || cascadeFor(plan, undefined, ctx.variables) !== undefined) throw NOT_WRITABLE;
  const target = ctx.typeModel(field.typeName);
  const args = ctx.argumentsOf(plan);
  let ids = edgeTargets(ctx, id, field);
  if (args['filter'] !== undefined && args['filter'] !== null) {
    ids = evaluateFilter(ctx, target, args['filter'] as Record<string, unknown>, ids);
  }
  if (!field.isList) {
    if (ids.length > 1) throw NOT_WRITABLE; // an error the general path reports
    const [first] = ids;
    return first === undefined ? 'null' : writeObject(ctx, first, target, plan.selection);
  }
  return writeList(ctx, orderAndPage(ctx, target, ids, args as PageArgs), target, plan.selection);
}
