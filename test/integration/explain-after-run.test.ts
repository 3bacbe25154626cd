// EXPLAIN over HTTP shows the plan that ran (`--debug`, `extensions: {explain: true}`): a get's key
// lookups and the node found; each filter node with its estimate and the ids it produced, the page step the estimates pick, and the step
// that actually ran for the real candidate count. Before, EXPLAIN printed the estimated step only,
// so a query whose real count made it run top-k was described as an index walk.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `type Post { id: ID!  title: String! @search(by: [hash])  likes: Int @search  published: Boolean @search }
type Author { id: ID!  handle: String! @id  age: Int! @id }`;

interface Row {
  title: string;
  likes: number;
  published: boolean;
}

// 300 posts: likes i % 50 (keys 50, so a range is estimated at a third: 100), published 2 in 3.
const rows: Row[] = Array.from({ length: 300 }, (_, i) => ({ title: `p${i}`, likes: i % 50, published: i % 3 !== 0 }));

let server: ServerProcess;
let authorIds: string[] = [];

beforeAll(async () => {
  // One thread: a plan's cached first k is per thread (README, Threads), and two requests may reach two threads.
  server = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
  const added = await post('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input: rows });
  expect(added['data']).toEqual({ addPost: { numUids: 300 } });
  const authors = await post('mutation { addAuthor(input: [{ handle: "ann", age: 30 }, { handle: "bob", age: 40 }]) { author { id handle } } }');
  authorIds = ((authors['data'] as { addAuthor: { author: { id: string; handle: string }[] } }).addAuthor.author).map((a) => a.id);
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

const post = (query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<Record<string, unknown>> => askGraphql(server.url, query, variables, extensions);

/** The naive answer: rows kept by `keep`, by likes descending then insertion (id) order, first `n`. */
function naive(keep: (row: Row) => boolean, n: number): { title: string; likes: number }[] {
  const kept = rows.map((row, i) => ({ row, i })).filter(({ row }) => keep(row));
  kept.sort((a, b) => b.row.likes - a.row.likes || a.i - b.i);
  return kept.slice(0, n).map(({ row }) => ({ title: row.title, likes: row.likes }));
}

const byLikes = 'query ($min: Int) { queryPost(filter: { likes: { ge: $min } }, order: { desc: likes }, first: 5) { title likes } }';
// `published` (a Boolean index) is not checked in place, so no streamed page: collected, or walked checking per node.
const byLikesPublished = 'query ($min: Int) { queryPost(filter: { likes: { ge: $min }, published: true }, order: { desc: likes }, first: 5) { title likes } }';

describe('EXPLAIN after the run', () => {
  it('walks the order index from the range bound, checking per node, collecting no candidates', async () => {
    const answer = await post(byLikes, { min: 45 }, { explain: true });
    expect(answer['data']).toEqual({ queryPost: naive((r) => r.likes >= 45, 5) });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        '  ge likes via int [100] checked',
        '  order desc likes by walk int index from the range bound, checking each node',
        '  page offset 0 first 5',
        '  ran walk int index from the range bound, checking each node (5 nodes checked)',
      ].join('\n'),
    );
  });

  it('the same plan, reused for values matching nothing, walks an empty range', async () => {
    const answer = await post(byLikes, { min: 50 }, { explain: true });
    expect(answer['data']).toEqual({ queryPost: [] });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        '  ge likes via int [100] checked',
        '  order desc likes by walk int index from the range bound, checking each node',
        '  page offset 0 first 5',
        '  ran walk int index from the range bound, checking each node (0 nodes checked)',
      ].join('\n'),
    );
  });

  it("shows an intersection with each node's ids", async () => {
    const query = '{ queryPost(filter: { published: true, likes: { lt: 10 } }, order: { asc: likes }, first: 3) { title likes } }';
    const answer = await post(query, undefined, { explain: true });
    expect(answer['data']).toEqual({ queryPost: [{ title: 'p50', likes: 0 }, { title: 'p100', likes: 0 }, { title: 'p200', likes: 0 }] });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        '  intersect [100] checked',
        '    lt likes via int [100] checked',
        '    eq published via bool [150] got 200',
        '  order asc likes by walk int index',
        '  page offset 0 first 3',
        '  ran walk int index checking the filter per node: 5 visited, 3 kept',
      ].join('\n'),
    );
  });

  it('says when the page came from the cached first k of the same candidates', async () => {
    const query = '{ queryPost(order: { desc: likes }, first: 2) { title likes } }';
    const explain = (cached: string) =>
      ['queryPost: Post', '  scan type Post [300] got 300', '  order desc likes by walk int index', '  page offset 0 first 2', `  ran walk int index over 300 candidates${cached}`].join('\n');
    const first = await post(query, undefined, { explain: true });
    const again = await post(query, undefined, { explain: true });
    expect(first['data']).toEqual({ queryPost: naive(() => true, 2) });
    expect(again['data']).toEqual(first['data']);
    expect((first['extensions'] as Record<string, unknown>)['explain']).toBe(explain(''));
    expect((again['extensions'] as Record<string, unknown>)['explain']).toBe(explain(' (cached prefix)'));
  });

  it('get<T>: one key lookup per supplied key, by uid or through the @id index, and what it found', async () => {
    const query = 'query ($id: ID, $h: String, $a: Int) { getAuthor(id: $id, handle: $h, age: $a) { handle } }';
    const [ann, bob] = authorIds as [string, string];
    const byHandle = await post(query, { h: 'bob' }, { explain: true });
    expect(byHandle['data']).toEqual({ getAuthor: { handle: 'bob' } });
    expect((byHandle['extensions'] as Record<string, unknown>)['explain']).toBe(['getAuthor: Author', '  lookup handle via hash', `  ran: found ${bob}`].join('\n'));
    // Every supplied key must find the same node: ann's id with bob's age finds none.
    const mixed = await post(query, { id: ann, a: 40 }, { explain: true });
    expect(mixed['data']).toEqual({ getAuthor: null });
    expect((mixed['extensions'] as Record<string, unknown>)['explain']).toBe(['getAuthor: Author', '  lookup id (uid)', '  lookup age via int', '  ran: no node'].join('\n'));
    const both = await post(query, { id: ann, h: 'ann', a: 30 }, { explain: true });
    expect(both['data']).toEqual({ getAuthor: { handle: 'ann' } });
    expect((both['extensions'] as Record<string, unknown>)['explain']).toBe(
      ['getAuthor: Author', '  lookup id (uid)', '  lookup handle via hash', '  lookup age via int', `  ran: found ${ann}`].join('\n'),
    );
  });
});

describe('EXPLAIN after the run: a filter not checkable in place', () => {
  // The plan is the same for every value; the run decides by cost, with the range's size for this
  // request's bound (filter-check.ts rangeEstimate). A walk visit costs about 16 collected ids
  // (order-plan.ts checkedVisitCost). likes ≥ 45 holds ~30 posts: collecting them (20 match) costs
  // less than walking ~8 entries. likes ≥ 0 holds every post and the range holds the walk's start: the
  // walk meets published posts (2 in 3) at once and visits 8 entries, where collecting would gather
  // the 300 and 200 ids and then walk the index anyway.
  it('collects the intersection when the walk would cost more (likes ≥ 45)', async () => {
    const answer = await post(byLikesPublished, { min: 45 }, { explain: true });
    expect(answer['data']).toEqual({ queryPost: naive((r) => r.likes >= 45 && r.published, 5) });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        '  intersect [100] got 20',
        '    ge likes via int [100] got 30',
        '    eq published via bool [150] got 200',
        '  order desc likes by walk int index',
        '  page offset 0 first 5',
        '  ran sort over 20 candidates',
      ].join('\n'),
    );
  });

  it('walks the order index checking each node when the range holds the walk\'s start (likes ≥ 0)', async () => {
    const answer = await post(byLikesPublished, { min: 0 }, { explain: true });
    expect(answer['data']).toEqual({ queryPost: naive((r) => r.published, 5) });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        '  intersect [100] checked',
        '    ge likes via int [100] checked',
        '    eq published via bool [150] got 200',
        '  order desc likes by walk int index',
        '  page offset 0 first 5',
        '  ran walk int index checking the filter per node: 8 visited, 5 kept',
      ].join('\n'),
    );
  });
});
