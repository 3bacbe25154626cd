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

/** The page by a naive scan of `rows`: uid order is creation order (`rows` keeps it), missing values last. */
function naive(rows: readonly Row[], center: { latitude: number; longitude: number }, distance: number, key: 'score' | 'rating', desc: boolean, offset: number, first: number): string[] {
  const kept = rows.map((r, i) => ({ r, i })).filter(({ r }) => meters(center, r.loc) <= distance);
  const value = (r: Row): number | undefined => r[key];
  kept.sort((a, b) => {
    const x = value(a.r);
    const y = value(b.r);
    if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0) || a.i - b.i;
    return (desc ? y - x : x - y) || a.i - b.i;
  });
  return kept.slice(offset, offset + first).map(({ r }) => r.name);
}

async function page(db: Engine, center: { latitude: number; longitude: number }, distance: number, key: 'score' | 'rating', desc: boolean, offset: number, first: number): Promise<{ names: string[]; explain: string }> {
  const query = `query ($c: PointRef!, $d: Float!) { querySpot(filter: { loc: { near: { coordinate: $c, distance: $d } } }, order: { ${desc ? 'desc' : 'asc'}: ${key} }, first: ${first}, offset: ${offset}) { name } }`;
  const response = await db.execute({ method: 'POST', query, variables: { c: center, d: distance }, headers: {}, extensions: { explain: true } });
  const body = JSON.parse(response.body) as { data?: { querySpot: { name: string }[] }; errors?: unknown; extensions?: { explain?: string } };
  expect(body.errors).toBeUndefined();
  return { names: (body.data?.querySpot ?? []).map((r) => r.name), explain: body.extensions?.explain ?? '' };
}

async function mutate(db: Engine, query: string, variables: Record<string, unknown>): Promise<void> {
  const body = JSON.parse((await db.execute({ method: 'POST', query, variables, headers: {} })).body) as { errors?: unknown };
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
  for (let i = 0; i < live.length; i += 1_000) await mutate(engine, 'mutation ($in: [AddSpotInput!]!) { addSpot(input: $in) { numUids } }', { in: live.slice(i, i + 1_000) });
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
      const { names } = await page(engine, center, distance, key, desc, offset, first);
      expect(names, `${JSON.stringify(center)} ${distance} ${key} ${desc} ${offset} ${first}`).toEqual(naive(live, center, distance, key, desc, offset, first));
    }
  }
}

describe('near pages merged from the grid cells', () => {
  it('equal a naive scan: ties by uid, missing values last, offsets, both directions, Float keys', async () => {
    await expectAllPages();
  });

  it('EXPLAIN: the merge for a cap holding a few % of the points; collecting for a narrow one, the score walk for one holding most', async () => {
    const center = centers[0] as Row['loc'];
    const wide = await page(engine, center, 40_000, 'score', true, 0, 10);
    expect(wide.explain).toContain("or merge the geo grid's cells in score order, when cheaper for the cap");
    expect(wide.explain).toMatch(/ran merge of \d+ grid cells \([1-9]\d* reached and placed against the cap/);
    expect(wide.explain).toContain('near loc via geo [1] checked');
    const narrow = await page(engine, center, 3_000, 'score', true, 0, 10);
    expect(narrow.names).toEqual(naive(live, center, 3_000, 'score', true, 0, 10));
    expect(narrow.explain).not.toContain('ran merge');
    expect(narrow.explain).toMatch(/ran (top-k|sort) over \d+ candidates/);
    const widest = await page(engine, center, 150_000, 'score', true, 0, 10);
    expect(widest.names).toEqual(naive(live, center, 150_000, 'score', true, 0, 10));
    expect(widest.explain).toMatch(/ran walk int index checking the filter per node/);
  });

  it('stay equal after scores change, nodes go, points move and new ones come', async () => {
    // Warm every cell's order first, then write.
    await expectAllPages();
    const top = naive(live, centers[0] as Row['loc'], 60_000, 'score', true, 0, 5);
    for (const [i, name] of top.entries()) {
      await mutate(engine, 'mutation ($n: String!, $s: Int!) { updateSpot(input: { filter: { name: { eq: $n } }, set: { score: $s } }) { numUids } }', { n: name, s: i });
      live = live.map((r) => (r.name === name ? { ...r, score: i } : r));
    }
    await expectAllPages();
    const gone = naive(live, centers[1] as Row['loc'], 60_000, 'score', true, 0, 3);
    await mutate(engine, 'mutation ($n: [String!]) { deleteSpot(filter: { name: { in: $n } }) { numUids } }', { n: gone });
    live = live.filter((r) => !gone.includes(r.name));
    const moved = naive(live, centers[2] as Row['loc'], 60_000, 'score', false, 0, 3);
    const far = { latitude: 40, longitude: 40 };
    for (const name of moved) await mutate(engine, 'mutation ($n: String!, $l: PointRef!) { updateSpot(input: { filter: { name: { eq: $n } }, set: { loc: $l } }) { numUids } }', { n: name, l: far });
    live = live.map((r) => (moved.includes(r.name) ? { ...r, loc: far } : r));
    const added: Row[] = centers.map((c, i) => ({ name: `new${i}`, loc: c, score: 10_000 + i, rating: 0 }));
    await mutate(engine, 'mutation ($in: [AddSpotInput!]!) { addSpot(input: $in) { numUids } }', { in: added });
    live = [...live, ...added];
    await expectAllPages();
  });
});

// Caps spanning many sparse buckets (~10 points each, the merge takes each bucket whole, placed only against
// the cap's inner box): across the antimeridian, over the north pole, a point exactly on the cap's edge,
// a cap holding fewer points than the page, an empty one; then deleted, re-scored and moved points.
describe('near pages merged from whole grid buckets', () => {
  let wide: Engine;
  let rows: Row[] = Array.from({ length: 12_000 }, (_, i) => ({
    name: `w${i}`,
    loc: { latitude: 55 + Math.round(random() * 35e4) / 1e4, longitude: ((165 + Math.round(random() * 30e4) / 1e4 + 180) % 360) - 180 },
    ...(i % 9 === 4 ? {} : { score: Math.floor(random() * 5_000) }),
    rating: Math.round(random() * 1000) / 10,
  }));
  // Three points alone far south: a cap holding fewer points than the page.
  rows.push(...[0, 1, 2].map((i) => ({ name: `lone${i}`, loc: { latitude: -30 + i * 0.1, longitude: 10 }, score: i, rating: 0 })));
  // On the edge of the first cap below, with the best score: its distance is the cap's own.
  const edgeCenter = { latitude: 70, longitude: 179 };
  const edge = { name: 'edge', loc: { latitude: 71.3, longitude: -176.2 }, score: 9_999, rating: 0 };
  rows.push(edge);
  const caps: { center: Row['loc']; distance: number }[] = [
    { center: edgeCenter, distance: meters(edgeCenter, edge.loc) },
    { center: { latitude: 64, longitude: -179.5 }, distance: 300_000 },
    { center: { latitude: 89.2, longitude: 40 }, distance: 250_000 },
    { center: { latitude: 75, longitude: 172 }, distance: 400_000 },
    { center: { latitude: -30, longitude: 10 }, distance: 50_000 },
    { center: { latitude: 0, longitude: 0 }, distance: 300_000 },
  ];

  async function expectCaps(): Promise<string[]> {
    const explains: string[] = [];
    for (const { center, distance } of caps) {
      for (const [key, desc, offset, first] of [
        ['score', true, 0, 10],
        ['score', false, 3, 10],
        ['rating', true, 0, 20],
      ] as const) {
        const got = await page(wide, center, distance, key, desc, offset, first);
        expect(got.names, `${JSON.stringify(center)} ${distance} ${key} ${desc} ${offset} ${first}`).toEqual(naive(rows, center, distance, key, desc, offset, first));
        explains.push(got.explain);
      }
    }
    return explains;
  }

  beforeAll(async () => {
    wide = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: true });
    expect((await wide.updateSchema(schema)).ok).toBe(true);
    for (let i = 0; i < rows.length; i += 1_000) await mutate(wide, 'mutation ($in: [AddSpotInput!]!) { addSpot(input: $in) { numUids } }', { in: rows.slice(i, i + 1_000) });
  });

  it('equal a naive scan, and EXPLAIN names the whole buckets', async () => {
    const explains = await expectCaps();
    expect(naive(rows, edgeCenter, meters(edgeCenter, edge.loc), 'score', true, 0, 1)).toEqual(['edge']);
    expect(explains.filter((e) => /ran merge of \d+ grid buckets \(/.test(e)).length).toBeGreaterThan(3);
  });

  it('stay equal after points are deleted, re-scored and moved', async () => {
    const top = naive(rows, { latitude: 64, longitude: -179.5 }, 300_000, 'score', true, 0, 4);
    await mutate(wide, 'mutation ($n: [String!]) { deleteSpot(filter: { name: { in: $n } }) { numUids } }', { n: top.slice(0, 2) });
    rows = rows.filter((r) => !top.slice(0, 2).includes(r.name));
    for (const name of top.slice(2)) {
      await mutate(wide, 'mutation ($n: String!) { updateSpot(input: { filter: { name: { eq: $n } }, set: { score: -1 } }) { numUids } }', { n: name });
      rows = rows.map((r) => (r.name === name ? { ...r, score: -1 } : r));
    }
    const pole = naive(rows, { latitude: 89.2, longitude: 40 }, 250_000, 'score', true, 0, 3);
    const south = { latitude: -30.05, longitude: 10.02 };
    for (const name of pole) await mutate(wide, 'mutation ($n: String!, $l: PointRef!) { updateSpot(input: { filter: { name: { eq: $n } }, set: { loc: $l } }) { numUids } }', { n: name, l: south });
    rows = rows.map((r) => (pole.includes(r.name) ? { ...r, loc: south } : r));
    await expectCaps();
  });
});
