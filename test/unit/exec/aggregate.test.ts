// Aggregates over a range walk, which meets the matches in value order: a float sum must still follow
// ascending uids (Dgraph sums in uid order, rounding after each term), for few matches, matches dense
// in the id space and sparse ones. Ratings of mixed magnitudes make every order give a different sum;
// each answer is compared with a naive uid-order scan. The walk's first and last match give its
// field's Min and Max, unless an @auth rule drops them.

import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

const secret = 'a-unit-test-secret-of-32-bytes-or-more';
const ns = 'https://example.com/claims';
const schema = `type Item {
  id: ID!
  name: String! @id
  score: Int @search
  rating: Float @search
}
type Other { id: ID!  name: String! @id }
type Tied {
  id: ID!
  name: String! @id
  score: Int @search
  rating: Float @search
  big: Int64 @search
  at: DateTime @search(by: [day])
}
type Owned @auth(query: { rule: """query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  id: ID!
  name: String! @id
  owner: String @search(by: [hash])
  score: Int @search
}
# Dgraph.Authorization ${JSON.stringify({ VerificationKey: secret, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}`;

interface Row {
  name: string;
  score: number;
  rating: number;
}

const n = 400;
// Scores a permutation (value order far from uid order); ratings of magnitudes 1 to 1e16, both signs.
const rows: Row[] = Array.from({ length: n }, (_, i) => ({
  name: `i${i}`,
  score: (i * 151) % n,
  rating: Math.sin(i + 1) * 10 ** ((i * 7) % 17),
}));

let engine: Engine;

async function gql(query: string): Promise<Record<string, unknown>> {
  const response = await engine.execute({ method: 'POST', query, headers: {}, extensions: { explain: true } });
  const body = JSON.parse(response.body) as { data: Record<string, unknown>; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function add(type: string, input: unknown[]): Promise<void> {
  const response = await engine.execute({ method: 'POST', query: `mutation ($in: [Add${type}Input!]!) { add${type}(input: $in) { numUids } }`, variables: { in: input }, headers: {} });
  expect(response.body).toContain(`"numUids":${input.length}`);
}

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: true });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  // Items in insertion (uid) order; the last 100 after many nodes of another type, so a range's ids may lie far apart.
  await add('Item', rows.slice(0, n - 100));
  await add('Other', Array.from({ length: 20_000 }, (_, i) => ({ name: `o${i}` })));
  await add('Item', rows.slice(n - 100));
  // Scores 0..19; alice owns the even ones, so the lowest (0) is hers and the highest (19) is bob's.
  await add('Tied', tied);
  const gone = await engine.execute({ method: 'POST', query: `mutation { deleteTied(filter: { name: { in: ${JSON.stringify(deleted)} } }) { numUids } }`, headers: {} });
  expect(gone.body).toContain(`"numUids":${deleted.length}`);
  await add('Owned', Array.from({ length: 20 }, (_, i) => ({ name: `w${i}`, owner: i % 2 === 0 ? 'alice' : 'bob', score: i })));
});

function naive(min: number, max: number, keep: (r: Row) => boolean = () => true): Record<string, unknown> {
  const kept = rows.filter((r) => r.score >= min && r.score <= max && keep(r));
  const sum = (list: Row[]): number => list.reduce((a, r) => a + r.rating, 0);
  return {
    count: kept.length,
    scoreMin: kept.length === 0 ? null : Math.min(...kept.map((r) => r.score)),
    scoreMax: kept.length === 0 ? null : Math.max(...kept.map((r) => r.score)),
    ratingMin: kept.length === 0 ? null : Math.min(...kept.map((r) => r.rating)),
    ratingMax: kept.length === 0 ? null : Math.max(...kept.map((r) => r.rating)),
    ratingSum: kept.length === 0 ? null : sum(kept),
    ratingAvg: kept.length === 0 ? null : sum(kept) / kept.length,
  };
}

describe('aggregates over a range walk', () => {
  it.each([
    ['few matches', 10, 19],
    ['many matches', 0, 250],
    ['matches sparse in the id space', 100, 140],
    ['every item (dense in the id space)', 0, n],
    ['no match', n + 1, n + 10],
  ])('%s: float sums follow uid order', async (_, min, max) => {
    const data = await gql(`{ aggregateItem(filter: { score: { between: { min: ${min}, max: ${max} } } }) { count scoreMin scoreMax ratingMin ratingMax ratingSum ratingAvg } }`);
    expect(data['aggregateItem']).toEqual(naive(min, max));
    // The test can fail: summed in the walk's (value) order, the matches give another sum.
    const kept = rows.filter((r) => r.score >= min && r.score <= max);
    const sum = (list: Row[]): number => list.reduce((a, r) => a + r.rating, 0);
    if (kept.length > 2) expect(sum([...kept].sort((a, b) => a.score - b.score))).not.toBe(sum(kept));
  });

  it.each([
    ['the Int range walked, the Float one checked', 0, 40, 1],
    ['the Float range walked, the Int one checked', 0, n, 1e15],
  ])('two ranges, %s: Min and Max of either field', async (_, min, max, gt) => {
    const data = await gql(`{ aggregateItem(filter: { score: { between: { min: ${min}, max: ${max} } }, rating: { gt: ${gt} } }) { count scoreMin scoreMax ratingMin ratingMax ratingSum ratingAvg } }`);
    expect(data['aggregateItem']).toEqual(naive(min, max, (r) => r.rating > gt));
  });

  it("under an @auth rule: Min and Max of the walked field among the allowed matches (the walk's ends may be refused)", async () => {
    const token = await new SignJWT({ [ns]: { USER: 'alice' } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
    const response = await engine.execute({ method: 'POST', query: '{ aggregateOwned(filter: { score: { between: { min: 1, max: 19 } } }) { count scoreMin scoreMax } }', headers: { 'x-auth': token } });
    expect(JSON.parse(Buffer.from(response.body as string | Uint8Array).toString())).toEqual({ data: { aggregateOwned: { count: 9, scoreMin: 2, scoreMax: 18 } } });
  });
});

interface TiedRow {
  name: string;
  score: number;
  rating?: number;
  big: number;
  at: string;
}

// Scores 0..29 each held by several items (ties at every end), a third of the ratings missing, a tenth of the items deleted.
const tied: TiedRow[] = Array.from({ length: 300 }, (_, i) => ({
  name: `t${i}`,
  score: (i * 7) % 30,
  ...(i % 3 === 1 ? {} : { rating: Math.cos(i) * 10 ** ((i * 5) % 13) }),
  big: ((i * 37) % 101) * 1_000_003 - 50_000_000,
  at: new Date(Date.UTC(2020, 0, 1 + ((i * 11) % 60))).toISOString().replace('.000Z', 'Z'),
}));
const deleted = tied.filter((_, i) => i % 10 === 4).map((r) => r.name);

function naiveTied(keep: (r: TiedRow) => boolean): Record<string, unknown> {
  const kept = tied.filter((r) => !deleted.includes(r.name) && keep(r));
  const rated = kept.flatMap((r) => (r.rating === undefined ? [] : [r.rating]));
  const ext = <T>(list: T[], pick: (a: T, b: T) => boolean): T | null => (list.length === 0 ? null : list.reduce((a, b) => (pick(b, a) ? b : a)));
  const ats = kept.map((r) => r.at);
  const bigs = kept.map((r) => r.big);
  return {
    count: kept.length,
    scoreMin: ext(kept.map((r) => r.score), (a, b) => a < b),
    scoreMax: ext(kept.map((r) => r.score), (a, b) => a > b),
    ratingMin: ext(rated, (a, b) => a < b),
    ratingMax: ext(rated, (a, b) => a > b),
    bigMin: ext(bigs, (a, b) => a < b),
    bigMax: ext(bigs, (a, b) => a > b),
    atMin: ext(ats, (a, b) => a < b),
    atMax: ext(ats, (a, b) => a > b),
    ratingAvg: rated.length === 0 ? null : rated.reduce((a, b) => a + b, 0) / rated.length,
  };
}

// A walk's matches reach a count, Min or Max in its own (value) order, sorted only for a Sum or Avg:
// each answer against a naive scan in uid order, with and without a Sum/Avg asked alongside.
describe('aggregates over a range walk with ties, missing values and deleted nodes', () => {
  const fields = 'count scoreMin scoreMax ratingMin ratingMax bigMin bigMax atMin atMax';
  it.each([
    ['a range with ties at both ends', 'score: { between: { min: 3, max: 11 } }', (r: TiedRow) => r.score >= 3 && r.score <= 11],
    ['one score (every match tied)', 'score: { between: { min: 7, max: 7 } }', (r: TiedRow) => r.score === 7],
    ['no match', 'score: { gt: 29 }', () => false],
    ['a DateTime range', 'at: { between: { min: "2020-01-10T00:00:00Z", max: "2020-02-05T00:00:00Z" } }', (r: TiedRow) => r.at >= '2020-01-10T00:00:00Z' && r.at <= '2020-02-05T00:00:00Z'],
    ['a Float range (missing ratings never match)', 'rating: { between: { min: -1000, max: 100000 } }', (r: TiedRow) => r.rating !== undefined && r.rating >= -1000 && r.rating <= 100000],
  ])('%s', async (_, filter, keep) => {
    const expected = naiveTied(keep);
    const { ratingAvg, ...extremes } = expected;
    const bare = await gql(`{ aggregateTied(filter: { ${filter} }) { ${fields} } }`);
    expect(bare['aggregateTied']).toEqual(extremes);
    const withAvg = await gql(`{ aggregateTied(filter: { ${filter} }) { ratingAvg ${fields} } }`);
    expect(withAvg['aggregateTied']).toEqual({ ratingAvg, ...extremes });
  });
});
