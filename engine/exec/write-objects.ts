// The fast path of read-objects.ts: writes the JSON of stored nodes straight from a selection plan
// into UTF-8 bytes (util/json-bytes.ts), without building response objects for JSON.stringify and
// without decoding stored ASCII strings (which, with the garbage they leave, cost about half the
// engine's time on a 10-item list, and the socket then encoded the text once more). It covers what
// needs no error and no second stage; anything else (a missing non-null value, `@cascade`, a
// `@custom` field, a field error) makes it give up with NOT_WRITABLE, and the caller answers through
// read-objects.ts instead. Reads change nothing, so starting over is safe.

import { isNonNullType } from 'graphql';
import type { FieldPlan, SelectionPlan } from '../plan/selection-plan.js';
import type { FieldModel, RootFieldModel, TypeModel } from '../schema/model.js';
import type { ScalarValue } from '../indexes/value-index.js';
import { GeoIndex } from '../indexes/geo-index.js';
import type { GraphStore } from '../store/graph-store.js';
import type { EdgeColumn } from '../store/edge-column.js';
import type { ScalarColumn } from '../store/scalar-column.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { asciiBytes, asciiChunk, type ByteChunk, type JsonBytes } from '../util/json-bytes.js';
import { writeJson } from '../util/json-writer.js';
import { cascadeFor, type Cascade } from './cascade.js';
import type { ExecContext } from './exec-context.js';
import { isEdgeField } from './filter-eval.js';
import { orderAndPage, type PageArgs } from './order-page.js';
import { aggregateEdge, completeScalar, concreteTypeOf, filteredTargets } from './read-objects.js';
import { aggregateRoot, authorizedMatches, cascadeCandidates, getTarget, queryPage, similarMatches } from './query-root.js';
import { languageValue } from './language-value.js';

/** Thrown when the answer needs the general path (errors, null propagation, cascade, custom logic). */
export const NOT_WRITABLE: unique symbol = Symbol('not writable');

const COMMA = 0x2c;
const NULL = asciiBytes('null');

/** Writes a `get<T>`, `query<T>` or `aggregate<T>` root field's value; false (nothing written) for the other root kinds. */
export function writeQueryRoot(ctx: ExecContext, root: RootFieldModel, plan: FieldPlan, out: JsonBytes): boolean {
  const similar = root.kind === 'similarById' || root.kind === 'similarByEmbedding';
  if (root.kind !== 'get' && root.kind !== 'query' && root.kind !== 'aggregate' && !similar) return false;
  if (plan.selection === undefined) throw NOT_WRITABLE;
  const cascade = cascadeFor(plan, undefined, ctx.variables);
  const type = ctx.typeModel(root.type ?? '');
  const args = ctx.argumentsOf(plan);
  if (similar) {
    if (cascade !== undefined) throw NOT_WRITABLE;
    const { ids, distances } = similarMatches(ctx, root, type, args, plan);
    ctx.vectorDistances = distances;
    try {
      writeList(ctx, ids, type, plan.selection, out);
    } finally {
      ctx.vectorDistances = undefined;
    }
    return true;
  }
  if (cascade !== undefined) {
    if (root.kind !== 'query') throw NOT_WRITABLE;
    // Under `@auth` rules the candidates are the nodes the rules let through.
    const allowed = authorizedMatches(ctx, root, type, args, plan);
    writeCascadedList(ctx, type, args, plan.selection, cascade, allowed ?? cascadeCandidates(ctx, root, type, args, plan), out);
    return true;
  }
  if (root.kind === 'aggregate') {
    // A flat object of counts and reductions, as a nested aggregate field writes its own. A false `@auth` rule: null.
    if (ctx.auth?.denies(type) === true) out.bytes(NULL);
    else out.json(writeJson(aggregateRoot(ctx, root, type, args, plan, plan.selection)));
    return true;
  }
  if (root.kind === 'get') {
    const id = getTarget(ctx, type, args, plan);
    if (id === undefined || (ctx.auth !== undefined && !ctx.auth.mayRead(id, type))) out.bytes(NULL);
    else writeObject(ctx, id, type, plan.selection, out);
    return true;
  }
  // `ctx.auth` is set only when the rules restrict root types alone (auth/rule-reach.ts): edges are written unfiltered.
  const allowed = authorizedMatches(ctx, root, type, args, plan);
  writeList(ctx, allowed === undefined ? queryPage(ctx, root, type, args, plan) : orderAndPage(ctx, type, allowed, args as PageArgs), type, plan.selection, out);
  return true;
}

/**
 * A `query<T> @cascade` of plain scalar fields: the candidates whose required fields all hold a value
 * (the stored columns read, no object built), ordered and paged, then written. Anything else (edges,
 * @skip/@include, an interface, a missing non-null value, whose error the general path reports) is
 * NOT_WRITABLE. `touched` counts what reading every candidate counts there.
 */
function writeCascadedList(ctx: ExecContext, type: TypeModel, args: Record<string, unknown>, selection: SelectionPlan, cascade: Cascade, candidates: SortedIds, out: JsonBytes): void {
  if (type.kind !== 'object') throw NOT_WRITABLE;
  const writers = writersFor(ctx, type, selection.forType(type.name));
  if (!writers.unconditional) throw NOT_WRITABLE;
  const required: FieldWriter[] = [];
  for (const writer of writers.list) {
    if (writer.kind === 'typename' || writer.kind === 'id') continue; // always a value
    if (writer.kind !== 'scalar') throw NOT_WRITABLE;
    if (cascade.fields === undefined || cascade.fields.includes(writer.plan.fieldName)) required.push(writer);
  }
  // Listed fields outside the selection are checked against the stored node by the general path.
  if (cascade.fields?.some((name) => !writers.list.some((w) => w.plan.fieldName === name)) === true) throw NOT_WRITABLE;
  const survivors = candidates.filter((id) => {
    ctx.budget.spend(1);
    for (let i = 0; i < required.length; i++) {
      const writer = required[i] as FieldWriter;
      // Presence alone decides (an empty list is never stored): a string value is not decoded from the arena to be dropped.
      if ((writer.column as ScalarColumn).has(id)) continue;
      if (writer.nonNull) throw NOT_WRITABLE;
      return false;
    }
    return true;
  });
  const page = orderAndPage(ctx, type, survivors, args as PageArgs);
  ctx.touched += writers.list.length * (candidates.length - page.length);
  writeList(ctx, page, type, selection, out);
}

/** A field of one concrete type's selection, resolved once: what to write and where it is stored. */
interface FieldWriter {
  readonly plan: FieldPlan;
  /** `"responseName":` as bytes (GraphQL names need no escaping). */
  readonly key: Uint8Array;
  /** `{"responseName":` for the first field, `,"responseName":` for the others (when all are written). */
  readonly prefix: ByteChunk;
  readonly nonNull: boolean;
  readonly kind: 'typename' | 'id' | 'scalar' | 'language' | 'edge' | 'aggregate' | 'distance' | 'point';
  readonly field: FieldModel | undefined;
  readonly column: ScalarColumn | undefined;
  /** A single Point field's geo index: its coordinates by id are written instead of the stored object (see writePointById). */
  readonly geo?: GeoIndex;
  /** A single forward edge without arguments: read its one target in place (see writePlainEdge). */
  readonly plainEdge: EdgeColumn | undefined;
}

interface CompiledSelection {
  readonly store: GraphStore;
  readonly writers: FieldWriters;
}

interface FieldWriters {
  readonly list: readonly FieldWriter[];
  /** No `@skip`/`@include`: every field is written, so each writes its own `prefix`. */
  readonly unconditional: boolean;
}

/** Keyed by `SelectionPlan.forType`'s array (one per selection and concrete type, cached by the executor). */
const compiledSelections = new WeakMap<readonly FieldPlan[], CompiledSelection>();

function writersFor(ctx: ExecContext, type: TypeModel, plans: readonly FieldPlan[]): FieldWriters {
  const store = ctx.graph.store;
  const cached = compiledSelections.get(plans);
  if (cached !== undefined && cached.store === store) return cached.writers;
  const list = plans.map((plan, i): FieldWriter => {
    const key = asciiBytes(`"${plan.responseName}":`);
    const prefix = asciiChunk(`${i === 0 ? '{' : ','}"${plan.responseName}":`);
    const nonNull = plan.definition !== undefined && isNonNullType(plan.definition.type);
    const base = { plan, key, prefix, nonNull, field: undefined, column: undefined, plainEdge: undefined };
    if (plan.fieldName === '__typename') return { ...base, kind: 'typename' };
    const field = type.fields.get(plan.fieldName);
    if (field === undefined) {
      if (plan.fieldName === 'vector_distance') return { ...base, kind: 'distance' };
      if (!plan.fieldName.endsWith('Aggregate')) throw NOT_WRITABLE;
      return { ...base, kind: 'aggregate' };
    }
    if (field.custom !== undefined) throw NOT_WRITABLE;
    if (field.kind === 'id') return { ...base, kind: 'id', field };
    if (isEdgeField(field)) {
      const plain = !field.isList && field.reverseOf === undefined && plan.argumentShape.kind === 'static' && (plan.nodes[0]?.arguments ?? []).length === 0;
      return { ...base, kind: 'edge', field, plainEdge: plain ? store.edges(field.predicate) : undefined };
    }
    if (field.languages !== undefined) return { ...base, kind: 'language', field };
    const column = store.scalar(field.predicate);
    const geo = field.typeName === 'Point' && !field.isList && plan.selection !== undefined ? column.index('geo') : undefined;
    if (geo instanceof GeoIndex) return { ...base, kind: 'point', field, column, geo };
    return { ...base, kind: 'scalar', field, column };
  });
  const writers = { list, unconditional: plans.every((plan) => plan.unconditional) };
  compiledSelections.set(plans, { store, writers });
  return writers;
}

/** Writes a node as an object of its concrete type; true when it has none of `declared`'s types (null). */
function writeObject(ctx: ExecContext, id: number, declared: TypeModel, selection: SelectionPlan, out: JsonBytes): boolean {
  const type = concreteTypeOf(ctx, id, declared);
  if (type === undefined) {
    out.bytes(NULL);
    return true;
  }
  writeFields(ctx, id, type, writersFor(ctx, type, selection.forType(type.name)), out);
  return false;
}

function writeFields(ctx: ExecContext, id: number, type: TypeModel, writers: FieldWriters, out: JsonBytes): void {
  ctx.budget.spend(1);
  const list = writers.list;
  if (writers.unconditional && list.length > 0) {
    ctx.touched += list.length;
    for (let i = 0; i < list.length; i++) {
      const writer = list[i] as FieldWriter;
      out.chunk(writer.prefix);
      if (writeField(ctx, id, type, writer, out) && writer.nonNull) throw NOT_WRITABLE;
    }
    out.byte(0x7d); // }
    return;
  }
  out.byte(0x7b); // {
  let first = true;
  for (const writer of list) {
    if (!ctx.isIncluded(writer.plan)) continue;
    ctx.touched++;
    if (!first) out.byte(COMMA);
    first = false;
    out.bytes(writer.key);
    if (writeField(ctx, id, type, writer, out) && writer.nonNull) throw NOT_WRITABLE;
  }
  out.byte(0x7d); // }
}

function writeList(ctx: ExecContext, ids: SortedIds, type: TypeModel, selection: SelectionPlan, out: JsonBytes): void {
  out.byte(0x5b); // [
  // An object type's items all share one field list (an interface's may differ per item).
  const writers = type.kind === 'object' ? writersFor(ctx, type, selection.forType(type.name)) : undefined;
  for (let i = 0; i < ids.length; i++) {
    if (i > 0) out.byte(COMMA);
    if (writers === undefined) writeObject(ctx, ids[i] as number, type, selection, out);
    else writeFields(ctx, ids[i] as number, type, writers, out);
  }
  out.byte(0x5d); // ]
}

/** Writes one field's value; true when that value is null. */
function writeField(ctx: ExecContext, id: number, type: TypeModel, writer: FieldWriter, out: JsonBytes): boolean {
  switch (writer.kind) {
    case 'typename':
      out.string(type.name);
      return false;
    case 'id':
      out.quotedHex(id); // GraphStore.uidOf's text
      return false;
    case 'aggregate':
      out.json(writeJson(aggregateEdge(ctx, id, type, writer.plan)));
      return false;
    case 'distance': {
      // Set by a similarity root for its own nodes only (read-objects.ts answers null elsewhere too).
      const distance = ctx.vectorDistances?.get(id);
      if (distance === undefined) out.bytes(NULL);
      else out.number(distance);
      return distance === undefined;
    }
    case 'edge':
      return writer.plainEdge === undefined ? writeEdge(ctx, id, writer.field as FieldModel, writer.plan, out) : writePlainEdge(ctx, id, writer, out);
    case 'point':
      if (writePointById(ctx, id, writer, out)) return false;
      break; // no coordinates kept for the node: the stored value
    default:
      break;
  }
  const column = writer.column;
  if (column?.writeJson(id, out) === true) return false;
  const stored = column === undefined ? languageValue(ctx.graph.store, writer.field as FieldModel, id) : column.get(id);
  if (stored === undefined) {
    if ((writer.field as FieldModel).isList) {
      out.ascii('[]');
      return false;
    }
    out.bytes(NULL);
    return true;
  }
  if (!Array.isArray(stored)) {
    writeScalar(stored as ScalarValue, writer.plan, ctx, out);
    return false;
  }
  out.byte(0x5b);
  for (let i = 0; i < stored.length; i++) {
    if (i > 0) out.byte(COMMA);
    writeScalar(stored[i] as ScalarValue, writer.plan, ctx, out);
  }
  out.byte(0x5d);
  return false;
}

function writeScalar(value: ScalarValue, plan: FieldPlan, ctx: ExecContext, out: JsonBytes): void {
  switch (typeof value) {
    case 'string':
      out.string(value);
      return;
    case 'number':
      out.number(value);
      return;
    case 'boolean':
      out.ascii(value ? 'true' : 'false');
      return;
    case 'bigint':
      out.ascii(value.toString());
      return;
    default:
      if (plan.selection !== undefined && !(value instanceof Float32Array) && value.type === 'Point') {
        writePoint(value.coordinates[0], value.coordinates[1], plan.selection, ctx, out);
        return;
      }
      // Other geo objects and embeddings: built as objects, with the sub-selection applied.
      out.json(writeJson(completeScalar(value, plan, ctx)));
  }
}

/**
 * A Point field's value from its geo index's coordinates by id (the same doubles as the stored
 * object's): the stored object and its coordinates array were two cache misses per row of a `near`
 * page. False when the index keeps none for the node (no value, or the index gave them up).
 */
function writePointById(ctx: ExecContext, id: number, writer: FieldWriter, out: JsonBytes): boolean {
  const coords = (writer.geo as GeoIndex).pointsById();
  const lng = coords?.[2 * id];
  if (coords === undefined || lng === undefined || Number.isNaN(lng)) return false;
  writePoint(lng, coords[2 * id + 1] as number, writer.plan.selection as SelectionPlan, ctx, out);
  return true;
}

/** A Point with its sub-selection (`latitude`, `longitude`, `__typename`), written without building it. */
function writePoint(lng: number, lat: number, selection: SelectionPlan, ctx: ExecContext, out: JsonBytes): void {
  let first = true;
  for (const member of selection.forType('Point')) {
    if (!ctx.isIncluded(member)) continue;
    out.ascii(first ? '{"' : ',"');
    first = false;
    out.ascii(member.responseName);
    out.ascii('":');
    if (member.fieldName === 'latitude') out.number(lat);
    else if (member.fieldName === 'longitude') out.number(lng);
    else out.ascii('"Point"'); // __typename, the only other field of Point
  }
  out.ascii(first ? '{}' : '}');
}

/** The commonest edge (`author { name }`): one stored target, read without building a target list. */
function writePlainEdge(ctx: ExecContext, id: number, writer: FieldWriter, out: JsonBytes): boolean {
  const field = writer.field as FieldModel;
  const edges = writer.plainEdge as EdgeColumn;
  const target = edges.outCount(id) === 1 ? edges.firstOut(id) : undefined;
  // None, several, or one of another type: the general edge path decides.
  if (target === undefined || !ctx.graph.store.hasType(target, field.typeName)) return writeEdge(ctx, id, field, writer.plan, out);
  if (cascadeFor(writer.plan, undefined, ctx.variables) !== undefined) throw NOT_WRITABLE;
  return writeObject(ctx, target, ctx.typeModel(field.typeName), writer.plan.selection as SelectionPlan, out);
}

/** Writes an edge's value; true when it is null. */
function writeEdge(ctx: ExecContext, id: number, field: FieldModel, plan: FieldPlan, out: JsonBytes): boolean {
  if (plan.selection === undefined || cascadeFor(plan, undefined, ctx.variables) !== undefined) throw NOT_WRITABLE;
  const target = ctx.typeModel(field.typeName);
  const args = ctx.argumentsOf(plan);
  const ids = filteredTargets(ctx, id, field, target, args, plan);
  if (!field.isList) {
    if (ids.length > 1) throw NOT_WRITABLE; // an error the general path reports
    const [first] = ids;
    if (first === undefined) {
      out.bytes(NULL);
      return true;
    }
    return writeObject(ctx, first, target, plan.selection, out);
  }
  writeList(ctx, orderAndPage(ctx, target, ids, args as PageArgs), target, plan.selection, out);
  return false;
}
