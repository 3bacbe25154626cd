// Ordered `near` pages merged from the geo grid's cells (exec/near-page.ts), through the engine: a
// dense cluster (buckets split into cells, cells wholly inside the cap and crossing its edge), score
// ties (by uid), missing scores (last), offsets, both directions and a Float key; then writes (scores
// changed, nodes deleted, points moved and added) so every kept cell order must be refreshed. Each
// answer is compared with a naive scan; EXPLAIN shows the merge for a wide cap and collecting for a
// narrow one (plan/near-plan.ts prefersNearCells).

import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

const schema = `type Spot {
  name: String! @id
  loc: Point @search
  score: Int @search
  rating: Float
}`;

interface Row {
  name: string;
  loc: { latitude: number; longitude: number };
  score?: number;
  rating: number;
}

let seed = 7;
const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);

// 6,000 spots in a 3° × 2° box (about 700 per grid bucket: split into cells), scores with ties, every seventh without one.
let live: Row[] = Array.from({ length: 6_000 }, (_, i) => ({
  name: `s${i}`,
  loc: { latitude: 10 + Math.round(random() * 2e5) / 1e5, longitude: 20 + Math.round(random() * 3e5) / 1e5 },
  ...(i % 7 === 3 ? {} : { score: Math.floor(random() * 400) }),
  rating: Math.round(random() * 1000) / 10,
}));
// Some spots share a point.
for (let i = 0; i < 50; i++) (live[i * 11 + 5] as Row).loc = (live[i * 13] as Row).loc;

let engine: Engine;

/** Dgraph's great-circle distance (6,371 km sphere, haversine). */
function meters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The page by a naive scan: uid order is creation order (`live` keeps it), missing values last. */
function naive(center: { latitude: number; longitude: number }, distance: number, key: 'score' | 'rating', desc: boolean, offset: number, first: number): string[] {
  const kept = live.map((r, i) => ({ r, i })).filter(({ r }) => meters(center, r.loc) <= distance);
  const value = (r: Row): number | undefined => r[key];
  kept.sort((a, b) => {
    const x = value(a.r);
    const y = value(b.r);
    if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0) || a.i - b.i;
    return (desc ? y - x : x - y) || a.i - b.i;
  });
  return kept.slice(offset, offset + first).map(({ r }) => r.name);
}

async function page(center: { latitude: number; longitude: number }, distance: number, key: 'score' | 'rating', desc: boolean, offset: number, first: number): Promise<{ names: string[]; explain: string }> {
  const query = `query ($c: PointRef!, $d: Float!) { querySpot(filter: { loc: { near: { coordinate: $c, distance: $d } } }, order: { ${desc ? 'desc' : 'asc'}: ${key} }, first: ${first}, offset: ${offset}) { name } }`;
  const response = await engine.execute({ method: 'POST', query, variables: { c: center, d: distance }, headers: {}, extensions: { explain: true } });
  const body = JSON.parse(response.body) as { data?: { querySpot: { name: string }[] }; errors?: unknown; extensions?: { explain?: string } };
  expect(body.errors).toBeUndefined();
  return { names: (body.data?.querySpot ?? []).map((r) => r.name), explain: body.extensions?.explain ?? '' };
}

async function mutate(query: string, variables: Record<string, unknown>): Promise<void> {
  const body = JSON.parse((await engine.execute({ method: 'POST', query, variables, headers: {} })).body) as { errors?: unknown };
  expect(body.errors).toBeUndefined();
}

const centers = [
  { latitude: 11, longitude: 21.5 },
  { latitude: 10.3, longitude: 20.2 },
  { latitude: 11.9, longitude: 22.8 },
  { latitude: 10.9, longitude: 23.4 },
];

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: true });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  for (let i = 0; i < live.length; i += 1_000) await mutate('mutation ($in: [AddSpotInput!]!) { addSpot(input: $in) { numUids } }', { in: live.slice(i, i + 1_000) });
});

async function expectAllPages(): Promise<void> {
  for (const center of centers) {
    for (const [distance, key, desc, offset, first] of [
      [60_000, 'score', true, 0, 10],
      [60_000, 'score', false, 5, 7],
      [90_000, 'score', true, 40, 20],
      [60_000, 'rating', true, 0, 10],
      [25_000, 'score', true, 0, 3],
      [40_000, 'score', true, 0, 10],
      [40_000, 'score', false, 3, 12],
      [40_000, 'rating', false, 0, 10],
      [60_000, 'score', true, 0, 0],
    ] as const) {
      const { names } = await page(center, distance, key, desc, offset, first);
      expect(names, `${JSON.stringify(center)} ${distance} ${key} ${desc} ${offset} ${first}`).toEqual(naive(center, distance, key, desc, offset, first));
    }
  }
}

describe('near pages merged from the grid cells', () => {
  it('equal a naive scan: ties by uid, missing values last, offsets, both directions, Float keys', async () => {
    await expectAllPages();
  });

  it('EXPLAIN: the merge for a cap holding a few % of the points; collecting for a narrow one, the score walk for one holding most', async () => {
    const center = centers[0] as Row['loc'];
    const wide = await page(center, 40_000, 'score', true, 0, 10);
    expect(wide.explain).toContain("or merge the geo grid's cells in score order, when cheaper for the cap");
    expect(wide.explain).toMatch(/ran merge of \d+ grid cells \([1-9]\d* reached and placed against the cap/);
    expect(wide.explain).toContain('near loc via geo [1] checked');
    const narrow = await page(center, 3_000, 'score', true, 0, 10);
    expect(narrow.names).toEqual(naive(center, 3_000, 'score', true, 0, 10));
    expect(narrow.explain).not.toContain('ran merge');
    expect(narrow.explain).toMatch(/ran (top-k|sort) over \d+ candidates/);
    const widest = await page(center, 150_000, 'score', true, 0, 10);
    expect(widest.names).toEqual(naive(center, 150_000, 'score', true, 0, 10));
    expect(widest.explain).toMatch(/ran walk int index checking the filter per node/);
  });

  it('stay equal after scores change, nodes go, points move and new ones come', async () => {
    // Warm every cell's order first, then write.
    await expectAllPages();
    const top = naive(centers[0] as Row['loc'], 60_000, 'score', true, 0, 5);
    for (const [i, name] of top.entries()) {
      await mutate('mutation ($n: String!, $s: Int!) { updateSpot(input: { filter: { name: { eq: $n } }, set: { score: $s } }) { numUids } }', { n: name, s: i });
      live = live.map((r) => (r.name === name ? { ...r, score: i } : r));
    }
    await expectAllPages();
    const gone = naive(centers[1] as Row['loc'], 60_000, 'score', true, 0, 3);
    await mutate('mutation ($n: [String!]) { deleteSpot(filter: { name: { in: $n } }) { numUids } }', { n: gone });
    live = live.filter((r) => !gone.includes(r.name));
    const moved = naive(centers[2] as Row['loc'], 60_000, 'score', false, 0, 3);
    const far = { latitude: 40, longitude: 40 };
    for (const name of moved) await mutate('mutation ($n: String!, $l: PointRef!) { updateSpot(input: { filter: { name: { eq: $n } }, set: { loc: $l } }) { numUids } }', { n: name, l: far });
    live = live.map((r) => (moved.includes(r.name) ? { ...r, loc: far } : r));
    const added: Row[] = centers.map((c, i) => ({ name: `new${i}`, loc: c, score: 10_000 + i, rating: 0 }));
    await mutate('mutation ($in: [AddSpotInput!]!) { addSpot(input: $in) { numUids } }', { in: added });
    live = [...live, ...added];
    await expectAllPages();
  });
});
