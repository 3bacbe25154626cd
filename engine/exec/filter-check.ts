// A filter plan compiled, with one request's values, into a per-candidate test: what an ordered walk
// checks each node it visits against, what an intersection checks its small side against instead of
// materialising a large child (a range over half the type, a negation), and the `check` step of a
// filter over a short candidate list (an edge's targets, plan/filter-plan.ts chooseFilterStep).
// Term functions test the query tokens' postings (a binary search each, no list merged or copied, no
// stored string re-tokenised); Int/Float ranges read the typed column; other comparisons on hash,
// exact and ordered indexes (DateTime included) and `has` read the candidate's stored value with the
// comparison its index uses; a regexp verifies its trigram candidates; `near` tests each node's point
// (indexes/geo-index.ts nearCheck); `ngram` probes its grams' postings as anyofterms does; anything
// else (other geo functions, ids) is materialised once (so errors surface exactly as when run) and tested by binary search.
// Answers equal the run's exactly.

import { isEdgeField, type TypeModel } from '../schema/model.js';
import { isValueTested, valueAt, withinUniverse, type FilterPlan } from '../plan/filter-plan.js';
import type { ScalarColumn, StoredValue } from '../store/scalar-column.js';
import type { OrderedIndex } from '../indexes/ordered-index.js';
import { hashKey, type HashKey } from '../indexes/hash-index.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { Bound } from '../indexes/postings/sorted-chunk-map.js';
import type { TokenIndex } from '../indexes/token-index.js';
import type { TrigramIndex } from '../indexes/trigram-index.js';
import { regexpParts, withRegexpErrors } from './regexp-literal.js';
import { inBitsets, membershipOf, type Membership } from '../indexes/postings/membership.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';
import { geoPoint, rangeBounds, toStoredValue, type PointInput } from './stored-values.js';
import type { GeoIndex, NearCheck } from '../indexes/geo-index.js';

export interface IdCheck {
  /** An upper bound of the universe's ids that pass (exact for postings and materialised nodes). */
  readonly bound: number;
  /** The estimated share of the universe that passes (lists taken as independent); for a walk (compileCheck's `walk`), a range holding the walk's start counts 1 (rangeEstimate). */
  readonly share: number;
  /** Whether a node of the universe passes. */
  readonly test: (id: number) => boolean;
  /** The node's ids, when it had to be materialised to be checked. */
  readonly ids?: SortedIds;
  /** Ascending ids holding every node that passes (e.g. an `allofterms`' smallest list), for an unordered page to scan. */
  readonly driver?: Driver;
  /** A node passes exactly when it is in one of these (postings' cached bitsets): an `or` of such nodes is one `inBitsets` test. */
  readonly inAny?: readonly Uint32Array[];
  /** A node passes exactly when it is in one of these lists (snapshots, taken when called): an ordered page needs only each list's first k. */
  readonly union?: () => readonly SortedIds[];
  /** The node is a `near` over points: its cells can give an ordered page (exec/near-page.ts). */
  readonly near?: NearCheck;
  /** A range node's size with this request's bounds (rangeEstimate), made once: a `not` above it reads it. */
  readonly range?: RangeEstimate;
  /** The node is a range on typed values (keyedTest): what `test` reads, so a walk can test it inline. */
  readonly keyed?: KeyedRange;
}

export interface Driver {
  readonly ids: SortedIds;
  /** When the driver's ids are exactly the node's matches (one list): them as a snapshot, to be collected as they are. */
  readonly exact?: () => SortedIds;
  /** The driver's ids as a snapshot later writes do not change (an index list): its order can be cached (an ordered page walks it). */
  readonly snapshot?: () => SortedIds;
  /** The test of an id drawn from `ids` (the driver's own list need not be tested again). */
  readonly test: (id: number) => boolean;
  /** Every id of `ids` is in the universe (no type membership test needed). */
  readonly withinUniverse: boolean;
}

/** What compiling needs of the running filter: its values, type, universe size and the materialising run. */
export interface CheckSource {
  readonly ctx: ExecContext;
  readonly type: TypeModel;
  readonly filter: unknown;
  readonly universeSize: number;
  /** Runs a node the usual way (ids of the universe and beyond, recorded for EXPLAIN). */
  materialise(node: FilterPlan): SortedIds;
}

/** A per-candidate test. */
export type Tester = (id: number) => boolean;

const PASS: Tester = () => true;
const FAIL: Tester = () => false;

/** The order a checked walk visits nodes in: the walked predicate and its direction. */
export interface WalkedOrder {
  readonly predicate: string;
  readonly desc: boolean;
}

/** The per-candidate test of `node`; nodes without a direct test are materialised. `walk`: the order a walk would test in (shares of ranges on its key). */
export function compileCheck(source: CheckSource, node: FilterPlan, walk?: WalkedOrder): IdCheck {
  const direct = directCheck(source, node, walk);
  if (direct !== undefined) return direct;
  const ids = source.materialise(node);
  return { bound: ids.length, share: ids.length / Math.max(1, source.universeSize), test: membershipOf(ids).has, ids, driver: { ids, test: PASS, withinUniverse: withinUniverse(node) } };
}

/**
 * The `check` step: the candidates of `universe` passing `plan`. With `produced` (EXPLAIN) every node's
 * passing count is recorded, so every child of a junction is evaluated; otherwise the first decisive one ends.
 */
export function checkFilter(source: CheckSource, plan: FilterPlan, universe: SortedIds, produced?: Map<FilterPlan, number>): SortedIds {
  const test = produced === undefined ? compileCheck(source, plan).test : countedCheck(source, plan, produced);
  const out: number[] = [];
  for (let i = 0; i < universe.length; i++) {
    const id = universe[i] as number;
    if (test(id)) out.push(id);
  }
  return out;
}

function countedCheck(source: CheckSource, node: FilterPlan, produced: Map<FilterPlan, number>): Tester {
  let test: Tester;
  if (node.op === 'not') {
    const child = countedCheck(source, node.child, produced);
    test = (id) => !child(id);
  } else if (node.op === 'and' || node.op === 'or') {
    const tests = node.children.map((c) => countedCheck(source, c, produced));
    test =
      node.op === 'and'
        ? (id) => tests.reduce((pass, t) => t(id) && pass, true)
        : (id) => tests.reduce((pass, t) => t(id) || pass, false);
  } else test = compileCheck(source, node).test;
  produced.set(node, 0);
  return (id) => {
    const pass = test(id);
    if (pass) produced.set(node, (produced.get(node) ?? 0) + 1);
    return pass;
  };
}

function directCheck(source: CheckSource, node: FilterPlan, walk: WalkedOrder | undefined): IdCheck | undefined {
  const n = Math.max(1, source.universeSize);
  switch (node.op) {
    case 'scan':
      return { bound: source.universeSize, share: 1, test: PASS };
    case 'not': {
      const child = compileCheck(source, node.child, walk);
      const test = child.test;
      // Not a range holding the walk's end: the rest of the walk comes first (as a range holding its
      // start); not one holding the start: the plain share (the child's counts 1 for the walk).
      // A checked child made its estimate already; a materialised one did not.
      const range = node.child.op !== 'index' ? undefined : child.ids === undefined ? child.range : rangeEstimate(source, node.child, walk);
      const share = range?.walked === 'end' ? 1 : range?.walked === 'start' ? 1 - Math.min(1, range.size / n) : 1 - child.share;
      return { bound: source.universeSize, share, test: (id) => !test(id) };
    }
    case 'and': {
      // Most selective first: a failing node ends the test soonest.
      const parts = byBound(node.children.map((c) => compileCheck(source, c, walk)), 1);
      const bound = parts[0]?.bound ?? source.universeSize;
      let share = 1;
      for (const part of parts) share *= part.share;
      const test = parts.length === 2 ? both((parts[0] as IdCheck).test, (parts[1] as IdCheck).test) : all(parts.map((p) => p.test));
      // The smallest driver, its own test in place of its node's.
      const driven = parts.find((p) => p.driver !== undefined);
      if (driven?.driver === undefined) return { bound, share, test };
      const others: Tester[] = [];
      for (const part of parts) if (part !== driven) others.push(part.test);
      const own = driven.driver.test;
      const driverTest = others.length === 1 ? both(own, others[0] as Tester) : both(own, all(others));
      const { ids, withinUniverse: within, snapshot } = driven.driver;
      return { bound, share, test, driver: snapshot === undefined ? { ids, test: driverTest, withinUniverse: within } : { ids, test: driverTest, withinUniverse: within, snapshot } };
    }
    case 'or': {
      const parts = byBound(node.children.map((c) => compileCheck(source, c, walk)), -1);
      return orOf(parts, source.universeSize);
    }
    case 'has': {
      const test = hasTest(source, node.field ?? String(valueAt(source.filter, node.at)));
      return test === undefined ? undefined : { bound: Math.min(node.estimate, source.universeSize), share: Math.min(1, node.estimate / n), test };
    }
    case 'index': {
      const check = indexCheck(source, node, n);
      if (check !== undefined) return check;
      if (!isValueTested(node)) return undefined;
      const keyed = keyedTest(source, node);
      const test = keyed === undefined ? valueTest(source, node) : keyed.test;
      if (test === undefined) return undefined;
      const range = rangeEstimate(source, node, walk);
      if (range === undefined) return { bound: Math.min(node.estimate, source.universeSize), share: Math.min(1, node.estimate / n), test };
      const bound = Math.min(range.size, source.universeSize);
      const share = range.walked === 'start' ? 1 : Math.min(1, range.size / n);
      return keyed?.range === undefined ? { bound, share, test, range } : { bound, share, test, range, keyed: keyed.range };
    }
    default:
      return undefined;
  }
}

/**
 * The parts of a junction by bound (1: ascending, -1: descending), in place, equal bounds kept in
 * their order: an insertion sort, as junctions have two or three children and Array.prototype.sort's
 * set-up cost more than the rest of compiling a small junction.
 */
function byBound(parts: IdCheck[], direction: 1 | -1): IdCheck[] {
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i] as IdCheck;
    let j = i - 1;
    for (; j >= 0 && direction * ((parts[j] as IdCheck).bound - part.bound) > 0; j--) parts[j + 1] = parts[j] as IdCheck;
    parts[j + 1] = part;
  }
  return parts;
}

/** An `or` of checked parts (largest bound first): one bitset test when every part is bitsets, a union of lists when every part is one. */
function orOf(parts: readonly IdCheck[], universeSize: number): IdCheck {
  let bound = 0;
  let share = 0;
  let sets: Uint32Array[] | undefined = [];
  let unions: (() => readonly SortedIds[])[] | undefined = [];
  for (const part of parts) {
    bound += part.bound;
    share += part.share;
    if (sets !== undefined) {
      if (part.inAny === undefined) sets = undefined;
      else for (const set of part.inAny) sets.push(set);
    }
    if (unions !== undefined) {
      if (part.union === undefined) unions = undefined;
      else unions.push(part.union);
    }
  }
  bound = Math.min(universeSize, bound);
  share = Math.min(1, share);
  const lists = unions;
  const union =
    lists === undefined
      ? undefined
      : (): readonly SortedIds[] => {
          const all: SortedIds[] = [];
          for (const list of lists) for (const ids of list()) all.push(ids);
          return all;
        };
  if (sets !== undefined && parts.length > 0) return union === undefined ? { bound, share, test: inBitsets(sets), inAny: sets } : { bound, share, test: inBitsets(sets), inAny: sets, union };
  const test = parts.length === 2 ? either((parts[0] as IdCheck).test, (parts[1] as IdCheck).test) : any(parts.map((p) => p.test));
  return union === undefined ? { bound, share, test } : { bound, share, test, union };
}

function both(a: Tester, b: Tester): Tester {
  return (id) => a(id) && b(id);
}

// Loops rather than every/some with an arrow: a closure per tested node was a third of a walk's time in GC.
function all(tests: readonly Tester[]): Tester {
  return (id) => {
    for (let i = 0; i < tests.length; i++) if (!(tests[i] as Tester)(id)) return false;
    return true;
  };
}

function either(a: Tester, b: Tester): Tester {
  return (id) => a(id) || b(id);
}

function any(tests: readonly Tester[]): Tester {
  return (id) => {
    for (let i = 0; i < tests.length; i++) if ((tests[i] as Tester)(id)) return true;
    return false;
  };
}

/**
 * Term and fulltext functions from the tokens' postings; a regexp from its trigram candidates. Comparisons
 * are `valueTest`'s. `n`: the universe's size (at least 1), shares are of it; each object is built once
 * in its final shape (spreading one into another per request was a tenth of a small junction's compiling).
 */
function indexCheck(source: CheckSource, node: Extract<FilterPlan, { op: 'index' }>, n: number): IdCheck | undefined {
  const { model: field, fn, index: kind } = node;
  const arg = valueAt(source.filter, node.at);
  if (field.languages !== undefined || arg === null || arg === undefined) return undefined;
  const column = source.ctx.graph.store.scalar(field.predicate);
  switch (fn) {
    case 'allofterms':
    case 'anyofterms':
    case 'alloftext':
    case 'anyoftext': {
      if (kind !== (fn.endsWith('terms') ? 'term' : 'fulltext')) return undefined;
      const index = column.index(kind) as TokenIndex<unknown> | undefined;
      if (index === undefined) return undefined;
      return fn.startsWith('all') ? allOf(index.members(String(arg)), n, withinUniverse(node)) : anyOf(index.members(String(arg)), n, withinUniverse(node));
    }
    case 'ngram': {
      // A node holds ANY of the phrase's grams (indexes/ngram-index.ts): a union of lists, like anyofterms.
      const index = column.index('ngram') as TokenIndex<unknown> | undefined;
      return kind === 'ngram' && index !== undefined ? anyOf(index.members(String(arg)), n, withinUniverse(node)) : undefined;
    }
    case 'regexp': {
      // Trigram candidates (a superset, ascending: the query's smallest list) as the driver, each
      // tested against the rest of the trigram query, then verified by the matcher.
      const index = column.index('trigram') as TrigramIndex | undefined;
      if (kind !== 'trigram' || index === undefined) return undefined;
      const { pattern, flags } = regexpParts(String(arg));
      const check = withRegexpErrors(() => index.regexpCheck(pattern, flags));
      if (check === undefined) return undefined;
      const { candidates, candidateTest, test } = check;
      return { bound: candidates.length, share: Math.min(1, candidates.length / n), test, driver: { ids: candidates, test: candidateTest, withinUniverse: withinUniverse(node) } };
    }
    case 'near': {
      // Each node's point against the cap (the index's own test); bound: the points of the buckets `near` reads.
      const index = column.index('geo') as GeoIndex | undefined;
      const { coordinate, distance } = arg as { coordinate: PointInput; distance: number };
      const near = kind === 'geo' ? index?.nearCheck(geoPoint(coordinate), distance) : undefined;
      return near === undefined ? undefined : { bound: near.upper, share: Math.min(1, near.estimate / n), test: near.test, near };
    }
    default:
      return undefined;
  }
}

/** Every token's list holds the node; a query without tokens matches nothing (as TokenIndex.allOf). Lists taken as independent for `share`. */
function allOf(lists: readonly Membership[], n: number, within: boolean): IdCheck {
  if (lists.length === 0) return { bound: 0, share: 0, test: FAIL, driver: { ids: [], test: FAIL, withinUniverse: within } };
  // One token (the commonest query) needs no order.
  const sorted = lists.length === 1 ? lists : [...lists].sort((a, b) => a.size - b.size);
  const smallest = sorted[0] as Membership;
  const bound = smallest.size;
  if (bound === 0) return { bound, share: 0, test: FAIL, driver: { ids: [], test: FAIL, withinUniverse: within } };
  if (sorted.length === 1) {
    const driver = { ids: smallest.ids, test: PASS, withinUniverse: within, exact: smallest.snapshot, snapshot: smallest.snapshot };
    const share = Math.min(1, bound / n);
    return smallest.bits === undefined ? { bound, share, test: smallest.has, driver } : { bound, share, test: inBitsets([smallest.bits]), driver, inAny: [smallest.bits] };
  }
  const rest = sorted.slice(1).map((m) => m.has);
  const others: Tester = rest.length === 1 ? (rest[0] as Tester) : all(rest);
  const share = Math.min(1, sorted.slice(1).reduce((s, m) => s * Math.min(1, m.size / n), bound) / n);
  return { bound, share, test: both(smallest.has, others), driver: { ids: smallest.ids, test: others, withinUniverse: within, snapshot: smallest.snapshot } };
}

function anyOf(lists: readonly Membership[], n: number, within: boolean): IdCheck {
  const sorted = lists.filter((m) => m.size > 0).sort((a, b) => b.size - a.size);
  const bound = sorted.reduce((s, m) => s + m.size, 0);
  if (sorted.length === 0) return { bound: 0, share: 0, test: FAIL };
  const share = Math.min(1, bound / n);
  const union = (): SortedIds[] => sorted.map((m) => m.snapshot());
  const sets = sorted.every((m) => m.bits !== undefined) ? sorted.map((m) => m.bits as Uint32Array) : undefined;
  // One list is every match, as allOf's one token: collected as it is (not tokenised again to be materialised).
  const only = sorted.length === 1 ? (sorted[0] as Membership) : undefined;
  const driver = only === undefined ? undefined : { ids: only.ids, test: PASS, withinUniverse: within, exact: only.snapshot, snapshot: only.snapshot };
  if (sets !== undefined) return driver === undefined ? { bound, share, test: inBitsets(sets), inAny: sets, union } : { bound, share, test: inBitsets(sets), inAny: sets, union, driver };
  if (driver !== undefined) return { bound, share, test: (only as Membership).has, union, driver };
  return { bound, share, test: any(sorted.map((m) => m.has)), union };
}

/** `has`: the node holds a value (a list: at least one element) or an edge; any-language fields are materialised. */
function hasTest(source: CheckSource, name: string): Tester | undefined {
  const field = source.type.fields.get(name);
  if (field === undefined) return FAIL;
  const store = source.ctx.graph.store;
  if (field.reverseOf !== undefined) {
    const edges = store.edges(field.reverseOf);
    return (id) => edges.inCount(id) > 0;
  }
  if (isEdgeField(field)) {
    const edges = store.edges(field.predicate);
    return (id) => edges.outCount(id) > 0;
  }
  if (field.languages !== undefined) return undefined;
  const column = store.scalar(field.predicate);
  return (id) => column.has(id);
}

/** eq/in/ranges on hash, exact and ordered indexes not tested by keyedTest: the stored value with the comparison its index uses; undefined when the store lacks what it reads. */
function valueTest(source: CheckSource, node: Extract<FilterPlan, { op: 'index' }>): Tester | undefined {
  if (node.index === 'none') return undefined;
  const column = source.ctx.graph.store.scalar(node.model.predicate);
  const arg = valueAt(source.filter, node.at);
  const stored = (v: unknown): ScalarValue => toStoredValue(node.model, v);
  if (node.fn === 'eq' || node.fn === 'in') {
    const values = node.fn === 'eq' ? [arg] : (Array.isArray(arg) ? arg : [arg]).filter((v) => v !== null);
    if (node.index === 'hash') return holdsAny(column, values.map((v) => hashKey(stored(v))));
    const index = column.index(node.index) as OrderedIndex<never> | undefined;
    if (index === undefined) return undefined;
    const tests = values.map((v) => index.rangeTest({ lower: { value: stored(v), inclusive: true }, upper: { value: stored(v), inclusive: true } }));
    return valueMatches(column, tests);
  }
  const index = column.index(node.index) as OrderedIndex<never> | undefined;
  if (index === undefined) return undefined;
  if (node.fn === 'between') {
    const { min, max } = arg as { min: unknown; max: unknown };
    return valueMatches(column, [index.rangeTest({ lower: { value: stored(min), inclusive: true }, upper: { value: stored(max), inclusive: true } })]);
  }
  const bound = { value: stored(arg), inclusive: node.fn === 'le' || node.fn === 'ge' };
  return valueMatches(column, [index.rangeTest(node.fn === 'le' || node.fn === 'lt' ? { upper: bound } : { lower: bound })]);
}

/**
 * A range's size with this request's bounds (the ordered index's key positions, O(log n)), not the
 * plan's estimate for values it never saw: `score > x` passes nine in ten nodes or one in a hundred
 * depending on x, and the walk-or-collect rule weighs exactly that share. `walked`: the range is on
 * the walked key and holds the walk's start (`gt` walking down, `lt` walking up) or its end, so its
 * nodes come first (or last) rather than spread through the walk (a range holding the start, or the
 * negation of one holding the end, then does not thin the walk out). Undefined for other nodes.
 */
function rangeEstimate(source: CheckSource, node: Extract<FilterPlan, { op: 'index' }>, walk: WalkedOrder | undefined): RangeEstimate | undefined {
  if (node.index === 'hash' || node.index === 'none' || !rangeFns.has(node.fn)) return undefined;
  const index = source.ctx.graph.store.scalar(node.model.predicate).index(node.index) as OrderedIndex | undefined;
  if (index === undefined) return undefined;
  const bounds = rangeBounds(node.model, node.fn, valueAt(source.filter, node.at));
  const size = index.estimateRange(bounds);
  if (walk === undefined || walk.predicate !== node.model.predicate || (bounds.lower === undefined) === (bounds.upper === undefined)) return { size };
  const start = walk.desc ? bounds.upper === undefined : bounds.lower === undefined;
  return { size, walked: start ? 'start' : 'end' };
}

interface RangeEstimate {
  readonly size: number;
  readonly walked?: 'start' | 'end';
}

const rangeFns = new Set(['lt', 'le', 'gt', 'ge', 'between']);

/** A hash lookup's ids are the nodes whose value holds the key (the index's own matcher). */
function holdsAny(column: ScalarColumn, keys: readonly (HashKey | undefined)[]): Tester {
  const present = keys.filter((k): k is HashKey => k !== undefined);
  if (present.length === 0) return FAIL;
  if (present.length === 1) {
    const key = present[0] as HashKey;
    return (id) => column.holds(id, key);
  }
  return (id) => present.some((k) => column.holds(id, k));
}

/** Candidates whose value (or any element of a list) passes one of the tests; numbers read from the typed column. */
function valueMatches(column: ScalarColumn, tests: readonly (((value: ScalarValue) => boolean) | null)[]): Tester {
  const live = tests.filter((t): t is (value: ScalarValue) => boolean => t !== null);
  if (live.length === 0) return FAIL;
  const test = live.length === 1 ? (live[0] as (value: ScalarValue) => boolean) : (v: ScalarValue) => live.some((t) => t(v));
  const numbers = column.numbers();
  if (numbers !== undefined) {
    const { present, nums } = numbers;
    return (id) => present[id] === 1 && test(nums[id] as number);
  }
  return (id) => matchesStored(column.get(id), test);
}

function matchesStored(value: StoredValue | undefined, test: (value: ScalarValue) => boolean): boolean {
  if (value === undefined) return false;
  if (!Array.isArray(value)) return test(value as ScalarValue);
  for (const v of value as readonly ScalarValue[]) if (test(v)) return true;
  return false;
}

/**
 * A comparison of a node's number (the column's typed values) or DateTime key (its index's keys by id)
 * with the bounds as keys: no stored value read or parsed per candidate. Undefined when neither is
 * kept (a list predicate, Int64 keys) or the node is no range or `eq` on an ordered index.
 */
function keyedTest(source: CheckSource, node: Extract<FilterPlan, { op: 'index' }>): { readonly test: Tester; readonly range?: KeyedRange } | undefined {
  if (node.index === 'none' || node.fn === 'in' || node.index === 'hash' || node.index === 'exact') return undefined;
  const column = source.ctx.graph.store.scalar(node.model.predicate);
  const index = column.index(node.index) as OrderedIndex | undefined;
  if (index === undefined) return undefined;
  const keys = index.keyBounds(rangeBounds(node.model, node.fn, valueAt(source.filter, node.at)));
  if (keys === null) return { test: FAIL };
  const lower = numberBound(keys.lower);
  const upper = numberBound(keys.upper);
  if (lower === null || upper === null) return undefined;
  const lo = inclusiveLow(lower);
  const hi = inclusiveHigh(upper);
  if (!(lo <= hi)) return { test: FAIL };
  // One closure shape with the comparisons inline (no call to a bound-specific comparer per node:
  // that call site sees every range shape of the process and was not inlined).
  const byId = index.keysById();
  if (byId !== undefined) {
    const values = byId.keys;
    const test: Tester = (id) => {
      const v = values[id] as number; // NaN (no value) and undefined (past the end) compare false
      return v >= lo && v <= hi;
    };
    return { test, range: { values, present: undefined, lo, hi } };
  }
  const numbers = column.numbers();
  if (numbers === undefined) return undefined;
  const { present, nums } = numbers;
  // Absent slots hold 0 (scalar-column.ts): `present` is read only for a 0 in range.
  const test: Tester = (id) => {
    const v = nums[id] as number;
    return v >= lo && v <= hi && (v !== 0 || present[id] === 1);
  };
  return { test, range: { values: nums, present, lo, hi } };
}

/**
 * What a keyed range test reads: a node passes when `lo <= values[id] <= hi` (and, for a 0, `present[id]
 * === 1`). Walks test such a node inline (checked-walk.ts PageTaker.offerRun): no call per node, and the
 * loop's reads are independent, so a large heap's cache misses overlap.
 */
export interface KeyedRange {
  readonly values: Float64Array;
  readonly present: Uint8Array | undefined;
  readonly lo: number;
  readonly hi: number;
}

type NumberBound = { readonly value: number; readonly inclusive: boolean } | undefined;

/** A key bound as a number bound; null for bigint keys (Int64), which are not compared in place. */
function numberBound(bound: Bound<number | bigint | string> | undefined): NumberBound | null {
  if (bound === undefined) return undefined;
  return typeof bound.value === 'number' ? { value: bound.value, inclusive: bound.inclusive } : null;
}

const doubleBits = new Float64Array(1);
const doubleWords = new BigInt64Array(doubleBits.buffer);

/** The double next to `x` towards +Infinity (`up`) or -Infinity: `v > x` is `v >= next(x, up)` for every double v. */
export function adjacentDouble(x: number, up: boolean): number {
  if (Number.isNaN(x) || x === (up ? Infinity : -Infinity)) return NaN;
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  doubleBits[0] = x;
  // Away from zero is one more in the bit pattern's magnitude, towards zero one less.
  doubleWords[0] = (doubleWords[0] as bigint) + ((x > 0) === up ? 1n : -1n);
  return doubleBits[0] as number;
}

/** The least number a lower bound admits (NaN when none: `v >= NaN` never holds). */
function inclusiveLow(bound: NumberBound): number {
  if (bound === undefined) return -Infinity;
  return bound.inclusive ? bound.value : adjacentDouble(bound.value, true);
}

/** The greatest number an upper bound admits (NaN when none). */
function inclusiveHigh(bound: NumberBound): number {
  if (bound === undefined) return Infinity;
  return bound.inclusive ? bound.value : adjacentDouble(bound.value, false);
}
