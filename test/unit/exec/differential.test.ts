// Differential tests: random data, filters, orders and pages through the engine (indexes, planner,
// ordered-index walk, top-k) must equal a naive full scan over the same rows.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

const schema = `type Item {
  id: ID!
  name: String! @search(by: [hash, term])
  code: String @search(by: [exact])
  n: Int @search
  big: Int64 @search
  score: Float @search
  flag: Boolean @search
}`;

interface Row {
  id: string;
  name: string;
  code: string | null;
  n: number | null;
  big: number | null;
  score: number | null;
  flag: boolean | null;
}

const words = ['red', 'green', 'blue', 'cat', 'dog'];
const rowArb = fc.record({
  name: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  code: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { nil: null }),
  n: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
  big: fc.option(fc.integer({ min: -3, max: 3 }).map((x) => x * 1_000_000_000), { nil: null }),
  score: fc.option(fc.constantFrom(-1.5, 0, 0.5, 2.25), { nil: null }),
  flag: fc.option(fc.boolean(), { nil: null }),
});

let engine: Engine;
let rows: Row[] = [];

async function gql(query: string, variables?: Record<string, unknown>): Promise<any> {
  const response = await engine.execute({ method: 'POST', query, variables, headers: {} });
  return JSON.parse(response.body);
}

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  const data = fc.sample(rowArb, { numRuns: 300, seed: 42 });
  const input = data.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));
  const added = await gql(`mutation ($input: [AddItemInput!]!) { addItem(input: $input) { item { id } } }`, { input });
  expect(added.errors).toBeUndefined();
  rows = data.map((r, i) => ({ ...r, id: added.data.addItem.item[i].id as string }));
});

type Leaf = { field: keyof Row; op: string; value: unknown };
type Filter = { leaf: Leaf } | { and: Filter[] } | { or: Filter[] } | { not: Filter } | { has: keyof Row };

const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({ field: fc.constant<keyof Row>('n'), op: fc.constantFrom('eq', 'le', 'lt', 'ge', 'gt'), value: fc.integer({ min: -6, max: 6 }) }),
  fc.record({ field: fc.constant<keyof Row>('n'), op: fc.constant('in'), value: fc.array(fc.integer({ min: -6, max: 6 }), { maxLength: 3 }) }),
  fc.record({ field: fc.constant<keyof Row>('n'), op: fc.constant('between'), value: fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 })) }),
  fc.record({ field: fc.constant<keyof Row>('big'), op: fc.constantFrom('eq', 'le', 'gt'), value: fc.integer({ min: -3, max: 3 }).map((x) => x * 1_000_000_000) }),
  fc.record({ field: fc.constant<keyof Row>('score'), op: fc.constantFrom('eq', 'lt', 'ge'), value: fc.constantFrom(-1.5, 0, 0.5, 1, 2.25) }),
  fc.record({ field: fc.constant<keyof Row>('code'), op: fc.constantFrom('eq', 'le', 'gt'), value: fc.constantFrom('a', 'b', 'c', 'cc', 'e') }),
  fc.record({ field: fc.constant<keyof Row>('name'), op: fc.constantFrom('allofterms', 'anyofterms'), value: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')) }),
  fc.record({ field: fc.constant<keyof Row>('flag'), op: fc.constant('bool'), value: fc.boolean() }),
  fc.record({ field: fc.constant<keyof Row>('n'), op: fc.constant('null'), value: fc.constant(null) }),
);

const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: leafArb }),
    fc.record({ and: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie('f') }),
    fc.record({ has: fc.constantFrom<keyof Row>('n', 'code', 'flag') }),
  ),
})).f;

function toGraphql(f: Filter): Record<string, unknown> {
  if ('leaf' in f) {
    const { field, op, value } = f.leaf;
    if (op === 'bool') return { [field]: value };
    if (op === 'null') return { [field]: { eq: null } };
    if (op === 'between') return { [field]: { between: { min: (value as number[])[0], max: (value as number[])[1] } } };
    return { [field]: { [op]: value } };
  }
  if ('and' in f) return { and: f.and.map(toGraphql) };
  if ('or' in f) return { or: f.or.map(toGraphql) };
  if ('not' in f) return { not: toGraphql(f.not) };
  return { has: [f.has] };
}

function matches(r: Row, f: Filter): boolean {
  if ('and' in f) return f.and.every((g) => matches(r, g));
  if ('or' in f) return f.or.some((g) => matches(r, g));
  if ('not' in f) return !matches(r, f.not);
  if ('has' in f) return r[f.has] !== null;
  const { field, op, value } = f.leaf;
  const v = r[field];
  if (op === 'null') return v === null;
  if (v === null) return false;
  const terms = (s: string) => s.split(' ');
  switch (op) {
    case 'bool':
    case 'eq':
      return v === value;
    case 'in':
      return (value as unknown[]).includes(v);
    case 'le':
      return (v as number) <= (value as number);
    case 'lt':
      return (v as number) < (value as number);
    case 'ge':
      return (v as number) >= (value as number);
    case 'gt':
      return (v as number) > (value as number);
    case 'between':
      return (v as number) >= (value as number[])[0]! && (v as number) <= (value as number[])[1]!;
    case 'allofterms':
      return terms(value as string).every((t) => terms(v as string).includes(t));
    case 'anyofterms':
      return terms(value as string).some((t) => terms(v as string).includes(t));
  }
  throw new Error(op);
}

const uidNum = (id: string) => Number.parseInt(id, 16);
type OrderKey = { field: 'n' | 'big' | 'score' | 'code' | 'name'; desc: boolean };
const orderArb = fc.array(fc.record({ field: fc.constantFrom<OrderKey['field']>('n', 'big', 'score', 'code', 'name'), desc: fc.boolean() }), { maxLength: 2 });

function naiveOrder(list: Row[], keys: OrderKey[]): Row[] {
  return [...list].sort((a, b) => {
    for (const k of keys) {
      const x = a[k.field];
      const y = b[k.field];
      if (x === y) continue;
      if (x === null) return 1; // missing values last in either direction
      if (y === null) return -1;
      const c = x < y ? -1 : 1;
      return k.desc ? -c : c;
    }
    return uidNum(a.id) - uidNum(b.id);
  });
}

function toOrder(keys: OrderKey[]): Record<string, unknown> | undefined {
  let order: Record<string, unknown> | undefined;
  for (const k of [...keys].reverse()) order = { [k.desc ? 'desc' : 'asc']: k.field, ...(order === undefined ? {} : { then: order }) };
  return order;
}

describe('engine answers equal a naive full scan', () => {
  it('random filters, orders and pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(filterArb, { nil: undefined }),
        orderArb,
        fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 320 }), { nil: undefined }),
        async (filter, keys, first, offset) => {
          const result = await gql(`query ($f: ItemFilter, $o: ItemOrder, $first: Int, $offset: Int) {
            queryItem(filter: $f, order: $o, first: $first, offset: $offset) { id } }`, {
            f: filter === undefined ? null : toGraphql(filter),
            o: toOrder(keys) ?? null,
            first: first ?? null,
            offset: offset ?? null,
          });
          expect(result.errors).toBeUndefined();
          const expected = naiveOrder(rows.filter((r) => filter === undefined || matches(r, filter)), keys);
          const start = offset ?? 0;
          const page = expected.slice(start, first === undefined ? undefined : start + first).map((r) => r.id);
          expect(result.data.queryItem.map((x: { id: string }) => x.id)).toEqual(page);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('ordered pages follow writes to the order field (cached top-k answers are invalidated)', async () => {
    const query = `query ($f: ItemFilter, $o: ItemOrder, $first: Int) { queryItem(filter: $f, order: $o, first: $first) { id } }`;
    const check = async (term: string, key: 'n' | 'score', desc: boolean, first: number): Promise<void> => {
      const keys = [{ field: key, desc }];
      // Asked twice: the second answer may come from the cache.
      for (let i = 0; i < 2; i++) {
        const result = await gql(query, { f: { name: { allofterms: term } }, o: toOrder(keys), first });
        expect(result.errors).toBeUndefined();
        const expected = naiveOrder(rows.filter((r) => r.name.split(' ').includes(term)), keys).slice(0, first).map((r) => r.id);
        expect(result.data.queryItem.map((x: { id: string }) => x.id)).toEqual(expected);
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...words),
        fc.constantFrom<'n' | 'score'>('n', 'score'),
        fc.boolean(),
        fc.integer({ min: 1, max: 12 }),
        fc.nat({ max: rows.length - 1 }),
        fc.integer({ min: -6, max: 6 }),
        async (term, key, desc, first, target, value) => {
          await check(term, key, desc, first);
          const row = rows[target] as Row;
          const set = key === 'n' ? { n: value } : { score: value / 2 };
          const updated = await gql(`mutation ($id: [ID!], $set: ItemPatch) { updateItem(input: { filter: { id: $id }, set: $set }) { numUids } }`, {
            id: [row.id],
            set,
          });
          expect(updated.errors).toBeUndefined();
          rows[target] = { ...row, ...set };
          await check(term, key, desc, first);
        },
      ),
      { numRuns: 150, seed: 11 },
    );
  });

  it('aggregates equal the naive ones', async () => {
    await fc.assert(
      fc.asyncProperty(filterArb, async (filter) => {
        const result = await gql(`query ($f: ItemFilter) { aggregateItem(filter: $f) { count nMin nMax nSum scoreMax } }`, { f: toGraphql(filter) });
        expect(result.errors).toBeUndefined();
        const hit = rows.filter((r) => matches(r, filter));
        const ns = hit.map((r) => r.n).filter((n): n is number => n !== null);
        const scores = hit.map((r) => r.score).filter((n): n is number => n !== null);
        expect(result.data.aggregateItem).toEqual({
          count: hit.length,
          nMin: ns.length === 0 ? null : Math.min(...ns),
          nMax: ns.length === 0 ? null : Math.max(...ns),
          nSum: ns.length === 0 ? null : ns.reduce((a, b) => a + b, 0),
          scoreMax: scores.length === 0 ? null : Math.max(...scores),
        });
      }),
      { numRuns: 150, seed: 11 },
    );
  });

  it('two operators in one filter object is an error and changes nothing', async () => {
    const result = await gql(`{ queryItem(filter: { n: { eq: 1, gt: 2 } }) { id } }`);
    expect(result.errors[0].message).toBe('IntFilter filter expects only one filter function, got: 2');
    expect(result.data).toBeUndefined();
  });
});
