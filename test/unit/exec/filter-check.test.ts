// The `check` filter step (exec/filter-check.ts) against the `index` step and a naive scan: random
// filters over random short candidate lists (as an edge's targets are) must select the same ids
// whichever step runs, over every value-tested kind (hash, exact, int, int64, float, DateTime,
// list values, `has` on scalars and on forward and reverse edges), with missing values, values
// rewritten after indexing and deleted nodes. And the rule picks the step by cost.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExecContext } from '../../../engine/exec/exec-context.js';
import { Graph } from '../../../engine/exec/graph.js';
import { runFilter, type FilterRecord } from '../../../engine/exec/filter-eval.js';
import { adjacentDouble } from '../../../engine/exec/filter-check.js';
import { chooseFilterStep, planFilter } from '../../../engine/plan/filter-plan.js';
import { noEstimates, storeEstimates, type Estimates } from '../../../engine/plan/estimates.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { TypeModel } from '../../../engine/schema/model.js';

const schema = `type Item {
  id: ID!
  name: String! @search(by: [hash, term])
  code: String @search(by: [exact])
  n: Int @search
  big: Int64 @search
  score: Float @search
  at: DateTime @search(by: [hour])
  tags: [String] @search(by: [hash])
  nums: [Int] @search
  owner: Owner
  likedBy: [Owner] @dgraph(pred: "~likes")
}
type Owner {
  id: ID!
  items: [Item] @hasInverse(field: owner)
  likes: [Item] @dgraph(pred: "likes")
}`;

const compiled = compileSchema(schema, {});
if (!compiled.ok) throw new Error('schema');
const model = compiled.compiled.model;
const item = model.types.get('Item') as TypeModel;

interface Row {
  id: number;
  name: string;
  code?: string;
  n?: number;
  big?: bigint;
  score?: number;
  at?: string;
  tags?: string[];
  nums?: number[];
  owner?: number;
  liked: boolean;
  deleted: boolean;
}

const words = ['red', 'green', 'blue', 'cat'];
const times = ['2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z', '2024-01-01T01:00:00Z', '2024-06-01T12:00:00Z'];
const rows: Row[] = [];
let ctx: ExecContext;
let live: number[] = [];

function pick<T>(i: number, values: readonly T[]): T {
  return values[i % values.length] as T;
}

beforeAll(() => {
  const graph = new Graph();
  graph.applySchema(model);
  const store = graph.store;
  const owners = [store.createNode(), store.createNode()];
  for (const o of owners) store.addType(o, 'Owner');
  for (let i = 0; i < 240; i++) {
    const id = store.createNode();
    store.addType(id, 'Item');
    const row: Row = { id, name: `${pick(i, words)} ${pick(i >> 2, words)}`, liked: i % 4 === 1, deleted: false };
    if (i % 5 !== 0) row.code = pick(i * 7, ['a', 'b', 'bb', 'c', 'é']);
    if (i % 6 !== 0) row.n = (i % 11) - 5;
    if (i % 7 !== 0) row.big = BigInt((i % 5) - 2) * 4_000_000_000n;
    if (i % 4 !== 0) row.score = pick(i, [-1.5, 0, 0.5, 2.25]);
    if (i % 3 !== 0) row.at = pick(i * 5, times);
    if (i % 2 === 0) row.tags = [pick(i, words), pick(i + 1, words)];
    if (i % 3 !== 1) row.nums = [(i % 7) - 3, i % 4];
    if (i % 8 !== 0) row.owner = pick(i, owners);
    rows.push(row);
    store.scalar('Item.name').set(id, row.name);
    // Rewritten after indexing: the index and the column must both hold the new value.
    if (row.n !== undefined) {
      store.scalar('Item.n').set(id, row.n + 100);
      store.scalar('Item.n').set(id, row.n);
    }
    if (row.code !== undefined) store.scalar('Item.code').set(id, row.code);
    if (row.big !== undefined) store.scalar('Item.big').set(id, row.big);
    if (row.score !== undefined) store.scalar('Item.score').set(id, row.score);
    if (row.at !== undefined) store.scalar('Item.at').set(id, row.at);
    if (row.tags !== undefined) store.scalar('Item.tags').set(id, row.tags);
    if (row.nums !== undefined) store.scalar('Item.nums').set(id, row.nums);
    if (row.owner !== undefined) store.edges('Item.owner').add(id, row.owner);
    if (row.liked) store.edges('likes').add(pick(i, owners), id);
  }
  for (const row of rows) {
    if (row.id % 17 !== 3) continue;
    store.deleteNode(row.id);
    row.deleted = true;
  }
  live = rows.filter((r) => !r.deleted).map((r) => r.id);
  ctx = new ExecContext(model, graph, {}, compiled.compiled.apiSchema);
});

type Leaf = { field: string; op: string; value: unknown };
type Filter = { leaf: Leaf } | { and: Filter[] } | { or: Filter[] } | { not: Filter } | { has: string };

const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({ field: fc.constant('n'), op: fc.constantFrom('eq', 'le', 'lt', 'ge', 'gt'), value: fc.integer({ min: -6, max: 6 }) }),
  fc.record({ field: fc.constant('n'), op: fc.constant('in'), value: fc.array(fc.integer({ min: -6, max: 6 }), { maxLength: 3 }) }),
  fc.record({ field: fc.constant('n'), op: fc.constant('between'), value: fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 })) }),
  fc.record({ field: fc.constant('big'), op: fc.constantFrom('eq', 'le', 'gt'), value: fc.integer({ min: -3, max: 3 }).map((x) => String(BigInt(x) * 4_000_000_000n)) }),
  fc.record({ field: fc.constant('score'), op: fc.constantFrom('eq', 'lt', 'ge'), value: fc.constantFrom(-1.5, 0, 0.5, 1, 2.25) }),
  fc.record({ field: fc.constant('code'), op: fc.constantFrom('eq', 'le', 'gt', 'lt', 'ge'), value: fc.constantFrom('a', 'b', 'ba', 'c', 'é', 'z') }),
  fc.record({ field: fc.constant('at'), op: fc.constantFrom('eq', 'le', 'gt'), value: fc.constantFrom(...times, '2024-01-01T00:30:00.000+00:00') }),
  fc.record({ field: fc.constant('name'), op: fc.constantFrom('eq', 'allofterms', 'anyofterms'), value: fc.constantFrom('red green', 'cat cat', 'blue', 'red') }),
  fc.record({ field: fc.constant('tags'), op: fc.constantFrom('eq', 'in'), value: fc.constantFrom('red', 'cat', ['blue', 'green'], 'x') }),
  fc.record({ field: fc.constant('nums'), op: fc.constantFrom('eq', 'gt', 'le'), value: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ field: fc.constant('n'), op: fc.constant('null'), value: fc.constant(null) }),
);

const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: leafArb }),
    fc.record({ and: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie('f') }),
    fc.record({ has: fc.constantFrom('n', 'code', 'tags', 'owner', 'likedBy') }),
  ),
})).f;

function toGraphql(f: Filter): Record<string, unknown> {
  if ('leaf' in f) {
    const { field, op, value } = f.leaf;
    if (op === 'null') return { [field]: { eq: null } };
    if (op === 'between') return { [field]: { between: { min: (value as number[])[0], max: (value as number[])[1] } } };
    if (op === 'in' && !Array.isArray(value)) return { [field]: { in: [value] } };
    if (op === 'eq' && Array.isArray(value)) return { [field]: { eq: value[0] } };
    return { [field]: { [op]: value } };
  }
  if ('and' in f) return { and: f.and.map(toGraphql) };
  if ('or' in f) return { or: f.or.map(toGraphql) };
  if ('not' in f) return { not: toGraphql(f.not) };
  return { has: [f.has] };
}

/** Every index is as large as the type: looking up always costs more than checking a short list. */
const costlyLookups: Estimates = { typeCount: () => 1_000_000, indexSize: () => ({ entries: 1_000_000, keys: 1 }) };

function sortedSubset(seed: number, size: number): number[] {
  const out = live.filter((_, i) => (i * 7919 + seed * 104729) % live.length < size);
  return out;
}

describe('check step vs index step', () => {
  it('select the same candidates for random filters and candidate lists', () => {
    let checked = 0;
    fc.assert(
      fc.property(filterArb, fc.nat(1000), fc.integer({ min: 0, max: 24 }), (f, seed, size) => {
        const filter = toGraphql(f);
        const universe = sortedSubset(seed, size);
        const record: FilterRecord = { produced: new Map(), filterStep: 'index' };
        const byCheck = runFilter(ctx, item, planFilter(item, filter, costlyLookups, 1_000_000, false), filter, universe, record);
        const byIndex = runFilter(ctx, item, planFilter(item, filter, noEstimates, 0, false), filter, universe);
        if (record.filterStep === 'check') checked++;
        expect([...byCheck]).toEqual([...byIndex]);
      }),
      { numRuns: 600, seed: 7 },
    );
    expect(checked).toBeGreaterThan(400);
  });

  it('answers each value-tested kind as its index does (fixed cases)', () => {
    const all = live;
    const cases: Record<string, unknown>[] = [
      { code: { gt: 'b' } },
      { code: { le: 'é' } },
      { at: { le: '2024-01-01T00:30:00Z' } },
      { at: { eq: '2024-01-01T00:30:00.000+00:00' } },
      { big: { gt: '0' } },
      { tags: { in: ['red', 'blue'] } },
      { nums: { gt: 2 } },
      { n: { between: { min: 3, max: -3 } } },
      { not: { has: ['owner'] } },
      { has: ['likedBy'] },
      { name: { eq: 'red red' } },
      // Exclusive bounds on stored values (compared as the adjacent double, inclusive).
      { score: { gt: 0.5 } },
      { score: { lt: 0 } },
      { score: { gt: -1.5 } },
      { score: { gt: 0 } },
      { score: { le: -0 } },
      { score: { lt: 2.25 } },
      { at: { gt: '2024-01-01T00:30:00Z' } },
      { at: { lt: '2024-01-01T01:00:00Z' } },
      { n: { lt: -5 } },
      { n: { gt: 4 } },
    ];
    for (const filter of cases) {
      const record: FilterRecord = { produced: new Map(), filterStep: 'index' };
      const byCheck = runFilter(ctx, item, planFilter(item, filter, costlyLookups, 1_000_000, false), filter, all.slice(0, 20), record);
      const byIndex = runFilter(ctx, item, planFilter(item, filter, noEstimates, 0, false), filter, all.slice(0, 20));
      expect(record.filterStep, JSON.stringify(filter)).toBe('check');
      expect([...byCheck], JSON.stringify(filter)).toEqual([...byIndex]);
    }
  });
});

describe('adjacentDouble (exclusive range bounds made inclusive)', () => {
  it('is the next double up or down, through zero and to the infinities', () => {
    expect(adjacentDouble(1, true)).toBe(1 + Number.EPSILON);
    expect(adjacentDouble(1, false)).toBe(1 - Number.EPSILON / 2);
    expect(adjacentDouble(-1, true)).toBe(-1 + Number.EPSILON / 2);
    expect(adjacentDouble(0, true)).toBe(Number.MIN_VALUE);
    expect(adjacentDouble(-0, false)).toBe(-Number.MIN_VALUE);
    expect(Object.is(adjacentDouble(-Number.MIN_VALUE, true), -0)).toBe(true);
    expect(adjacentDouble(Number.MIN_VALUE, false)).toBe(0);
    expect(adjacentDouble(-Infinity, true)).toBe(-Number.MAX_VALUE);
    expect(adjacentDouble(Infinity, false)).toBe(Number.MAX_VALUE);
    expect(adjacentDouble(Number.MAX_VALUE, true)).toBe(Infinity);
    expect(adjacentDouble(Infinity, true)).toBeNaN();
    expect(adjacentDouble(-Infinity, false)).toBeNaN();
    const x = 1_700_000_000_123;
    expect(adjacentDouble(x, true) > x && adjacentDouble(x, false) < x).toBe(true);
  });
});

describe('chooseFilterStep', () => {
  it('checks a short list and looks up over the whole type', () => {
    const filter = { n: { gt: 0 } };
    const plan = planFilter(item, filter, storeEstimates(ctx.graph.store), ctx.graph.store.countOfType('Item'), false);
    // n > 0 selects about a third of the items: checking 10 candidates is cheaper than reading them.
    expect(chooseFilterStep(plan, 10)).toBe('check');
    expect(chooseFilterStep(plan, live.length)).toBe('index');
  });

  it('looks up a selective condition even for a short list, and never checks a filter without per-candidate tests', () => {
    const selective = planFilter(item, { name: { eq: 'red blue' } }, storeEstimates(ctx.graph.store), live.length, false);
    expect(chooseFilterStep(selective, 10)).toBe('index');
    const ids = planFilter(item, { id: ['0x1', '0x2'] }, costlyLookups, 1_000_000, false);
    expect(chooseFilterStep(ids, 1)).toBe('index');
  });

  it('checks term functions over a short list (probed in the terms’ postings, no intersection of whole postings)', () => {
    const terms = planFilter(item, { name: { allofterms: 'red green' } }, costlyLookups, 1_000_000, false);
    expect(chooseFilterStep(terms, 10)).toBe('check');
    const any = planFilter(item, { and: [{ name: { anyofterms: 'red cat' } }, { n: { gt: 0 } }] }, costlyLookups, 1_000_000, false);
    expect(chooseFilterStep(any, 10)).toBe('check');
    expect(chooseFilterStep(terms, 1_000_000)).toBe('index');
  });
});
