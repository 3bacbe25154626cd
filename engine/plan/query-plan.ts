// The plan of one root query field: which index answers each filter condition (estimated sizes,
// smallest first), how the result is ordered (ordered-index walk with pagination pushed down,
// top-k, or a full sort) and paged. Built from the coerced arguments and index statistics only:
// it never reads node data. Printed by explain().

import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';

/** Index statistics the planner may consult (sizes only, no data). */
export interface Estimates {
  typeCount(type: string): number;
  /** Entries (value, node) of an index and its distinct keys; undefined if there is no such index. */
  indexSize(predicate: string, kind: IndexKind): { entries: number; keys: number } | undefined;
}

export type FilterPlan =
  | { readonly op: 'scan'; readonly type: string; readonly estimate: number }
  | { readonly op: 'and' | 'or'; readonly children: readonly FilterPlan[]; readonly estimate: number }
  | { readonly op: 'not'; readonly child: FilterPlan; readonly estimate: number }
  | { readonly op: 'ids'; readonly count: number; readonly estimate: number }
  | { readonly op: 'has'; readonly field: string; readonly estimate: number }
  | { readonly op: 'index'; readonly field: string; readonly index: IndexKind | 'none'; readonly fn: string; readonly estimate: number };

export type OrderStrategy = 'none' | 'index-walk' | 'top-k' | 'sort';

export interface QueryPlan {
  readonly root: string;
  readonly type: string;
  readonly filter: FilterPlan;
  readonly order: readonly { readonly field: string; readonly desc: boolean }[];
  readonly strategy: OrderStrategy;
  /** Index walked for `index-walk`. */
  readonly orderIndex?: IndexKind;
  readonly offset: number;
  readonly first: number | undefined;
}

const orderedKinds: readonly IndexKind[] = ['int', 'int64', 'float', 'exact'];
const rangeOps = new Set(['le', 'lt', 'ge', 'gt', 'between']);

/**
 * Walking an ordered index visits about `limit × total / candidates` index entries (the candidates
 * are spread through the value order), each costing a few times a top-k step over one candidate;
 * top-k visits every candidate once. So the walk pays only when the candidates are a large share
 * of the type (measured: a walk step ≈ 4 top-k steps).
 */
export function prefersIndexWalk(limit: number, candidates: number, total: number): boolean {
  if (limit * 4 >= candidates) return false;
  return candidates * candidates > walkStepCost * limit * Math.max(total, candidates);
}

const walkStepCost = 4;

/** The ordered index that can be walked in `field`'s value order, if any. */
export function walkableIndex(field: FieldModel): IndexKind | undefined {
  if (field.isList) return undefined;
  return orderedKinds.find((k) => field.search.includes(k) || (field.isXid && xidKind(field) === k));
}

function xidKind(field: FieldModel): IndexKind {
  return field.typeName === 'Int' ? 'int' : field.typeName === 'Int64' ? 'int64' : field.search.includes('exact') ? 'exact' : 'hash';
}

export function planQuery(
  root: string,
  type: TypeModel,
  args: Readonly<Record<string, unknown>>,
  estimates: Estimates,
): QueryPlan {
  const total = estimates.typeCount(type.name);
  const filter = planFilter(type, args['filter'] as Record<string, unknown> | null | undefined, estimates, total);
  const order = orderKeys(type, args['order']);
  const offset = Math.max(0, Number(args['offset'] ?? 0));
  const first = args['first'] === undefined || args['first'] === null ? undefined : Math.max(0, Number(args['first']));
  const plan = { root, type: type.name, filter, order, offset, first };
  if (order.length === 0) return { ...plan, strategy: 'none' };
  const firstKey = type.fields.get((order[0] as { field: string }).field);
  const limit = first === undefined ? undefined : offset + first;
  const walk = firstKey === undefined || order.length > 1 ? undefined : walkableIndex(firstKey);
  if (walk !== undefined && limit !== undefined && prefersIndexWalk(limit, filter.estimate, total)) {
    return { ...plan, strategy: 'index-walk', orderIndex: walk };
  }
  if (limit !== undefined && limit * 4 < filter.estimate) return { ...plan, strategy: 'top-k' };
  return { ...plan, strategy: 'sort' };
}

/**
 * Everything planQuery reads of the arguments, as a string: the filter's keys, nesting, list
 * lengths, nulls and booleans, the order, first and offset. Filter values themselves never change
 * a plan (estimates are per index, not per value), so requests differing only in them share one.
 */
export function planArgumentsKey(args: Readonly<Record<string, unknown>>): string {
  return `${filterShape(args['filter'])}|${JSON.stringify(args['order'] ?? null)}|${String(args['first'])}|${String(args['offset'])}`;
}

function filterShape(value: unknown): string {
  if (value === null) return 'n';
  if (Array.isArray(value)) {
    let out = `[${value.length}`;
    for (const item of value) out += `,${filterShape(item)}`;
    return `${out}]`;
  }
  if (typeof value === 'object') {
    let out = '{';
    for (const key in value) out += `${key}:${filterShape((value as Record<string, unknown>)[key])};`;
    return `${out}}`;
  }
  return typeof value === 'boolean' ? 'b' : value === undefined ? 'u' : 'v';
}

function orderKeys(type: TypeModel, order: unknown): { field: string; desc: boolean }[] {
  const keys: { field: string; desc: boolean }[] = [];
  for (let level = order as Record<string, unknown> | null | undefined; level !== undefined && level !== null; level = level['then'] as never) {
    const asc = level['asc'];
    const desc = level['desc'];
    const name = asc ?? desc;
    if (typeof name === 'string' && type.fields.has(name)) keys.push({ field: name, desc: asc === undefined || asc === null });
  }
  return keys;
}

/**
 * The filter tree exec/filter-eval.ts evaluates, as Dgraph's buildFilter builds it: one object's
 * field conditions, `has`, ids, `not` and `and` items are intersected (smallest estimate first), and
 * its `or` items are united with that intersection. Objects placing no condition are left out.
 */
export function planFilter(
  type: TypeModel,
  filter: Readonly<Record<string, unknown>> | null | undefined,
  estimates: Estimates,
  total: number,
): FilterPlan {
  return planObject(type, filter, estimates, total) ?? { op: 'scan', type: type.name, estimate: total };
}

function planObject(type: TypeModel, filter: Readonly<Record<string, unknown>> | null | undefined, estimates: Estimates, total: number): FilterPlan | undefined {
  if (filter === null || filter === undefined) return undefined;
  const sub = (value: unknown): FilterPlan | undefined => planObject(type, value as Record<string, unknown> | null, estimates, total);
  const children: FilterPlan[] = [];
  let alternatives: FilterPlan[] | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (key === 'and') children.push(...defined(list(value).map(sub)));
    else if (key === 'or') alternatives = defined(list(value).map(sub));
    else if (key === 'not') {
      const child = sub(value);
      if (child !== undefined) children.push({ op: 'not', child, estimate: Math.max(0, total - child.estimate) });
    } else if (key === 'has') for (const f of list(value)) children.push({ op: 'has', field: String(f), estimate: total });
    else if (key === type.idField) children.push({ op: 'ids', count: list(value).length, estimate: list(value).length });
    else {
      const field = type.fields.get(key);
      if (field !== undefined) children.push(...planField(field, value, estimates, total));
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

function defined(plans: readonly (FilterPlan | undefined)[]): FilterPlan[] {
  return plans.filter((p): p is FilterPlan => p !== undefined);
}

function planField(field: FieldModel, value: unknown, estimates: Estimates, total: number): FilterPlan[] {
  if (typeof value === 'boolean') return [indexNode(field, 'bool', 'eq', estimates, total, 2)];
  if (typeof value !== 'object' || value === null) return [];
  const out: FilterPlan[] = [];
  for (const [fn, arg] of Object.entries(value)) {
    if (arg === undefined) continue;
    if (arg === null) {
      if (fn === 'eq') out.push({ op: 'not', child: { op: 'has', field: field.name, estimate: total }, estimate: total });
      continue;
    }
    const kind = indexFor(field, fn);
    const values = fn === 'in' ? list(arg).length : 1;
    out.push(indexNode(field, kind, fn, estimates, total, rangeOps.has(fn) ? 3 : undefined, values));
  }
  return out;
}

/** Estimated ids of one index lookup: eq = entries/keys per value; ranges a third; text = entries/keys. */
function indexNode(field: FieldModel, kind: IndexKind | 'none', fn: string, estimates: Estimates, total: number, divisor?: number, values = 1): FilterPlan {
  const size = kind === 'none' ? undefined : estimates.indexSize(field.predicate, kind);
  let estimate = total;
  if (size !== undefined) estimate = divisor !== undefined ? Math.ceil(size.entries / divisor) : Math.ceil((size.entries / Math.max(1, size.keys)) * values);
  return { op: 'index', field: field.name, index: kind, fn, estimate: Math.min(estimate, total) };
}

/** The index a filter function is answered by (same choice as exec/filter-eval). */
function indexFor(field: FieldModel, fn: string): IndexKind | 'none' {
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
  return field.isXid ? xidKind(field) : 'none';
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}
