// Streamed pages at their edges, through the engine: nodes without the order value come last in uid
// order after a walk of the order key, offsets past the end give empty pages, `first: 0` gives none,
// `has` of an edge falls back to collecting, and deleted or updated nodes leave or move in every walk.
// Each answer is compared with a naive scan; EXPLAIN names the step that ran.

import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

const schema = `type Item {
  id: ID!
  name: String! @id
  score: Int @search
  rating: Float @search
  owner: Item
}`;

interface Row {
  name: string;
  score?: number;
  rating: number;
  owner?: { name: string };
}

// 40 items: every fourth without a score; ratings i / 4; every fifth owned by item 0.
const rows: Row[] = Array.from({ length: 40 }, (_, i) => ({
  name: `i${i}`,
  ...(i % 4 === 3 ? {} : { score: (i * 13) % 40 }),
  rating: i / 4,
  ...(i % 5 === 1 ? { owner: { name: 'i0' } } : {}),
}));

let engine: Engine;
let live = rows;

async function gql(query: string): Promise<{ data: Record<string, { name: string }[]>; explain: string[] }> {
  const response = await engine.execute({ method: 'POST', query, headers: {}, extensions: { explain: true } });
  const body = JSON.parse(response.body) as { data: Record<string, { name: string }[]>; errors?: unknown; extensions?: { explain?: string } };
  expect(body.errors).toBeUndefined();
  return { data: body.data, explain: (body.extensions?.explain ?? '').split('\n') };
}

/** Kept rows by score descending, missing scores last, ties and missing in uid (insertion) order. */
function byScoreDesc(keep: (r: Row) => boolean, offset: number, first: number): string[] {
  const kept = live.map((r, i) => ({ r, i })).filter(({ r }) => keep(r));
  kept.sort((a, b) => (b.r.score ?? -Infinity) - (a.r.score ?? -Infinity) || a.i - b.i);
  return kept.slice(offset, offset + first).map(({ r }) => r.name);
}

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: true });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  const first = await engine.execute({ method: 'POST', query: 'mutation ($in: [AddItemInput!]!) { addItem(input: $in) { numUids } }', variables: { in: [rows[0]] }, headers: {} });
  expect(first.body).toContain('"numUids":1');
  const rest = await engine.execute({ method: 'POST', query: 'mutation ($in: [AddItemInput!]!) { addItem(input: $in) { numUids } }', variables: { in: rows.slice(1) }, headers: {} });
  expect(rest.body).toContain('"numUids":39');
});

describe('streamed pages', () => {
  it('a walk of the order key ends with the matches that have no order value, in uid order', async () => {
    const { data, explain } = await gql('{ queryItem(filter: { rating: { ge: 1 } }, order: { desc: score }, first: 10, offset: 25) { name } }');
    const expected = byScoreDesc((r) => r.rating >= 1, 25, 10);
    expect(data['queryItem']?.map((x) => x.name)).toEqual(expected);
    expect(expected.slice(-4)).toEqual(['i23', 'i27', 'i31', 'i35']); // no score: last, by uid
    expect(explain.at(-1)).toMatch(/^ {2}ran walk int index, checking each node \(\d+ nodes checked\)$/);
  });

  it('an offset past the end gives an empty page, and first: 0 gives none', async () => {
    const past = await gql('{ queryItem(filter: { rating: { ge: 0 } }, first: 5, offset: 40) { name } }');
    expect(past.data['queryItem']).toEqual([]);
    expect(past.explain.at(-1)).toBe('  ran scan of the type, checking each node (40 nodes checked)');
    const none = await gql('{ queryItem(filter: { score: { ge: 0 } }, order: { asc: score }, first: 0) { name } }');
    expect(none.data['queryItem']).toEqual([]);
  });

  it('a narrow range paged in uid order or by another key walks the range keeping the first k', async () => {
    const unordered = await gql('{ queryItem(filter: { rating: { between: { min: 8.5, max: 9.5 } } }, first: 2, offset: 1) { name } }');
    expect(unordered.data['queryItem']?.map((x) => x.name)).toEqual(['i35', 'i36']);
    expect(unordered.explain.at(-1)).toBe('  ran walk rating float index through the range, keeping the first 3 (5 nodes checked)');
    // Ordered by score descending, i35 (no score) last: i34 → 2, i36 → 28, i37 → 1, i38 → 14.
    const ordered = await gql('{ queryItem(filter: { rating: { between: { min: 8.5, max: 9.5 } } }, order: { desc: score }, first: 5) { name } }');
    expect(ordered.data['queryItem']?.map((x) => x.name)).toEqual(byScoreDesc((r) => r.rating >= 8.5 && r.rating <= 9.5, 0, 5));
    expect(ordered.data['queryItem']?.map((x) => x.name)).toEqual(['i36', 'i38', 'i34', 'i37', 'i35']);
    expect(ordered.explain.at(-1)).toBe('  ran walk rating float index through the range, keeping the first 5 (5 nodes checked)');
  });

  it('a range on a typed column is tested in the walk itself: bounds exact, exclusive bounds excluded, nodes without a value never match', async () => {
    // Rows without a score hold 0 in the column's slot: only `present` tells them from a score of 0.
    const byRatingDesc = (keep: (r: Row) => boolean, offset: number, first: number): string[] =>
      live
        .filter(keep)
        .sort((a, b) => b.rating - a.rating)
        .slice(offset, offset + first)
        .map((r) => r.name);
    const cases: [string, (r: Row) => boolean, number, string][] = [
      ['score: { le: 20 }', (r) => r.score !== undefined && r.score <= 20, 2, 'ran walk float index, checking each node'],
      ['score: { ge: 13 }', (r) => r.score !== undefined && r.score >= 13, 0, 'ran walk float index, checking each node'],
      ['score: { lt: 28 }', (r) => r.score !== undefined && r.score < 28, 0, 'ran walk float index, checking each node'],
    ];
    for (const [filter, keep, offset, ran] of cases) {
      const { data, explain } = await gql(`{ queryItem(filter: { ${filter} }, order: { desc: rating }, first: 8, offset: ${offset}) { name } }`);
      expect(data['queryItem']?.map((x) => x.name), filter).toEqual(byRatingDesc(keep, offset, 8));
      expect(explain.at(-1), filter).toMatch(new RegExp(`^ {2}${ran} \\(\\d+ nodes checked\\)$`));
    }
    const scan = await gql('{ queryItem(filter: { score: { ge: 0 } }, first: 10) { name } }');
    expect(scan.data['queryItem']?.map((x) => x.name)).toEqual(live.filter((r) => r.score !== undefined && r.score >= 0).slice(0, 10).map((r) => r.name));
    expect(scan.explain.at(-1)).toMatch(/^ {2}ran scan of the type, checking each node \(\d+ nodes checked\)$/);
  });

  it('has of an edge is not streamed: the order index walk checks its out-edges per node', async () => {
    const { data, explain } = await gql('{ queryItem(filter: { has: [owner] }, order: { desc: score }, first: 3) { name } }');
    expect(data['queryItem']?.map((x) => x.name)).toEqual(byScoreDesc((r) => r.owner !== undefined, 0, 3));
    expect(explain[1]).toBe('  has owner [40] checked');
  });

  it('deleted nodes leave and updated values move in every walk', async () => {
    const del = await engine.execute({ method: 'POST', query: 'mutation { deleteItem(filter: { name: { in: ["i2", "i10"] } }) { numUids } }', headers: {} });
    expect(del.body).toContain('"numUids":2');
    const upd = await engine.execute({ method: 'POST', query: 'mutation { updateItem(input: { filter: { name: { eq: "i3" } }, set: { score: 100, rating: 0.1 } }) { numUids } }', headers: {} });
    expect(upd.body).toContain('"numUids":1');
    live = rows.filter((r) => r.name !== 'i2' && r.name !== 'i10').map((r) => (r.name === 'i3' ? { ...r, score: 100, rating: 0.1 } : r));
    const range = await gql('{ queryItem(filter: { score: { ge: 20 } }, order: { desc: score }, first: 6) { name } }');
    expect(range.data['queryItem']?.map((x) => x.name)).toEqual(byScoreDesc((r) => r.score !== undefined && r.score >= 20, 0, 6));
    expect(range.data['queryItem']?.[0]?.name).toBe('i3');
    expect(range.explain.at(-1)).toMatch(/^ {2}ran walk int index from the range bound, checking each node/);
    const other = await gql('{ queryItem(filter: { rating: { lt: 3 } }, order: { desc: score }, first: 12) { name } }');
    expect(other.data['queryItem']?.map((x) => x.name)).toEqual(byScoreDesc((r) => r.rating < 3, 0, 12));
    const scan = await gql('{ queryItem(filter: { rating: { le: 2 } }, first: 20) { name } }');
    expect(scan.data['queryItem']?.map((x) => x.name)).toEqual(live.filter((r) => r.rating <= 2).map((r) => r.name));
  });
});
