// A filter plan compiled, with one request's values, into a per-candidate test: what an ordered walk
// checks each node it visits against, and what an intersection checks its small side against instead
// of materialising a large child (a range over half the type, a negation). Term functions test the
// query tokens' postings (a binary search each, no list merged or copied, no stored string
// re-tokenised); Int/Float ranges read the typed column; anything else is materialised once (so
// errors surface exactly as when run) and tested by binary search. Answers equal the run's exactly.

import type { FilterPlan } from '../plan/filter-plan.js';
import { valueAt, withinUniverse } from '../plan/filter-plan.js';
import type { FieldModel } from '../schema/model.js';
import type { TokenIndex } from '../indexes/token-index.js';
import type { TrigramIndex } from '../indexes/trigram-index.js';
import { regexpParts, withRegexpErrors } from './regexp-literal.js';
import type { Membership } from '../indexes/postings/membership.js';
import { membershipOf } from '../indexes/postings/membership.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';
import { toStoredValue } from './stored-values.js';

export interface IdCheck {
  /** An upper bound of the universe's ids that pass (exact for postings and materialised nodes). */
  readonly bound: number;
  /** The estimated share of the universe that passes (lists taken as independent). */
  readonly share: number;
  /** Whether a node of the universe passes. */
  readonly test: (id: number) => boolean;
  /** The node's ids, when it had to be materialised to be checked. */
  readonly ids?: SortedIds;
  /** Ascending ids holding every node that passes (e.g. an `allofterms`' smallest list), for an unordered page to scan. */
  readonly driver?: Driver;
}

export interface Driver {
  readonly ids: SortedIds;
  /** When the driver's ids are exactly the node's matches (one list): them as a snapshot, to be collected as they are. */
  readonly exact?: () => SortedIds;
  /** The test of an id drawn from `ids` (the driver's own list need not be tested again). */
  readonly test: (id: number) => boolean;
  /** Every id of `ids` is in the universe (no type membership test needed). */
  readonly withinUniverse: boolean;
}

/** What compiling needs of the running filter: its values, universe size and the materialising run. */
export interface CheckSource {
  readonly ctx: ExecContext;
  readonly filter: unknown;
  readonly universeSize: number;
  /** Runs a node the usual way (ids of the universe and beyond, recorded for EXPLAIN). */
  materialise(node: FilterPlan): SortedIds;
}

const PASS = (): boolean => true;
const FAIL = (): boolean => false;

/** The per-candidate test of `node`; nodes without a direct test are materialised. */
export function compileCheck(source: CheckSource, node: FilterPlan): IdCheck {
  const direct = directCheck(source, node);
  if (direct === undefined) {
    const ids = source.materialise(node);
    return { bound: ids.length, share: ids.length / Math.max(1, source.universeSize), test: membershipOf(ids).has, ids, driver: { ids, test: PASS, withinUniverse: withinUniverse(node) } };
  }
  return direct;
}

function directCheck(source: CheckSource, node: FilterPlan): IdCheck | undefined {
  const n = Math.max(1, source.universeSize);
  switch (node.op) {
    case 'scan':
      return { bound: source.universeSize, share: 1, test: PASS };
    case 'not': {
      const child = compileCheck(source, node.child);
      const test = child.test;
      return { bound: source.universeSize, share: 1 - child.share, test: (id) => !test(id) };
    }
    case 'and': {
      // Most selective first: a failing node ends the test soonest.
      const parts = node.children.map((c) => compileCheck(source, c)).sort((a, b) => a.bound - b.bound);
      const bound = parts[0]?.bound ?? source.universeSize;
      const share = parts.reduce((s, p) => s * p.share, 1);
      const tests = parts.map((p) => p.test);
      const test = tests.length === 2 ? both(tests[0] as Tester, tests[1] as Tester) : (id: number) => tests.every((t) => t(id));
      // The smallest driver, its own test in place of its node's.
      const driven = parts.find((p) => p.driver !== undefined);
      if (driven?.driver === undefined) return { bound, share, test };
      const others = parts.filter((p) => p !== driven).map((p) => p.test);
      const own = driven.driver.test;
      const driverTest = others.length === 1 ? both(own, others[0] as Tester) : (id: number) => own(id) && others.every((t) => t(id));
      const { ids, withinUniverse: within } = driven.driver;
      return { bound, share, test, driver: { ids, test: driverTest, withinUniverse: within } };
    }
    case 'or': {
      const parts = node.children.map((c) => compileCheck(source, c)).sort((a, b) => b.bound - a.bound);
      const tests = parts.map((p) => p.test);
      const bound = Math.min(source.universeSize, parts.reduce((s, p) => s + p.bound, 0));
      return { bound, share: Math.min(1, parts.reduce((s, p) => s + p.share, 0)), test: (id) => tests.some((t) => t(id)) };
    }
    case 'index': {
      const check = indexCheck(source, node.model, node.fn, node.index, node.estimate, valueAt(source.filter, node.at));
      if (check === undefined) return undefined;
      const scaled = { ...check, share: Math.min(1, check.share / n) };
      return check.driver === undefined ? scaled : { ...scaled, driver: { ...check.driver, withinUniverse: withinUniverse(node) } };
    }
    default:
      return undefined;
  }
}

type Tester = (id: number) => boolean;

function both(a: Tester, b: Tester): Tester {
  return (id) => a(id) && b(id);
}

/** Term and fulltext functions from the tokens' postings; Int/Float ranges from the typed column. */
function indexCheck(source: CheckSource, field: FieldModel, fn: string, kind: string, estimate: number, arg: unknown): IdCheck | undefined {
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
      return fn.startsWith('all') ? allOf(index.members(String(arg)), source.universeSize) : anyOf(index.members(String(arg)));
    }
    case 'regexp': {
      // Trigram candidates (a superset, ascending) as the driver, each verified by the matcher.
      const index = column.index('trigram') as TrigramIndex | undefined;
      if (kind !== 'trigram' || index === undefined) return undefined;
      const { pattern, flags } = regexpParts(String(arg));
      const check = withRegexpErrors(() => index.regexpCheck(pattern, flags));
      if (check === undefined) return undefined;
      const { candidates, test } = check;
      return { bound: candidates.length, share: candidates.length, test, driver: { ids: candidates, test, withinUniverse: false } };
    }
    case 'le':
    case 'lt':
    case 'ge':
    case 'gt':
    case 'between': {
      if ((kind !== 'int' && kind !== 'float') || field.isList || (field.typeName !== 'Int' && field.typeName !== 'Float')) return undefined;
      const view = column.numbers();
      if (view === undefined) return undefined;
      const { present, nums } = view;
      const inRange = rangeTest(field, fn, arg);
      return { bound: estimate, share: estimate, test: (id) => present[id] === 1 && inRange(nums[id] as number) };
    }
    default:
      return undefined;
  }
}

/** Every token's list holds the node; a query without tokens matches nothing (as TokenIndex.allOf). `share` is a count here (lists independent). */
function allOf(lists: readonly Membership[], universe: number): IdCheck {
  if (lists.length === 0) return { bound: 0, share: 0, test: FAIL, driver: { ids: [], test: FAIL, withinUniverse: true } };
  const sorted = [...lists].sort((a, b) => a.size - b.size);
  const smallest = sorted[0] as Membership;
  const bound = smallest.size;
  if (bound === 0) return { bound, share: 0, test: FAIL, driver: { ids: [], test: FAIL, withinUniverse: true } };
  const rest = sorted.slice(1).map((m) => m.has);
  const others: Tester = rest.length === 0 ? PASS : rest.length === 1 ? (rest[0] as Tester) : (id) => rest.every((t) => t(id));
  const share = sorted.slice(1).reduce((s, m) => s * Math.min(1, m.size / Math.max(1, universe)), bound);
  if (rest.length === 0) return { bound, share, test: smallest.has, driver: { ids: smallest.ids, test: PASS, withinUniverse: false, exact: smallest.snapshot } };
  return { bound, share, test: both(smallest.has, others), driver: { ids: smallest.ids, test: others, withinUniverse: false } };
}

function anyOf(lists: readonly Membership[]): IdCheck {
  const sorted = lists.filter((m) => m.size > 0).sort((a, b) => b.size - a.size);
  const bound = sorted.reduce((s, m) => s + m.size, 0);
  if (sorted.length === 0) return { bound: 0, share: 0, test: FAIL };
  if (sorted.length === 1) return { bound, share: bound, test: (sorted[0] as Membership).has };
  return { bound, share: bound, test: (id) => sorted.some((m) => m.has(id)) };
}

/** The comparison the int/float index answers, over a stored number (NaN bounds match nothing, as there). */
function rangeTest(field: FieldModel, fn: string, arg: unknown): (value: number) => boolean {
  const num = (v: unknown): number => toStoredValue(field, v) as number;
  switch (fn) {
    case 'le': {
      const b = num(arg);
      return (v) => v <= b;
    }
    case 'lt': {
      const b = num(arg);
      return (v) => v < b;
    }
    case 'ge': {
      const b = num(arg);
      return (v) => v >= b;
    }
    case 'gt': {
      const b = num(arg);
      return (v) => v > b;
    }
    default: {
      const { min, max } = arg as { min: unknown; max: unknown };
      const lo = num(min);
      const hi = num(max);
      return (v) => v >= lo && v <= hi;
    }
  }
}
