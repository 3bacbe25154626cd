// Evaluates a generated `<T>Filter` value to the sorted ids that satisfy it, using the field's
// indexes only (every generated filter operator is backed by an index of the field).

import type { SortedIds } from '../util/sorted-ids.js';
import { difference, intersectAll, unionMany } from '../util/sorted-ids.js';
import { GraphStore } from '../store/graph-store.js';
import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { ExecContext } from './exec-context.js';
import { FieldError } from './exec-context.js';
import { xidIndexKind } from './graph.js';
import { geoMultiPolygon, geoPoint, geoPolygon, toStoredValue, type MultiPolygonInput, type PointInput, type PolygonInput } from './stored-values.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { HashIndex } from '../indexes/hash-index.js';
import type { ExactIndex } from '../indexes/exact-index.js';
import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { BoolIndex } from '../indexes/bool-index.js';
import type { TermIndex } from '../indexes/term-index.js';
import type { FulltextIndex } from '../indexes/fulltext-index.js';
import type { TrigramIndex } from '../indexes/trigram-index.js';
import type { NgramIndex } from '../indexes/ngram-index.js';
import type { GeoIndex } from '../indexes/geo-index.js';
import { languageIds } from './language-value.js';
import { messages } from '../errors/messages.js';

type Filter = Readonly<Record<string, unknown>>;

/**
 * Ids of `universe` (the type's nodes) matching `filter`, read as Dgraph's buildFilter does: the
 * object's field conditions, `has`, ids, `not` and each `and` are ANDed, and its `or` (one object,
 * or a list whose items are ORed) is ORed with that conjunction. The plan (plan/query-plan.ts
 * planFilter) describes the same tree.
 */
export function evaluateFilter(
  ctx: ExecContext,
  type: TypeModel,
  filter: Filter | null | undefined,
  universe: SortedIds,
  universeIsType = false,
): SortedIds {
  return evaluateObject(ctx, type, filter, universe, universeIsType) ?? universe;
}

/** The ids one filter object selects, or undefined when it places no condition (empty, all null). */
function evaluateObject(ctx: ExecContext, type: TypeModel, filter: Filter | null | undefined, universe: SortedIds, universeIsType: boolean): SortedIds | undefined {
  if (filter === null || filter === undefined) return undefined;
  // Parts known to lie inside `universe` spare the (often large) intersection with it.
  const bounded: SortedIds[] = [];
  const unbounded: SortedIds[] = [];
  let alternatives: SortedIds[] | undefined;
  const sub = (value: unknown): SortedIds | undefined => evaluateObject(ctx, type, value as Filter | null, universe, universeIsType);
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (value === undefined || value === null) continue;
    if (key === 'and') {
      for (const item of asList(value)) {
        const ids = sub(item);
        if (ids !== undefined) bounded.push(ids);
      }
    } else if (key === 'or') {
      alternatives = [];
      for (const item of asList(value)) {
        const ids = sub(item);
        if (ids !== undefined) alternatives.push(ids);
      }
    } else if (key === 'not') {
      const ids = sub(value);
      if (ids !== undefined) bounded.push(difference(universe, ids));
    } else if (key === 'has') {
      for (const name of asList(value)) unbounded.push(hasField(ctx, type, String(name)));
    } else if (key === type.idField) {
      unbounded.push(parseIdList(asList(value)));
    } else {
      const field = type.fields.get(key);
      if (field === undefined) continue;
      const ids = evaluateFieldFilter(ctx, type, field, value, universe);
      if (ids !== undefined) (universeIsType && ownsPredicate(type, field) ? bounded : unbounded).push(ids);
    }
  }
  let conjunction: SortedIds | undefined;
  if (bounded.length + unbounded.length > 0) {
    if (bounded.length === 0) unbounded.push(universe);
    conjunction = intersectAll(bounded.length === 0 ? unbounded : unbounded.length === 0 ? bounded : [...bounded, ...unbounded]);
  }
  if (alternatives === undefined || alternatives.length === 0) return conjunction;
  return unionMany(conjunction === undefined ? alternatives : [conjunction, ...alternatives]);
}

/**
 * Whether only nodes of `type` can hold the field's predicate (its default `<Type>.<field>` name),
 * so index answers for it are already restricted to the type.
 */
function ownsPredicate(type: TypeModel, field: FieldModel): boolean {
  return type.kind === 'object' && field.predicate === `${type.name}.${field.name}`;
}

/** Nodes that have a value (or at least one edge) for a field. */
function hasField(ctx: ExecContext, type: TypeModel, name: string): SortedIds {
  const field = type.fields.get(name);
  if (field === undefined) return [];
  const store = ctx.graph.store;
  if (field.reverseOf !== undefined) return store.edges(field.reverseOf).targets();
  if (isEdgeField(field)) return store.edges(field.predicate).sources();
  if (field.languages !== undefined) return languageIds(store, field);
  return store.scalar(field.predicate).ids();
}

export function isEdgeField(field: FieldModel): boolean {
  return field.kind === 'object' || field.kind === 'interface' || field.kind === 'union';
}

function evaluateFieldFilter(
  ctx: ExecContext,
  type: TypeModel,
  field: FieldModel,
  value: unknown,
  universe: SortedIds,
): SortedIds | undefined {
  const column = ctx.graph.store.scalar(field.predicate);
  if (typeof value === 'boolean') return index<BoolIndex>(column.index('bool'), field, 'bool').eq(value);
  if (value === null || typeof value !== 'object') return undefined;
  const ops = value as Filter;
  const keys = Object.keys(ops).filter((k) => ops[k] !== undefined);
  if (keys.length > 1 && field.filterInput !== undefined && !field.filterInput.includes('_')) {
    throw new FieldError(messages.oneFilterFunction(field.filterInput, keys.length));
  }
  const parts: SortedIds[] = [];
  for (const op of keys) {
    const arg = ops[op];
    if (arg === null) {
      // `eq: null` means "has no value"; other null operators are ignored (Dgraph).
      if (op === 'eq') parts.push(difference(universe, hasField(ctx, type, field.name)));
      continue;
    }
    parts.push(applyOperator(ctx, field, op, arg));
  }
  return parts.length === 0 ? undefined : intersectAll(parts);
}

function applyOperator(ctx: ExecContext, field: FieldModel, op: string, arg: unknown): SortedIds {
  const column = ctx.graph.store.scalar(field.predicate);
  const stored = (v: unknown): ScalarValue => toStoredValue(field, v);
  switch (op) {
    case 'eq':
    case 'in': {
      const values = op === 'eq' ? [arg] : asList(arg).filter((v) => v !== null);
      const kind = equalityKind(field);
      if (kind === 'hash') return index<HashIndex>(column.index('hash'), field, 'hash').in(values.map(stored));
      if (kind === 'exact') return unionMany(values.map((v) => index<ExactIndex>(column.index('exact'), field, 'exact').eq(stored(v) as string)));
      const ordered = index<OrderedIndex>(column.index(kind), field, kind);
      return unionMany(values.map((v) => ordered.eq(stored(v))));
    }
    case 'le':
    case 'lt':
    case 'ge':
    case 'gt':
    case 'between': {
      const kind = rangeKind(field);
      const range = index<OrderedIndex | ExactIndex>(column.index(kind), field, kind) as OrderedIndex;
      if (op === 'between') {
        const { min, max } = arg as { min: unknown; max: unknown };
        return range.range({ lower: { value: stored(min), inclusive: true }, upper: { value: stored(max), inclusive: true } });
      }
      const bound = { value: stored(arg), inclusive: op === 'le' || op === 'ge' };
      return range.range(op === 'le' || op === 'lt' ? { upper: bound } : { lower: bound });
    }
    case 'allofterms':
      return index<TermIndex>(column.index('term'), field, 'term').allOf(String(arg));
    case 'anyofterms':
      return index<TermIndex>(column.index('term'), field, 'term').anyOf(String(arg));
    case 'alloftext':
      return index<FulltextIndex>(column.index('fulltext'), field, 'fulltext').allOfText(String(arg));
    case 'anyoftext':
      return index<FulltextIndex>(column.index('fulltext'), field, 'fulltext').anyOfText(String(arg));
    case 'regexp':
      return regexp(index<TrigramIndex>(column.index('trigram'), field, 'trigram'), String(arg));
    case 'ngram':
      return index<NgramIndex>(column.index('ngram'), field, 'ngram').ngram(String(arg));
    case 'near': {
      const { coordinate, distance } = arg as { coordinate: PointInput; distance: number };
      return geo(ctx, field).near(geoPoint(coordinate), distance);
    }
    case 'within':
      return geo(ctx, field).within(geoPolygon((arg as { polygon: PolygonInput }).polygon));
    case 'contains': {
      const { point, polygon } = arg as { point?: PointInput; polygon?: PolygonInput };
      return geo(ctx, field).contains(point !== undefined && point !== null ? geoPoint(point) : geoPolygon(polygon as PolygonInput));
    }
    case 'intersects': {
      const { polygon, multiPolygon } = arg as { polygon?: PolygonInput; multiPolygon?: MultiPolygonInput };
      return geo(ctx, field).intersects(
        polygon !== undefined && polygon !== null ? geoPolygon(polygon) : geoMultiPolygon(multiPolygon as MultiPolygonInput),
      );
    }
    default:
      throw new FieldError(`unsupported filter operator ${op} on field ${field.name}`);
  }
}

/** Splits `/pattern/flags` as Dgraph does (dql parseRegexArgs): at the last `/`, with `\/` → `/`. */
function regexp(trigram: TrigramIndex, literal: string): SortedIds {
  const end = literal.lastIndexOf('/');
  if (end < 1 || !literal.startsWith('/')) throw new FieldError(`regexp filter expects a value of the form /pattern/flags, got: ${literal}`);
  const pattern = literal.slice(1, end).replaceAll('\\/', '/');
  const flags = literal.slice(end + 1);
  try {
    return trigram.regexp(pattern, flags);
  } catch (error) {
    throw new FieldError(error instanceof Error ? error.message : String(error));
  }
}

function geo(ctx: ExecContext, field: FieldModel): GeoIndex {
  return index<GeoIndex>(ctx.graph.store.scalar(field.predicate).index('geo'), field, 'geo');
}

/** Equality uses hash if present, else exact, else the scalar's ordered index. */
function equalityKind(field: FieldModel): IndexKind {
  if (field.search.includes('hash')) return 'hash';
  if (field.search.includes('exact')) return 'exact';
  return rangeKind(field);
}

function rangeKind(field: FieldModel): IndexKind {
  if (field.search.includes('exact')) return 'exact';
  const numeric = field.search.find((k) => ['int', 'int64', 'float', 'year', 'month', 'day', 'hour'].includes(k));
  if (numeric !== undefined) return numeric;
  if (field.isXid) return xidIndexKind(field); // @id fields always carry their lookup index
  throw new FieldError(`field ${field.name} has no index for this filter`);
}

function index<T>(found: unknown, field: FieldModel, kind: string): T {
  if (found === undefined) throw new FieldError(`field ${field.name} has no ${kind} index`);
  return found as T;
}

function parseIdList(values: readonly unknown[]): SortedIds {
  const ids: number[] = [];
  for (const v of values) {
    const id = GraphStore.parseUid(String(v));
    if (id !== undefined) ids.push(id);
  }
  ids.sort((a, b) => a - b);
  return ids.filter((id, i) => i === 0 || ids[i - 1] !== id);
}

function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

