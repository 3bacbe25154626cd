// Runs filter plans: a generated `<T>Filter` value to the sorted ids that satisfy it, each function
// answered by the index its plan node names (every generated filter operator is backed by an index
// of the field). The plan decides; this file only runs it.

import type { SortedIds } from '../util/sorted-ids.js';
import { difference, intersect, unionMany } from '../util/sorted-ids.js';
import { checkFilter, compileCheck, type CheckSource, type IdCheck, type WalkedOrder } from './filter-check.js';
import { regexpParts, withRegexpErrors } from './regexp-literal.js';
import { GraphStore } from '../store/graph-store.js';
import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { ExecContext } from './exec-context.js';
import { FieldError } from './exec-context.js';
import { chooseFilterStep, planFilter, valueAt, withinUniverse, type FilterPlan, type FilterStep } from '../plan/filter-plan.js';
import { noEstimates } from '../plan/estimates.js';
import { geoMultiPolygon, geoPoint, geoPolygon, rangeBounds, toStoredValue, type MultiPolygonInput, type PointInput, type PolygonInput } from './stored-values.js';
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
import { languageColumns, languageIds } from './language-value.js';
import { listUniverse, restrictTo, type Universe } from './universe.js';
import type { ScalarColumn } from '../store/scalar-column.js';
import type { IndexKindName } from '../indexes/index-kind.js';
import { isEdgeField } from '../schema/model.js';

export { isEdgeField };

type Filter = Readonly<Record<string, unknown>>;

/** What a filter run did, for EXPLAIN: each node's id count and the step that ran. */
export interface FilterRecord {
  readonly produced: Map<FilterPlan, number>;
  /** Filter nodes tested per candidate instead of producing ids (with everything under them). */
  readonly checked?: Set<FilterPlan>;
  filterStep: FilterStep;
}

/**
 * Runs a filter plan (plan/filter-plan.ts) with one request's filter values over `universe` (the
 * nodes the plan was made for), by the step its rule picks for the universe's size: index lookups,
 * or a check of each candidate (filter-check.ts). Every lookup is run (no short cut), so each
 * condition's errors show whatever the others select. `record`, when given, gets what ran (EXPLAIN).
 */
export function runFilter(
  ctx: ExecContext,
  type: TypeModel,
  plan: FilterPlan,
  filter: Filter | null | undefined,
  universe: SortedIds | Universe,
  record?: FilterRecord,
): SortedIds {
  const nodes = Array.isArray(universe) ? listUniverse(universe) : (universe as Universe);
  if (plan.op === 'scan' && record === undefined) return nodes.ids(); // no filter: the commonest list
  const step = chooseFilterStep(plan, nodes.size);
  if (record !== undefined) record.filterStep = step;
  const run = new FilterRun(ctx, type, filter, nodes, record?.produced, record?.checked);
  if (step === 'index') return run.bounded(plan);
  return checkFilter(run, plan, nodes.ids(), record?.produced);
}

/** One request's filter over `universe`, run or compiled into a per-candidate test (filter-check.ts); nodes materialised for a test are run once. */
export interface PreparedFilter {
  /** `walk`: the order a checked walk would visit nodes in (filter-check.ts WalkedOrder). */
  check(plan: FilterPlan, walk?: WalkedOrder): IdCheck;
  /** The plan's ids within the universe (as runFilter). */
  bounded(plan: FilterPlan): SortedIds;
}

export function prepareFilter(
  ctx: ExecContext,
  type: TypeModel,
  filter: Filter | null | undefined,
  universe: Universe,
  produced?: Map<FilterPlan, number>,
  checked?: Set<FilterPlan>,
): PreparedFilter {
  return new FilterRun(ctx, type, filter, universe, produced, checked);
}

/**
 * Ids of `universe` matching `filter`, for lists planned on the spot (union members, mutation
 * selections and payloads, similarity results): planned without statistics (every order is as good
 * over such lists) and run. Root lists and edges run cached plans (query-plan-cache.ts).
 */
export function evaluateFilter(ctx: ExecContext, type: TypeModel, filter: Filter | null | undefined, universe: SortedIds | Universe): SortedIds {
  if (filter === null || filter === undefined) return Array.isArray(universe) ? universe : (universe as Universe).ids();
  return runFilter(ctx, type, planFilter(type, filter, noEstimates, 0, false), filter, universe);
}

class FilterRun implements CheckSource {
  /** Ids of nodes materialised to be checked, so that running them again costs nothing. */
  private memo: Map<FilterPlan, SortedIds> | undefined;

  constructor(
    readonly ctx: ExecContext,
    readonly type: TypeModel,
    readonly filter: Filter | null | undefined,
    private readonly universe: Universe,
    private readonly produced: Map<FilterPlan, number> | undefined,
    private readonly checkedNodes: Set<FilterPlan> | undefined,
  ) {}

  get universeSize(): number {
    return this.universe.size;
  }

  check(node: FilterPlan, walk?: WalkedOrder): IdCheck {
    return compileCheck(this, node, walk);
  }

  materialise(node: FilterPlan): SortedIds {
    const ids = this.run(node);
    (this.memo ??= new Map()).set(node, ids);
    return ids;
  }

  /** Records that a node was tested per candidate (EXPLAIN). */
  checked(node: FilterPlan): void {
    this.checkedNodes?.add(node);
  }

  /** A node's ids, intersected with the universe unless they lie within it already. */
  bounded(node: FilterPlan): SortedIds {
    const ids = this.run(node);
    return withinUniverse(node) ? ids : restrictTo(ids, this.universe);
  }

  run(node: FilterPlan): SortedIds {
    const known = this.memo?.get(node);
    if (known !== undefined) return known;
    const ids = this.compute(node);
    this.produced?.set(node, ids.length);
    return ids;
  }

  private compute(node: FilterPlan): SortedIds {
    switch (node.op) {
      case 'scan':
        return this.universe.ids();
      case 'fail':
        throw new FieldError(node.message);
      case 'ids':
        return parseIdList(asList(valueAt(this.filter, node.at)));
      case 'has':
        return hasField(this.ctx, this.type, node.field ?? String(valueAt(this.filter, node.at)));
      case 'not':
        return difference(this.universe.ids(), this.run(node.child));
      case 'or':
        return unionMany(node.children.map((child) => this.bounded(child)));
      case 'and':
        return this.intersection(node.children);
      case 'index':
        return applyOperator(this.ctx, node.model, node.fn, node.index, valueAt(this.filter, node.at));
    }
  }

  /**
   * A conjunction, from its smallest side: the child with the smallest bound (or the universe, when
   * smaller) is materialised; a child much larger than the running result is checked per candidate
   * (filter-check.ts: never materialised, e.g. a range over half the type or a negation), one of
   * similar size is materialised and intersected (galloping or bitsets, as before).
   */
  private intersection(children: readonly FilterPlan[]): SortedIds {
    const parts = children.map((node) => ({ node, check: this.check(node) })).sort((a, b) => a.check.bound - b.check.bound);
    const smallest = parts[0];
    if (smallest === undefined) return this.universe.ids();
    let acc: SortedIds;
    let rest = parts;
    if (this.universe.size <= smallest.check.bound) acc = this.universe.ids();
    else {
      rest = parts.slice(1);
      acc = this.run(smallest.node);
      // The result lies within the smallest side: only that side needs to lie inside the universe
      // (the other children may be checked per candidate, which tests no membership).
      if (!withinUniverse(smallest.node)) acc = restrictTo(acc, this.universe);
    }
    for (const { node, check } of rest) {
      if (acc.length === 0) break;
      if (check.ids !== undefined) acc = intersect(acc, check.ids);
      else if (check.bound > checkRatio * acc.length) {
        this.checked(node);
        acc = acc.filter((id) => check.test(id));
      }
      else acc = intersect(acc, this.run(node));
    }
    return acc;
  }
}

/** A child this many times larger than the running intersection is checked per candidate, not materialised. */
const checkRatio = 4;

/** Nodes that have a value (or at least one edge) for a field. */
export function hasField(ctx: ExecContext, type: TypeModel, name: string): SortedIds {
  const field = type.fields.get(name);
  if (field === undefined) return [];
  const store = ctx.graph.store;
  if (field.reverseOf !== undefined) return store.edges(field.reverseOf).targets();
  if (isEdgeField(field)) return store.edges(field.predicate).sources();
  if (field.languages !== undefined) return languageIds(store, field);
  return store.scalar(field.predicate).ids();
}

/** One filter function through the index the plan chose for it (`none`: the field has no fitting index). */
function applyOperator(ctx: ExecContext, field: FieldModel, op: string, planned: IndexKind | 'none', arg: unknown): SortedIds {
  if (field.languages === undefined) return applyOperatorOn(ctx, ctx.graph.store.scalar(field.predicate), field, op, planned, arg);
  // An any-language field (`pred@.`; only those can be searched): Dgraph compares every value of the
  // predicate, untagged and in each language (worker/task.go handleCompareFunction, lang "."), and its
  // index holds them all: the union of the operator over the untagged and every tagged column.
  return unionMany(languageColumns(ctx.graph.store, field.languages).map((column) => applyOperatorOn(ctx, column, field, op, planned, arg)));
}

/** The column's index of `kind`; a language column of an any-language field gets it on first use (back-filled, then kept up to date). */
function indexOn(column: ScalarColumn, field: FieldModel, kind: IndexKindName): unknown {
  return column.index(kind) ?? (field.languages !== undefined ? column.ensureIndex(kind) : undefined);
}

function applyOperatorOn(ctx: ExecContext, column: ScalarColumn, field: FieldModel, op: string, planned: IndexKind | 'none', arg: unknown): SortedIds {
  const stored = (v: unknown): ScalarValue => toStoredValue(field, v);
  if (planned === 'bool') return index<BoolIndex>(indexOn(column, field, 'bool'), field, 'bool').eq(arg as boolean);
  switch (op) {
    case 'eq':
    case 'in': {
      const values = op === 'eq' ? [arg] : asList(arg).filter((v) => v !== null);
      const kind = rangeKind(field, planned);
      if (kind === 'hash') return index<HashIndex>(indexOn(column, field, 'hash'), field, 'hash').in(values.map(stored));
      if (kind === 'exact') return unionMany(values.map((v) => index<ExactIndex>(indexOn(column, field, 'exact'), field, 'exact').eq(stored(v) as string)));
      const ordered = index<OrderedIndex>(indexOn(column, field, kind), field, kind);
      return unionMany(values.map((v) => ordered.eq(stored(v))));
    }
    case 'le':
    case 'lt':
    case 'ge':
    case 'gt':
    case 'between': {
      const kind = rangeKind(field, planned);
      const range = index<OrderedIndex | ExactIndex>(indexOn(column, field, kind), field, kind) as OrderedIndex;
      return range.range(rangeBounds(field, op, arg));
    }
    case 'allofterms':
      return index<TermIndex>(indexOn(column, field, 'term'), field, 'term').allOf(String(arg));
    case 'anyofterms':
      return index<TermIndex>(indexOn(column, field, 'term'), field, 'term').anyOf(String(arg));
    case 'alloftext':
      return index<FulltextIndex>(indexOn(column, field, 'fulltext'), field, 'fulltext').allOfText(String(arg));
    case 'anyoftext':
      return index<FulltextIndex>(indexOn(column, field, 'fulltext'), field, 'fulltext').anyOfText(String(arg));
    case 'regexp':
      return regexp(index<TrigramIndex>(indexOn(column, field, 'trigram'), field, 'trigram'), String(arg));
    case 'ngram':
      return index<NgramIndex>(indexOn(column, field, 'ngram'), field, 'ngram').ngram(String(arg));
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

/** `/pattern/flags` through the trigram index. */
function regexp(trigram: TrigramIndex, literal: string): SortedIds {
  const { pattern, flags } = regexpParts(literal);
  return withRegexpErrors(() => trigram.regexp(pattern, flags));
}

function geo(ctx: ExecContext, field: FieldModel): GeoIndex {
  return index<GeoIndex>(ctx.graph.store.scalar(field.predicate).index('geo'), field, 'geo');
}

/** The planned index of an equality or range function (plan/filter-plan.ts indexFor), if it has one. */
function rangeKind(field: FieldModel, planned: IndexKind | 'none'): IndexKind {
  if (planned === 'none') throw new FieldError(`field ${field.name} has no index for this filter`);
  return planned;
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

