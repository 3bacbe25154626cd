// Range filters (Int, Float, DateTime) and `has` over HTTP, answered by streamed pages: a range on the
// order key walks its index from the bound, a filter kept by many nodes walks the order key's index
// (or the type in uid order) checking each node, a narrow range is collected then paged, and an
// aggregate over a range walks it without building its id list. Every answer is compared with a
// naive scan of the rows written, and EXPLAIN names the walk that ran.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `interface Dated { published: DateTime @search }
type Post implements Dated { id: ID!  slug: String! @id  score: Int! @search  rating: Float @search  summary: String @search(by: [term]) }
type Event implements Dated { id: ID!  name: String! }`;

interface Row {
  slug: string;
  score: number;
  rating: number;
  published?: string;
  summary?: string;
}

const day = (n: number): string => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().replace('.000Z', 'Z');

// 60 posts: unique scores, ratings with ties, one in five without a date, one in three without a summary.
const rows: Row[] = Array.from({ length: 60 }, (_, i) => ({
  slug: `p${i}`,
  score: (i * 7) % 60,
  rating: (i % 10) * 1.5,
  ...(i % 5 === 4 ? {} : { published: day(i) }),
  ...(i % 3 === 2 ? {} : { summary: `post ${i}` }),
}));
const events = [
  { name: 'e0', published: day(10) },
  { name: 'e1', published: day(30) },
];

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
  const added = await post('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input: rows });
  expect(added['data']).toEqual({ addPost: { numUids: 60 } });
  const more = await post('mutation ($input: [AddEventInput!]!) { addEvent(input: $input) { numUids } }', { input: events });
  expect(more['data']).toEqual({ addEvent: { numUids: 2 } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

const post = (query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<Record<string, unknown>> => askGraphql(server.url, query, variables, extensions);

async function explained(query: string, variables?: Record<string, unknown>): Promise<{ data: unknown; explain: string[] }> {
  const answer = await post(query, variables, { explain: true });
  expect(answer['errors']).toBeUndefined();
  return { data: answer['data'], explain: String((answer['extensions'] as Record<string, unknown>)['explain']).split('\n') };
}

/** The naive page: rows kept, ordered by `key` (missing last, ties by insertion order), then offset/first. */
function naive<K extends keyof Row>(keep: (r: Row) => boolean, key: K | undefined, desc: boolean, offset: number, first: number): Row[] {
  const kept = rows.map((row, i) => ({ row, i })).filter(({ row }) => keep(row));
  if (key !== undefined) {
    kept.sort((a, b) => {
      const x = a.row[key];
      const y = b.row[key];
      if (x === y) return a.i - b.i;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return (x < y ? -1 : 1) * (desc ? -1 : 1);
    });
  }
  return kept.slice(offset, offset + first).map(({ row }) => row);
}

describe('range pages', () => {
  it('a range on the order key walks its index from the bound, skipping the offset', async () => {
    const { data, explain } = await explained('{ queryPost(filter: { score: { gt: 20 } }, order: { asc: score }, first: 5, offset: 3) { slug score } }');
    expect(data).toEqual({ queryPost: naive((r) => r.score > 20, 'score', false, 3, 5).map((r) => ({ slug: r.slug, score: r.score })) });
    expect(data).toEqual({ queryPost: [24, 25, 26, 27, 28].map((score) => ({ slug: rows.find((r) => r.score === score)?.slug, score })) });
    expect(explain).toEqual([
      'queryPost: Post',
      '  gt score via int [20] checked',
      '  order asc score by walk int index from the range bound, checking each node',
      '  page offset 3 first 5',
      '  ran walk int index from the range bound, checking each node (8 nodes checked)',
    ]);
  });

  it('an offset past the end of the range gives an empty page after visiting only the range', async () => {
    const { data, explain } = await explained('{ queryPost(filter: { score: { between: { min: 50, max: 55 } } }, order: { desc: score }, first: 5, offset: 6) { slug } }');
    expect(data).toEqual({ queryPost: [] });
    expect(explain.at(-1)).toBe('  ran walk int index from the range bound, checking each node (6 nodes checked)');
  });

  it('a wide DateTime range ordered by another key walks that key and checks the date, missing dates excluded', async () => {
    const q = 'query ($min: DateTime) { queryPost(filter: { published: { ge: $min } }, order: { desc: score }, first: 4, offset: 1) { slug score published } }';
    const { data, explain } = await explained(q, { min: day(5) });
    const expected = naive((r) => r.published !== undefined && r.published >= day(5), 'score', true, 1, 4);
    expect(data).toEqual({ queryPost: expected.map((r) => ({ slug: r.slug, score: r.score, published: r.published })) });
    expect(explain).toEqual([
      'queryPost: Post',
      '  ge published via year [17] checked',
      '  order desc score by walk int index, checking each node',
      '  page offset 1 first 4',
      '  ran walk int index, checking each node (6 nodes checked)',
    ]);
  });

  it('a narrow range ordered by another key is walked keeping the first k, no list built', async () => {
    const q = 'query ($min: DateTime!, $max: DateTime!) { queryPost(filter: { published: { between: { min: $min, max: $max } } }, order: { desc: score }, first: 2) { slug } }';
    const { data, explain } = await explained(q, { min: day(20), max: day(22) });
    expect(data).toEqual({ queryPost: naive((r) => r.published !== undefined && r.published >= day(20) && r.published <= day(22), 'score', true, 0, 2).map((r) => ({ slug: r.slug })) });
    expect(explain.at(1)).toBe('  between published via year [17] checked');
    expect(explain.at(-1)).toBe('  ran walk published year index through the range, keeping the first 2 (3 nodes checked)');
  });

  it('an unordered page of a wide Float range checks the type in uid order', async () => {
    const { data, explain } = await explained('{ queryPost(filter: { rating: { ge: 3 } }, first: 3, offset: 4) { slug rating } }');
    expect(data).toEqual({ queryPost: naive((r) => r.rating >= 3, undefined, false, 4, 3).map((r) => ({ slug: r.slug, rating: r.rating })) });
    expect(explain.slice(2)).toEqual(['  uid order by scan of the type, checking each node', '  page offset 4 first 3', '  ran scan of the type, checking each node (9 nodes checked)']);
  });

  it('has, ordered by another key, walks that key and checks presence', async () => {
    const { data, explain } = await explained('{ queryPost(filter: { has: [summary] }, order: { desc: score }, first: 3, offset: 2) { slug score } }');
    expect(data).toEqual({ queryPost: naive((r) => r.summary !== undefined, 'score', true, 2, 3).map((r) => ({ slug: r.slug, score: r.score })) });
    expect(explain.at(-1)).toBe('  ran walk int index, checking each node (8 nodes checked)');
  });

  it('has paged again and again comes from the has list in its own order once that pays, and follows a write to the order key', async () => {
    const q = 'query ($o: Int) { queryPost(filter: { has: [summary] }, order: { desc: score }, first: 5, offset: $o) { slug score } }';
    const expected = (o: number): unknown => ({ queryPost: naive((r) => r.summary !== undefined, 'score', true, o, 5).map((r) => ({ slug: r.slug, score: r.score })) });
    const ran: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { data, explain } = await explained(q, { o: i % 10 });
      expect(data).toEqual(expected(i % 10));
      ran.push(String(explain.at(-1)));
    }
    // Walks first (each paying rent toward ordering the 40-id list), then slices of its cached order.
    expect(ran[0]).toMatch(/^ {2}ran walk int index, checking each node/);
    expect(ran.at(-1)).toBe('  ran the smallest list in page order (its first k cached) checking the filter per node: 14 visited, 14 kept');
    // The order was bought for every page the cache keeps, not for the page that bought it: a later, longer page is a slice too.
    const far = await explained(q, { o: 30 });
    expect(far.data).toEqual(expected(30));
    expect(far.explain.at(-1)).toBe('  ran the smallest list in page order (its first k cached) checking the filter per node: 35 visited, 35 kept');
    // p0 (score 0, with a summary) moves to the top: the cached order is dropped with the column's write.
    const moved = await post('mutation { updatePost(input: { filter: { slug: { eq: "p0" } }, set: { score: 1000 } }) { numUids } }');
    expect(moved['data']).toEqual({ updatePost: { numUids: 1 } });
    const first = rows[0] as Row;
    first.score = 1000;
    try {
      for (let i = 0; i < 40; i++) expect((await post(q, { o: i % 10 }))['data']).toEqual(expected(i % 10));
    } finally {
      first.score = 0;
      expect((await post('mutation { updatePost(input: { filter: { slug: { eq: "p0" } }, set: { score: 0 } }) { numUids } }'))['data']).toEqual({ updatePost: { numUids: 1 } });
    }
  });

  it('has paged from its list in a string order keeps missing values last, as the walk does', async () => {
    // Every post has a rating; a third have no summary.
    const q = 'query ($o: Int) { queryPost(filter: { has: [rating] }, order: { asc: summary }, first: 4, offset: $o) { slug } }';
    const ran: string[] = [];
    for (let i = 0; i < 60; i++) {
      const o = (i * 7) % 57; // up to the last page, where the posts without a summary come
      const { data, explain } = await explained(q, { o });
      expect(data).toEqual({ queryPost: naive(() => true, 'summary', false, o, 4).map((r) => ({ slug: r.slug })) });
      ran.push(String(explain.at(-1)));
    }
    expect(ran.at(-1)).toMatch(/^ {2}ran the smallest list in page order \(its first k cached\)/);
  });

  it('an interface query walks the shared DateTime index over every implementing type, in time order', async () => {
    const q = 'query ($min: DateTime!, $max: DateTime!) { queryDated(filter: { published: { between: { min: $min, max: $max } } }, order: { desc: published }, first: 4) { published ... on Post { slug } ... on Event { name } } }';
    const { data, explain } = await explained(q, { min: day(8), max: day(12) });
    // days 12, 11, 10 (a post and the event e0, the post first: ties in uid order), 8 (day 9's post has no date)
    expect(data).toEqual({
      queryDated: [
        { published: day(12), slug: 'p12' },
        { published: day(11), slug: 'p11' },
        { published: day(10), slug: 'p10' },
        { published: day(10), name: 'e0' },
      ],
    });
    expect(explain.at(-1)).toBe('  ran walk year index from the range bound, checking each node (4 nodes checked)');
  });

  it('DateTime bounds in any accepted layout compare as instants (date only, offsets, fractions), ends inclusive or not', async () => {
    const at = (text: string): number => Date.parse(text);
    const page = 'query ($min: DateTime!, $max: DateTime!) { queryPost(filter: { published: { between: { min: $min, max: $max } } }, order: { desc: score }, first: 20) { slug } }';
    const count = 'query ($gt: DateTime!, $le: DateTime!) { aggregatePost(filter: { and: [{ published: { gt: $gt } }, { published: { le: $le } }] }) { count } }';
    const bounds = [
      ['2024-01-21', '2024-01-23T00:00:00Z'],
      ['2024-01-21T05:30:00+05:30', '2024-01-22T19:00:00-05:00'],
      ['2024-01-20T23:59:59.5Z', '2024-01-23T00:00:00.000Z'],
      ['2024-01-21T00:00:00.5Z', '2024-02-01T00:00:00Z'],
    ];
    for (const [min, max] of bounds as [string, string][]) {
      const within = (r: Row, lowIncl: boolean): boolean => r.published !== undefined && (lowIncl ? at(r.published) >= at(min) : at(r.published) > at(min)) && at(r.published) <= at(max);
      expect((await post(page, { min, max }))['data']).toEqual({ queryPost: naive((r) => within(r, true), 'score', true, 0, 20).map((r) => ({ slug: r.slug })) });
      expect((await post(count, { gt: min, le: max }))['data']).toEqual({ aggregatePost: { count: rows.filter((r) => within(r, false)).length } });
    }
  });

  it('an aggregate over a range walks it: count, max and a float average equal the naive ones', async () => {
    const { data, explain } = await explained('{ aggregatePost(filter: { score: { between: { min: 10, max: 40 } } }) { count scoreMax scoreMin ratingAvg ratingSum } }');
    const kept = rows.filter((r) => r.score >= 10 && r.score <= 40);
    const ratingSum = kept.reduce((a, r) => a + r.rating, 0);
    expect(data).toEqual({ aggregatePost: { count: kept.length, scoreMax: 40, scoreMin: 10, ratingAvg: ratingSum / kept.length, ratingSum } });
    expect(explain).toEqual(['aggregatePost: Post', '  between score via int [20] checked', `  ran walk score int index through the range, checking each node, the matches put in uid order for a Sum/Avg (${kept.length} nodes checked)`]);
    // Without a Sum or Avg the matches are reduced as walked: no sort.
    const bare = await explained('{ aggregatePost(filter: { score: { between: { min: 10, max: 40 } } }) { count scoreMax ratingMin ratingMax } }');
    const ratings = kept.map((r) => r.rating);
    expect(bare.data).toEqual({ aggregatePost: { count: kept.length, scoreMax: 40, ratingMin: Math.min(...ratings), ratingMax: Math.max(...ratings) } });
    expect(bare.explain.at(-1)).toBe(`  ran walk score int index through the range, checking each node, the matches reduced in walk order (${kept.length} nodes checked)`);
  });

  it('follows writes: an updated date moves a node into the range, a deleted node leaves the walk', async () => {
    const q = 'query ($min: DateTime) { queryPost(filter: { published: { ge: $min } }, order: { asc: score }, first: 3) { slug } }';
    const before = await post(q, { min: day(50) });
    expect(before['data']).toEqual({ queryPost: [{ slug: 'p52' }, { slug: 'p53' }, { slug: 'p55' }] });
    const moved = await post('mutation { updatePost(input: { filter: { slug: { eq: "p1" } }, set: { published: "2030-01-01T00:00:00Z" } }) { numUids } }');
    expect(moved['data']).toEqual({ updatePost: { numUids: 1 } });
    const gone = await post('mutation { deletePost(filter: { slug: { eq: "p52" } }) { numUids } }');
    expect(gone['data']).toEqual({ deletePost: { numUids: 1 } });
    // p1 (score 7) now dated 2030, p52 (score 4) gone.
    const after = await explained(q, { min: day(50) });
    expect(after.data).toEqual({ queryPost: [{ slug: 'p1' }, { slug: 'p53' }, { slug: 'p55' }] });
    // The range holds 8 posts: walking it keeping the first 3 visits fewer nodes than a walk in score order.
    expect(after.explain.at(-1)).toBe('  ran walk published year index through the range, keeping the first 3 (8 nodes checked)');
  });
});
