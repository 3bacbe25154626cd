// The `check` filter step (plan/filter-plan.ts chooseFilterStep): a filter plan run as a test of
// each candidate instead of index lookups over the whole type, for short candidate lists (an edge's
// targets). Value-tested conditions (eq/in/ranges on hash, exact and ordered indexes, `has`) read the
// candidate's stored value with the comparison its index uses, so the answer is the lookup's; other
// conditions (terms, text, regexp, geo, ids) are looked up once and probed per candidate.

import { isEdgeField, type TypeModel } from '../schema/model.js';
import { isValueTested, valueAt, type FilterPlan } from '../plan/filter-plan.js';
import type { GraphStore } from '../store/graph-store.js';
import type { ScalarColumn, StoredValue } from '../store/scalar-column.js';
import type { OrderedIndex } from '../indexes/ordered-index.js';
import { hashKey, type HashKey } from '../indexes/hash-index.js';
import type { ScalarValue } from '../indexes/value-index.js';
import { contains, type SortedIds } from '../util/sorted-ids.js';
import { toStoredValue } from './stored-values.js';

export type Check = (id: number) => boolean;

/** Ids a node selects when it has no value test (run as in the `index` step: errors included). */
export type LeafIds = (node: FilterPlan) => SortedIds;

/** The candidates of `universe` passing `plan`; `produced` (EXPLAIN) gets each node's passing count. */
export function checkFilter(
  store: GraphStore,
  type: TypeModel,
  plan: FilterPlan,
  filter: unknown,
  universe: SortedIds,
  leafIds: LeafIds,
  produced?: Map<FilterPlan, number>,
): SortedIds {
  const check = new CheckCompiler(store, type, filter, leafIds, produced).compile(plan);
  const out: number[] = [];
  for (let i = 0; i < universe.length; i++) {
    const id = universe[i] as number;
    if (check(id)) out.push(id);
  }
  return out;
}

const never: Check = () => false;
const always: Check = () => true;

class CheckCompiler {
  constructor(
    private readonly store: GraphStore,
    private readonly type: TypeModel,
    private readonly filter: unknown,
    private readonly leafIds: LeafIds,
    private readonly produced: Map<FilterPlan, number> | undefined,
  ) {}

  /** Every node is compiled (lookups run, so their errors show whatever the candidates are). */
  compile(node: FilterPlan): Check {
    const check = this.node(node);
    const produced = this.produced;
    if (produced === undefined) return check;
    produced.set(node, 0);
    return (id) => {
      const pass = check(id);
      if (pass) produced.set(node, (produced.get(node) ?? 0) + 1);
      return pass;
    };
  }

  private node(node: FilterPlan): Check {
    switch (node.op) {
      case 'scan':
        return always;
      case 'not': {
        const child = this.compile(node.child);
        return (id) => !child(id);
      }
      case 'and':
      case 'or':
        return this.junction(node.op, node.children.map((c) => this.compile(c)));
      default:
        return (isValueTested(node) ? this.valueTest(node) : undefined) ?? this.probe(this.leafIds(node));
    }
  }

  /** With EXPLAIN every child is evaluated (each node's count is exact); otherwise the first decisive one ends. */
  private junction(op: 'and' | 'or', checks: readonly Check[]): Check {
    const all = this.produced !== undefined;
    if (op === 'and') {
      return (id) => {
        let pass = true;
        for (let i = 0; i < checks.length && (pass || all); i++) pass = (checks[i] as Check)(id) && pass;
        return pass;
      };
    }
    return (id) => {
      let pass = false;
      for (let i = 0; i < checks.length && (!pass || all); i++) pass = (checks[i] as Check)(id) || pass;
      return pass;
    };
  }

  private probe(ids: SortedIds): Check {
    return (id) => contains(ids, id);
  }

  /** The value test of a node, or undefined when the store lacks what it reads (then it is looked up, as before). */
  private valueTest(node: FilterPlan): Check | undefined {
    if (node.op === 'has') return this.hasTest(node.field ?? String(valueAt(this.filter, node.at)));
    if (node.op !== 'index' || node.index === 'none') return undefined;
    const column = this.store.scalar(node.model.predicate);
    const arg = valueAt(this.filter, node.at);
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

  /** `has`: the node holds a value (a list: at least one element) or an edge; any-language fields are looked up. */
  private hasTest(name: string): Check | undefined {
    const field = this.type.fields.get(name);
    if (field === undefined) return never;
    if (field.reverseOf !== undefined) {
      const edges = this.store.edges(field.reverseOf);
      return (id) => edges.inCount(id) > 0;
    }
    if (isEdgeField(field)) {
      const edges = this.store.edges(field.predicate);
      return (id) => edges.outCount(id) > 0;
    }
    if (field.languages !== undefined) return undefined;
    const column = this.store.scalar(field.predicate);
    return (id) => column.has(id);
  }
}

/** A hash lookup's ids are the nodes whose value holds the key (the index's own matcher). */
function holdsAny(column: ScalarColumn, keys: readonly (HashKey | undefined)[]): Check {
  const present = keys.filter((k): k is HashKey => k !== undefined);
  if (present.length === 0) return never;
  if (present.length === 1) {
    const key = present[0] as HashKey;
    return (id) => column.holds(id, key);
  }
  return (id) => present.some((k) => column.holds(id, k));
}

/** Candidates whose value (or any element of a list) passes one of the tests; numbers read from the typed column. */
function valueMatches(column: ScalarColumn, tests: readonly (((value: ScalarValue) => boolean) | null)[]): Check {
  const live = tests.filter((t): t is (value: ScalarValue) => boolean => t !== null);
  if (live.length === 0) return never;
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
