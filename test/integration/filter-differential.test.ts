// Differential test over HTTP: random filter objects (field conditions, ids, `has`, and/or/not as lists
// or single objects, empty objects, any nesting) answered by the real server must equal a naive oracle
// written here from Dgraph's buildFilter (graphql/resolve/query_rewriter.go): an object's conditions,
// `has`, ids, `not` and `and` items are ANDed, and its `or` items are ORed with that conjunction.
// Checked at the root (query, aggregate), on a nested edge (the universe is the edge's targets), and by
// delete (what is left afterwards).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `
type Box { id: ID!  label: String! @id  items: [Item] @hasInverse(field: box) }
type Item {
  id: ID!
  name: String! @search(by: [hash, term])
  code: String @search(by: [exact])
  n: Int @search
  score: Float @search
  flag: Boolean @search
  box: Box
}
type Scrap {
  id: ID!
  n: Int @search
  code: String @search(by: [hash])
}`;

interface Row {
  id: string;
  name: string;
  code: string | null;
  n: number | null;
  score: number | null;
  flag: boolean | null;
  box: string;
}

const words = ['red', 'green', 'blue', 'cat'];
const boxes = ['b1', 'b2', 'b3'];
const rowArb = fc.record({
  name: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
  code: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: null }),
  n: fc.option(fc.integer({ min: -4, max: 4 }), { nil: null }),
  score: fc.option(fc.constantFrom(-1, 0, 0.5, 2), { nil: null }),
  flag: fc.option(fc.boolean(), { nil: null }),
  box: fc.constantFrom(...boxes),
});

type Leaf =
  | { readonly field: 'n'; readonly op: 'eq' | 'le' | 'lt' | 'ge' | 'gt'; readonly value: number }
  | { readonly field: 'n'; readonly op: 'in'; readonly value: readonly number[] }
  | { readonly field: 'n' | 'score'; readonly op: 'between'; readonly value: readonly [number, number] }
  | { readonly field: 'n' | 'code'; readonly op: 'null'; readonly value: null }
  | { readonly field: 'code'; readonly op: 'eq' | 'le' | 'gt'; readonly value: string }
  | { readonly field: 'name'; readonly op: 'allofterms' | 'anyofterms' | 'eq'; readonly value: string }
  | { readonly field: 'flag'; readonly op: 'bool'; readonly value: boolean };

type HasField = 'n' | 'code' | 'score' | 'flag';

/** One filter object; `list` says whether a one-item and/or/has is sent as a list or a single value. */
interface FilterObject {
  readonly leaves: readonly Leaf[];
  readonly ids?: readonly number[];
  readonly has?: { readonly items: readonly HasField[]; readonly list: boolean };
  readonly and?: { readonly items: readonly FilterObject[]; readonly list: boolean };
  readonly or?: { readonly items: readonly FilterObject[]; readonly list: boolean };
  readonly not?: FilterObject;
}

const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({ field: fc.constant('n' as const), op: fc.constantFrom('eq' as const, 'le' as const, 'lt' as const, 'ge' as const, 'gt' as const), value: fc.integer({ min: -5, max: 5 }) }),
  fc.record({ field: fc.constant('n' as const), op: fc.constant('in' as const), value: fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 3 }) }),
  fc.record({
    field: fc.constantFrom('n' as const, 'score' as const),
    op: fc.constant('between' as const),
    value: fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 })),
  }),
  fc.record({ field: fc.constantFrom('n' as const, 'code' as const), op: fc.constant('null' as const), value: fc.constant(null) }),
  fc.record({ field: fc.constant('code' as const), op: fc.constantFrom('eq' as const, 'le' as const, 'gt' as const), value: fc.constantFrom('a', 'b', 'bb', 'd') }),
  fc.record({ field: fc.constant('name' as const), op: fc.constantFrom('allofterms' as const, 'anyofterms' as const), value: fc.constantFrom('red', 'cat', 'red cat', 'blue green') }),
  fc.record({ field: fc.constant('name' as const), op: fc.constant('eq' as const), value: fc.constantFrom('red', 'cat blue', 'green') }),
  fc.record({ field: fc.constant('flag' as const), op: fc.constant('bool' as const), value: fc.boolean() }),
);

/** One leaf per field at most: a filter object has one key per field. */
const leavesArb = fc.uniqueArray(leafArb, { maxLength: 2, selector: (l) => l.field });
const listOf = <T,>(item: fc.Arbitrary<T>, maxLength: number) =>
  fc.record({ items: fc.array(item, { minLength: 0, maxLength }), list: fc.boolean() }).map((x) => ({ ...x, list: x.list || x.items.length !== 1 }));

function objectArb(depth: number): fc.Arbitrary<FilterObject> {
  const nested = depth === 0 ? fc.constant(undefined) : fc.option(listOf(objectArb(depth - 1), 3), { nil: undefined, freq: 2 });
  return fc
    .record({
      leaves: leavesArb,
      ids: fc.option(fc.array(fc.nat({ max: 400 }), { maxLength: 3 }), { nil: undefined, freq: 6 }),
      has: fc.option(listOf(fc.constantFrom<HasField>('n', 'code', 'score', 'flag'), 2), { nil: undefined, freq: 4 }),
      and: nested,
      or: nested,
      not: depth === 0 ? fc.constant(undefined) : fc.option(objectArb(depth - 1), { nil: undefined, freq: 3 }),
    })
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as unknown as FilterObject);
}

const filterArb = objectArb(3);

let server: ServerProcess;
let rows: Row[] = [];
/** Ids by the index the generator draws (some beyond the rows: unknown ids). */
let idPool: string[] = [];

interface Body {
  data?: Record<string, any> | null;
  errors?: unknown[];
}

async function ok(query: string, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const answer = await postGraphql(server.url, { query, variables });
  expect(answer.status).toBe(200);
  const body = answer.json() as Body;
  expect(body.errors).toBeUndefined();
  return body.data as Record<string, any>;
}

function toGraphql(f: FilterObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const leaf of f.leaves) {
    if (leaf.op === 'bool') out[leaf.field] = leaf.value;
    else if (leaf.op === 'null') out[leaf.field] = { eq: null };
    else if (leaf.op === 'between') out[leaf.field] = { between: { min: leaf.value[0], max: leaf.value[1] } };
    else out[leaf.field] = { [leaf.op]: leaf.value };
  }
  const listOrOne = <T,>(x: { items: readonly T[]; list: boolean }, map: (t: T) => unknown) => (x.list ? x.items.map(map) : map(x.items[0] as T));
  if (f.ids !== undefined) out['id'] = f.ids.map((i) => idPool[i % idPool.length]);
  if (f.has !== undefined) out['has'] = listOrOne(f.has, (h) => h);
  if (f.and !== undefined) out['and'] = listOrOne(f.and, toGraphql);
  if (f.or !== undefined) out['or'] = listOrOne(f.or, toGraphql);
  if (f.not !== undefined) out['not'] = toGraphql(f.not);
  return out;
}

function leafMatches(r: Row, leaf: Leaf): boolean {
  const v = r[leaf.field];
  if (leaf.op === 'null') return v === null;
  if (v === null) return false;
  const terms = (s: string) => s.split(' ');
  switch (leaf.op) {
    case 'bool':
    case 'eq':
      return v === leaf.value;
    case 'in':
      return leaf.value.includes(v as number);
    case 'le':
      return (v as number | string) <= leaf.value;
    case 'lt':
      return (v as number) < leaf.value;
    case 'ge':
      return (v as number) >= leaf.value;
    case 'gt':
      return (v as number | string) > leaf.value;
    case 'between':
      return (v as number) >= leaf.value[0] && (v as number) <= leaf.value[1];
    case 'allofterms':
      return terms(leaf.value).every((t) => terms(v as string).includes(t));
    case 'anyofterms':
      return terms(leaf.value).some((t) => terms(v as string).includes(t));
  }
}

/**
 * Dgraph's buildFilter read as a predicate: undefined when the object places no condition (no keys,
 * or only empty connectives), which leaves it out of the connective holding it.
 */
function oracle(r: Row, f: FilterObject): boolean | undefined {
  const conditions: boolean[] = f.leaves.map((leaf) => leafMatches(r, leaf));
  if (f.ids !== undefined) conditions.push(f.ids.some((i) => idPool[i % idPool.length] === r.id));
  for (const h of f.has?.items ?? []) conditions.push(r[h] !== null);
  for (const item of f.and?.items ?? []) {
    const v = oracle(r, item);
    if (v !== undefined) conditions.push(v);
  }
  if (f.not !== undefined) {
    const v = oracle(r, f.not);
    if (v !== undefined) conditions.push(!v);
  }
  const conjunction = conditions.length === 0 ? undefined : conditions.every(Boolean);
  const alternatives = (f.or?.items ?? []).map((item) => oracle(r, item)).filter((v): v is boolean => v !== undefined);
  if (alternatives.length === 0) return conjunction;
  return (conjunction ?? false) || alternatives.some(Boolean);
}

const matches = (r: Row, f: FilterObject | undefined): boolean => f === undefined || (oracle(r, f) ?? true);
const uidNum = (id: string) => Number.parseInt(id, 16);
const byUid = (a: string, b: string) => uidNum(a) - uidNum(b);

beforeAll(async () => {
  server = await startWithSchema(schema);
  const data = fc.sample(rowArb, { numRuns: 200, seed: 42 });
  await ok('mutation ($b: [AddBoxInput!]!) { addBox(input: $b) { numUids } }', { b: boxes.map((label) => ({ label })) });
  const input = data.map((r) => ({ ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)), box: { label: r.box } }));
  const added = await ok('mutation ($input: [AddItemInput!]!) { addItem(input: $input) { item { id } } }', { input });
  rows = data.map((r, i) => ({ ...r, id: added['addItem'].item[i].id as string }));
  // A few ids that are no Item: a Box's, and one never assigned.
  const boxIds = (await ok('{ queryBox { id } }'))['queryBox'].map((b: { id: string }) => b.id) as string[];
  idPool = [...rows.map((r) => r.id), ...boxIds, '0xfffff'];
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('filter objects: the server equals an oracle written from Dgraph buildFilter', () => {
  it('root query and aggregate', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(filterArb, { nil: undefined, freq: 10 }), async (filter) => {
        const data = await ok('query ($f: ItemFilter) { queryItem(filter: $f) { id } aggregateItem(filter: $f) { count } }', {
          f: filter === undefined ? null : toGraphql(filter),
        });
        const expected = rows.filter((r) => matches(r, filter)).map((r) => r.id);
        expect(data['queryItem'].map((x: { id: string }) => x.id)).toEqual(expected);
        expect(data['aggregateItem']).toEqual({ count: expected.length });
      }),
      { numRuns: 200, seed: 7 },
    );
  }, 120_000);

  it('nested edge: each box keeps the items of its own passing the filter', async () => {
    await fc.assert(
      fc.asyncProperty(filterArb, async (filter) => {
        const data = await ok('query ($f: ItemFilter) { queryBox(order: { asc: label }) { label items(filter: $f) { id } itemsAggregate(filter: $f) { count } } }', {
          f: toGraphql(filter),
        });
        const expected = boxes.map((label) => {
          const ids = rows.filter((r) => r.box === label && matches(r, filter)).map((r) => r.id).sort(byUid);
          return { label, items: ids.map((id) => ({ id })), itemsAggregate: { count: ids.length } };
        });
        expect(data['queryBox']).toEqual(expected);
      }),
      { numRuns: 150, seed: 9 },
    );
  }, 120_000);

  it('delete removes exactly the matching nodes', async () => {
    const scrapRows = fc.sample(fc.record({ n: fc.option(fc.integer({ min: -4, max: 4 }), { nil: null }), code: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: null }) }), {
      numRuns: 30,
      seed: 3,
    });
    // Scrap's filter knows only n, code, has, and/or/not and ids: the generator's other fields are dropped.
    const scrapOnly = (f: FilterObject): FilterObject => ({
      leaves: f.leaves.filter((l) => l.field === 'n' || (l.field === 'code' && (l.op === 'eq' || l.op === 'null'))),
      ...(f.has === undefined ? {} : { has: { ...f.has, items: f.has.items.filter((h) => h === 'n' || h === 'code'), list: true } }),
      ...(f.and === undefined ? {} : { and: { ...f.and, items: f.and.items.map(scrapOnly) } }),
      ...(f.or === undefined ? {} : { or: { ...f.or, items: f.or.items.map(scrapOnly) } }),
      ...(f.not === undefined ? {} : { not: scrapOnly(f.not) }),
    });
    await fc.assert(
      fc.asyncProperty(filterArb.map(scrapOnly), async (filter) => {
        const input = scrapRows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));
        const added = await ok('mutation ($input: [AddScrapInput!]!) { addScrap(input: $input) { scrap { id } } }', { input });
        const scraps: Row[] = scrapRows.map((r, i) => ({ name: '', score: null, flag: null, box: '', ...r, id: added['addScrap'].scrap[i].id as string }));
        const saved = idPool;
        idPool = scraps.map((s) => s.id);
        try {
          const deleted = await ok('mutation ($f: ScrapFilter!) { deleteScrap(filter: $f) { numUids } }', { f: toGraphql(filter) });
          const gone = scraps.filter((s) => matches(s, filter)).map((s) => s.id);
          expect(deleted['deleteScrap']).toEqual({ numUids: gone.length });
          const left = (await ok('{ queryScrap { id } }'))['queryScrap'].map((s: { id: string }) => s.id);
          expect(left).toEqual(scraps.filter((s) => !gone.includes(s.id)).map((s) => s.id));
        } finally {
          idPool = saved;
          await ok('mutation { deleteScrap(filter: {}) { numUids } }');
        }
      }),
      { numRuns: 40, seed: 5 },
    );
  }, 120_000);
});
