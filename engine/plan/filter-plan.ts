// The filter tree of a `<T>Filter` value, built as Dgraph's buildFilter reads it: one object's field
// conditions, `has`, ids, `not` and `and` items are intersected (smallest estimate first), and its
// `or` items are united with that intersection; objects placing no condition are left out. Nodes
// name the index each condition is answered by and where its value sits in the filter (`at`), so
// one plan serves every request of the same filter shape: exec/filter-eval.ts runs it with each
// request's values and never chooses an index itself.

import { messages } from '../errors/messages.js';
import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { Estimates } from './estimates.js';

/** Keys and list positions from the filter's root object to a value (a position in a non-list is the value itself). */
export type ArgPath = readonly (string | number)[];

export type FilterPlan =
  | { readonly op: 'scan'; readonly type: string; readonly estimate: number }
  | { readonly op: 'and' | 'or'; readonly children: readonly FilterPlan[]; readonly estimate: number }
  | { readonly op: 'not'; readonly child: FilterPlan; readonly estimate: number }
  | { readonly op: 'ids'; readonly count: number; readonly estimate: number; readonly at: ArgPath }
  /** `field` is absent when a `has` item's field name is a value read at `at` when run. */
  | { readonly op: 'has'; readonly estimate: number; readonly at: ArgPath; readonly field?: string }
  | {
      readonly op: 'index';
      readonly field: string;
      readonly model: FieldModel;
      readonly index: IndexKind | 'none';
      readonly fn: string;
      readonly estimate: number;
      readonly at: ArgPath;
      /** Only nodes of the queried type hold the predicate: the answer needs no intersection with the type. */
      readonly withinType: boolean;
    }
  /** A filter the shape alone makes invalid; running the plan reports `message`. */
  | { readonly op: 'fail'; readonly message: string; readonly estimate: number };

type Filter = Readonly<Record<string, unknown>>;

const rangeOps = new Set(['le', 'lt', 'ge', 'gt', 'between']);

/**
 * The plan of `filter` over `type`'s nodes (`universeIsType`) or over any id list (edge targets,
 * mutation selections): conditions on predicates only the type holds then need no intersection.
 */
export function planFilter(
  type: TypeModel,
  filter: Filter | null | undefined,
  estimates: Estimates,
  total: number,
  universeIsType = true,
): FilterPlan {
  const planner = new FilterPlanner(type, estimates, total, universeIsType);
  const plan = planner.object(filter, []) ?? { op: 'scan', type: type.name, estimate: total };
  return planner.failure ?? plan;
}

/** Whether a node's ids lie within the universe it was planned over (no intersection needed). */
export function withinUniverse(node: FilterPlan): boolean {
  switch (node.op) {
    case 'has':
    case 'ids':
      return false;
    case 'index':
      return node.withinType;
    default:
      return true;
  }
}

class FilterPlanner {
  /** The first condition (in the filter's key order) the shape makes invalid: it fails the whole filter. */
  failure: FilterPlan | undefined;

  constructor(
    private readonly type: TypeModel,
    private readonly estimates: Estimates,
    private readonly total: number,
    private readonly universeIsType: boolean,
  ) {}

  object(filter: Filter | null | undefined, at: ArgPath): FilterPlan | undefined {
    if (filter === null || filter === undefined) return undefined;
    const { type, total } = this;
    const children: FilterPlan[] = [];
    let alternatives: FilterPlan[] | undefined;
    for (const key of Object.keys(filter)) {
      const value = filter[key];
      if (value === undefined || value === null) continue;
      if (key === 'and') children.push(...this.items(value, [...at, key]));
      else if (key === 'or') alternatives = this.items(value, [...at, key]);
      else if (key === 'not') {
        const child = this.object(value as Filter, [...at, key]);
        if (child !== undefined) children.push({ op: 'not', child, estimate: Math.max(0, total - child.estimate) });
      } else if (key === 'has') list(value).forEach((_, i) => children.push({ op: 'has', estimate: total, at: [...at, key, i] }));
      else if (key === type.idField) children.push({ op: 'ids', count: list(value).length, estimate: list(value).length, at: [...at, key] });
      else {
        const field = type.fields.get(key);
        // An @external ID's filter is its list of values (`id: ["a", "b"]`), which Dgraph reads as `in`.
        if (field?.externalKey === true) children.push(this.index(field, 'hash', 'in', [...at, key], undefined, list(value).length));
        else if (field !== undefined) children.push(...this.field(field, value, [...at, key]));
      }
    }
    let conjunction: FilterPlan | undefined;
    if (children.length === 1) conjunction = children[0] as FilterPlan;
    else if (children.length > 1) {
      children.sort((a, b) => a.estimate - b.estimate); // intersect from the smallest set
      conjunction = { op: 'and', children, estimate: (children[0] as FilterPlan).estimate };
    }
    if (alternatives === undefined || alternatives.length === 0) return conjunction;
    const parts = conjunction === undefined ? alternatives : [conjunction, ...alternatives];
    if (parts.length === 1) return parts[0] as FilterPlan;
    return { op: 'or', children: parts, estimate: Math.min(total, parts.reduce((a, p) => a + p.estimate, 0)) };
  }

  private items(value: unknown, at: ArgPath): FilterPlan[] {
    const out: FilterPlan[] = [];
    list(value).forEach((item, i) => {
      const plan = this.object(item as Filter | null, [...at, i]);
      if (plan !== undefined) out.push(plan);
    });
    return out;
  }

  private field(field: FieldModel, value: unknown, at: ArgPath): FilterPlan[] {
    if (typeof value === 'boolean') return [this.index(field, 'bool', 'eq', at, 2)];
    if (typeof value !== 'object' || value === null) return [];
    const ops = value as Filter;
    const fns = Object.keys(ops).filter((fn) => ops[fn] !== undefined);
    if (fns.length > 1 && field.filterInput !== undefined && !field.filterInput.includes('_')) {
      const message = messages.oneFilterFunction(field.filterInput, fns.length);
      this.failure ??= { op: 'fail', message, estimate: 0 };
    }
    const out: FilterPlan[] = [];
    for (const fn of fns) {
      const arg = ops[fn];
      if (arg === null) {
        // `eq: null` means "has no value"; other null operators are ignored (Dgraph).
        if (fn === 'eq') out.push({ op: 'not', child: { op: 'has', field: field.name, estimate: this.total, at: [] }, estimate: this.total });
        continue;
      }
      const values = fn === 'in' ? list(arg).length : 1;
      out.push(this.index(field, indexFor(field, fn), fn, [...at, fn], rangeOps.has(fn) ? 3 : undefined, values));
    }
    return out;
  }

  /** Estimated ids of one index lookup: eq = entries/keys per value; ranges a third; text = entries/keys. */
  private index(field: FieldModel, kind: IndexKind | 'none', fn: string, at: ArgPath, divisor?: number, values = 1): FilterPlan {
    const size = kind === 'none' ? undefined : this.estimates.indexSize(field.predicate, kind);
    let estimate = this.total;
    if (size !== undefined) estimate = divisor !== undefined ? Math.ceil(size.entries / divisor) : Math.ceil((size.entries / Math.max(1, size.keys)) * values);
    const withinType = this.universeIsType && this.type.kind === 'object' && field.predicate === `${this.type.name}.${field.name}`;
    return { op: 'index', field: field.name, model: field, index: kind, fn, estimate: Math.min(estimate, this.total), at, withinType };
  }
}

/**
 * How a filter runs over a candidate list: `index` looks each condition up in its index (ids of the
 * whole type) and intersects with the candidates; `check` tests each candidate's stored value
 * or probes its postings (exec/filter-check.ts); conditions with neither (regexp, geo, ids) are
 * looked up once.
 */
export type FilterStep = 'index' | 'check';

const checkStepCost = 2;
const valueTested = new Set(['eq', 'in', 'le', 'lt', 'ge', 'gt', 'between']);
const testedKinds = new Set<IndexKind | 'none'>(['hash', 'exact', 'int', 'int64', 'float', 'year', 'month', 'day', 'hour']);
const lookupCosts = new WeakMap<FilterPlan, { readonly tested: number; readonly lookups: number }>();

/**
 * The adaptive filter step, taken with the real candidate count (an edge's targets, the type's
 * nodes): checking costs a few steps per candidate per value-tested condition; looking those
 * conditions up costs the ids they select in the whole type (their estimates). A filter over a
 * parent's ten edges is checked; a root list over the whole type is looked up.
 */
export function chooseFilterStep(plan: FilterPlan, candidates: number): FilterStep {
  let cost = lookupCosts.get(plan);
  if (cost === undefined) lookupCosts.set(plan, (cost = testedCost(plan)));
  if (cost.tested === 0) return 'index';
  return candidates * cost.tested * checkStepCost < cost.lookups ? 'check' : 'index';
}

/** Whether a node is answered by testing a candidate's stored value (same answer as its index lookup). */
export function isValueTested(node: FilterPlan): boolean {
  if (node.op === 'has') return true;
  return node.op === 'index' && node.model.languages === undefined && valueTested.has(node.fn) && testedKinds.has(node.index);
}

/**
 * Whether a node is tested per candidate from its index's postings (exec/filter-check.ts indexCheck:
 * a binary search in each query token's posting, no stored string re-tokenised): term and fulltext
 * functions of single-language fields.
 */
export function isPostingTested(node: FilterPlan): boolean {
  if (node.op !== 'index' || node.model.languages !== undefined) return false;
  if (node.fn === 'allofterms' || node.fn === 'anyofterms') return node.index === 'term';
  return (node.fn === 'alloftext' || node.fn === 'anyoftext') && node.index === 'fulltext';
}

function testedCost(node: FilterPlan): { tested: number; lookups: number } {
  if (isValueTested(node) || isPostingTested(node)) return { tested: 1, lookups: node.estimate };
  const children = node.op === 'and' || node.op === 'or' ? node.children : node.op === 'not' ? [node.child] : [];
  let tested = 0;
  let lookups = 0;
  for (const child of children) {
    const c = testedCost(child);
    tested += c.tested;
    lookups += c.lookups;
  }
  return { tested, lookups };
}

/** The index a filter function is answered by. */
export function indexFor(field: FieldModel, fn: string): IndexKind | 'none' {
  const has = (k: IndexKind) => field.search.includes(k);
  switch (fn) {
    case 'eq':
    case 'in':
      if (has('hash')) return 'hash';
      return rangeIndex(field);
    case 'le':
    case 'lt':
    case 'ge':
    case 'gt':
    case 'between':
      return rangeIndex(field);
    case 'allofterms':
    case 'anyofterms':
      return 'term';
    case 'alloftext':
    case 'anyoftext':
      return 'fulltext';
    case 'regexp':
      return 'trigram';
    case 'ngram':
      return 'ngram';
    case 'near':
    case 'within':
    case 'contains':
    case 'intersects':
      return 'geo';
    default:
      return 'none';
  }
}

function rangeIndex(field: FieldModel): IndexKind | 'none' {
  if (field.search.includes('exact')) return 'exact';
  const numeric = field.search.find((k) => ['int', 'int64', 'float', 'year', 'month', 'day', 'hour'].includes(k));
  if (numeric !== undefined) return numeric;
  return field.isXid ? xidIndexKind(field) : 'none';
}

/** The index that answers `@id` lookups for a field. */
export function xidIndexKind(field: FieldModel): IndexKind {
  if (field.typeName === 'Int') return 'int';
  if (field.typeName === 'Int64') return 'int64';
  return field.search.includes('exact') ? 'exact' : 'hash';
}

export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The value at `at` inside `filter`. */
export function valueAt(filter: unknown, at: ArgPath): unknown {
  let value = filter;
  for (let i = 0; i < at.length; i++) {
    const step = at[i] as string | number;
    if (typeof step === 'number') value = Array.isArray(value) ? value[step] : step === 0 ? value : undefined;
    else value = (value as Filter | null | undefined)?.[step];
  }
  return value;
}
