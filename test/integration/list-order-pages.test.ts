// Ordered pages read from index lists' own cached order: `anyofterms`/`anyoftext` (and `or`s of them)
// from each term list's first k, never from the built union (exec/order-page.ts firstKOfLists); an
// `allofterms` with other conditions from its smallest list in page order, testing the rest per id
// (exec/checked-walk.ts walkListOrder). Every page is compared with a naive scan: ties broken by uid,
// nodes without the order key last, ids in several lists once, offsets past the first prefixes, a
// number key (typed-array path) and a string key (general path), and after writes to the order column
// and to the lists. An `ngram` phrase the same way: its grams' lists are a union like anyofterms'.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `type Post { id: ID!  title: String! @search(by: [term])  body: String @search(by: [fulltext])  score: Int  name: String  rank: Int @search  summary: String @search(by: [ngram]) }`;

interface Row {
  title: string;
  body: string;
  score?: number;
  name?: string;
  rank: number;
  summary?: string;
}

const words = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove'];
// Deterministic rows: 2–3 words each (lists of ~200–350 of 700), scores 0–19 (many ties), every 9th
// without a score and every 7th without a name (missing keys sort last).
let seed = 7;
const next = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const rows: Row[] = Array.from({ length: 700 }, (_, i) => {
  const title = Array.from({ length: 2 + next(2) }, () => words[next(words.length)] as string).join(' ');
  return {
    title,
    body: `${title} walking`,
    summary: title,
    rank: next(20),
    ...(i % 9 === 4 ? {} : { score: next(20) }),
    ...(i % 7 === 3 ? {} : { name: `n${String(next(60)).padStart(2, '0')}` }),
  };
});

let server: ServerProcess;

beforeAll(async () => {
  // One thread: EXPLAIN shows per-thread plan caches (README, Threads), and two requests may reach two threads.
  server = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
  const added = await askGraphql(server.url, 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input: rows });
  expect(added['data']).toEqual({ addPost: { numUids: rows.length } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

type Key = 'score' | 'name';

/** The naive page: rows holding any of `terms` (and passing `also`), by `key` (missing last, ties by insertion order = uid). */
function naive(
  terms: readonly string[],
  key: Key,
  desc: boolean,
  offset: number,
  first: number,
  also: (row: Row) => boolean = () => true,
): { title: string; score: number | null; name: string | null }[] {
  const kept = rows.map((row, i) => ({ row, i })).filter(({ row }) => terms.some((t) => row.title.split(' ').includes(t)) && also(row));
  kept.sort((a, b) => {
    const x = a.row[key];
    const y = b.row[key];
    if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0) || a.i - b.i;
    const c = x < y ? -1 : x > y ? 1 : 0;
    return (desc ? -c : c) || a.i - b.i;
  });
  return kept.slice(offset, offset + first).map(({ row }) => ({ title: row.title, score: row.score ?? null, name: row.name ?? null }));
}

const page = async (filter: string, key: Key, desc: boolean, offset: number, first: number): Promise<unknown> => {
  const answer = await askGraphql(
    server.url,
    `query ($o: Int, $f: Int) { queryPost(filter: ${filter}, order: { ${desc ? 'desc' : 'asc'}: ${key} }, offset: $o, first: $f) { title score name } }`,
    { o: offset, f: first },
  );
  expect(answer['errors']).toBeUndefined();
  return (answer['data'] as { queryPost: unknown }).queryPost;
};

describe('ordered pages of a union of term lists', () => {
  const cases: [string[], Key, boolean, number, number][] = [];
  for (const [terms, key, desc] of [
    [['amber', 'birch'], 'score', true],
    [['amber', 'birch'], 'score', false],
    [['cedar', 'delta', 'ember'], 'score', true],
    [['fjord', 'grove', 'amber', 'cedar'], 'score', false],
    [['birch', 'delta'], 'name', false],
    [['ember', 'fjord', 'grove'], 'name', true],
  ] as [string[], Key, boolean][]) {
    for (const [offset, first] of [[0, 1], [0, 10], [7, 10], [45, 10], [120, 5], [0, 40]] as const) cases.push([terms, key, desc, offset, first]);
  }

  it.each(cases)('anyofterms %j by %s (desc %s) offset %i first %i equals the naive scan', async (terms, key, desc, offset, first) => {
    expect(await page(`{ title: { anyofterms: "${terms.join(' ')}" } }`, key, desc, offset, first)).toEqual(naive(terms, key, desc, offset, first));
    // Asked twice: the second answer comes from the cached first k of each list.
    expect(await page(`{ title: { anyofterms: "${terms.join(' ')}" } }`, key, desc, offset, first)).toEqual(naive(terms, key, desc, offset, first));
  });

  it('an `or` of anyofterms is one union of all their lists', async () => {
    const filter = '{ or: [{ title: { anyofterms: "amber" } }, { title: { anyofterms: "grove delta" } }] }';
    for (const [offset, first] of [[0, 10], [33, 7]] as const) expect(await page(filter, 'score', true, offset, first)).toEqual(naive(['amber', 'grove', 'delta'], 'score', true, offset, first));
  });

  it('anyoftext (stemmed lists) the same way', async () => {
    const answer = await askGraphql(server.url, '{ queryPost(filter: { body: { anyoftext: "cedars embers" } }, order: { desc: score }, first: 12, offset: 3) { title score name } }');
    expect((answer['data'] as { queryPost: unknown }).queryPost).toEqual(naive(['cedar', 'ember'], 'score', true, 3, 12));
  });

  it('EXPLAIN says the page came from the first k of each list, none materialised', async () => {
    const query = '{ queryPost(filter: { title: { anyofterms: "amber birch" } }, order: { desc: score }, first: 10) { title } }';
    const explain = async (): Promise<unknown> => ((await askGraphql(server.url, query, undefined, { explain: true }))['extensions'] as Record<string, unknown>)['explain'];
    // The first k of both lists: 10 each, at most 20 merged.
    const lines = (cached: string): string =>
      [
        'queryPost: Post',
        '  anyofterms title via term [186] lists read for their first k',
        '  order desc score by top-k',
        '  page offset 0 first 10',
        `  ran top-k over 20 candidates: the first k of each of 2 lists${cached}`,
      ].join('\n');
    const first = await explain();
    expect([lines(''), lines(' (cached)')]).toContain(first);
    expect(await explain()).toBe(lines(' (cached)'));
  });
});

/** Rows whose summary holds the phrase's words next to each other (a phrase of at most 3 words is one gram). */
const holdsPhrase = (phrase: string) => (row: Row) => ` ${row.summary ?? ''} `.includes(` ${phrase} `);

describe('ordered pages of an ngram phrase', () => {
  const cases: [string, Key, boolean, number, number][] = [];
  for (const [phrase, key, desc] of [
    ['amber birch', 'score', true],
    ['cedar delta', 'score', false],
    ['grove', 'score', true],
    ['ember fjord', 'name', true],
  ] as [string, Key, boolean][]) {
    for (const [offset, first] of [[0, 1], [0, 5], [3, 5], [0, 40]] as const) cases.push([phrase, key, desc, offset, first]);
  }

  it.each(cases)('ngram %j by %s (desc %s) offset %i first %i equals the naive scan', async (phrase, key, desc, offset, first) => {
    const expected = naive(phrase.split(' '), key, desc, offset, first, holdsPhrase(phrase));
    expect(await page(`{ summary: { ngram: "${phrase}" } }`, key, desc, offset, first)).toEqual(expected);
    expect(await page(`{ summary: { ngram: "${phrase}" } }`, key, desc, offset, first)).toEqual(expected);
  });

  it('EXPLAIN says the page came from the first k of the gram\'s list, none materialised', async () => {
    const size = rows.filter(holdsPhrase('birch amber')).length;
    const query = '{ queryPost(filter: { summary: { ngram: "birch amber" } }, order: { desc: score }, first: 4) { title } }';
    const explain = async (): Promise<string[]> => (((await askGraphql(server.url, query, undefined, { explain: true }))['extensions'] as Record<string, unknown>)['explain'] as string).split('\n');
    expect(size).toBeGreaterThan(8);
    await explain();
    const lines = await explain();
    expect(lines[1]).toMatch(/^ {2}ngram summary via ngram \[\d+\] lists read for their first k$/);
    expect([lines[0], ...lines.slice(2)]).toEqual(['queryPost: Post', '  order desc score by top-k', '  page offset 0 first 4', '  ran top-k over 4 candidates: the first k of each of 1 lists (cached)']);
  });
});

describe('ordered pages of an allofterms list with other conditions', () => {
  const within = (word: string) => (row: Row) => row.title.split(' ').includes(word);
  const cases: [string, Key, boolean, number, number, number][] = [];
  for (const [word, key, desc] of [
    ['amber', 'score', true],
    ['birch', 'score', false],
    ['cedar', 'name', true],
    ['delta', 'name', false],
  ] as [string, Key, boolean][]) {
    // `rank` thresholds passing most, half, and a few of the list; offsets past the first prefixes.
    for (const [gt, offset, first] of [[2, 0, 10], [10, 5, 10], [17, 0, 20], [10, 60, 10], [0, 150, 40]] as const) cases.push([word, key, desc, gt, offset, first]);
  }

  it.each(cases)('allofterms %s by %s (desc %s), rank gt %i, offset %i first %i equals the naive scan', async (word, key, desc, gt, offset, first) => {
    const filter = `{ and: [{ title: { allofterms: "${word}" } }, { rank: { gt: ${gt} } }] }`;
    const expected = naive([word], key, desc, offset, first, (row) => within(word)(row) && row.rank > gt);
    expect(await page(filter, key, desc, offset, first)).toEqual(expected);
    expect(await page(filter, key, desc, offset, first)).toEqual(expected);
  });

  it('EXPLAIN says the page walked the smallest list in its cached order', async () => {
    const answer = await askGraphql(
      server.url,
      '{ queryPost(filter: { and: [{ title: { allofterms: "amber" } }, { rank: { gt: 10 } }] }, order: { desc: score }, first: 5) { title } }',
      undefined,
      { explain: true },
    );
    const explain = (answer['extensions'] as Record<string, unknown>)['explain'] as string;
    expect(explain.split('\n').slice(0, 4)).toEqual(['queryPost: Post', '  intersect [186] checked', '    allofterms title via term [186] checked', '    gt rank via int [234] checked']);
    expect(explain).toMatch(/\n {2}ran the smallest list in page order \(its first k cached\) checking the filter per node: \d+ visited, 5 kept$/);
  });

  it('stays exact after the order column and the lists are written', async () => {
    // A new top score in the list, a node leaving it (its title rewritten), and a new node joining it.
    const ids = (await askGraphql(server.url, '{ queryPost(filter: { title: { allofterms: "amber" } }, order: { asc: score }, first: 2) { id title } }'))['data'] as {
      queryPost: { id: string; title: string }[];
    };
    const [low, second] = ids.queryPost as [{ id: string; title: string }, { id: string; title: string }];
    const at = (title: string): number => rows.findIndex((r) => r.title === title);
    const update = async (id: string, set: Record<string, unknown>): Promise<void> => {
      const answer = await askGraphql(server.url, 'mutation ($id: [ID!], $set: PostPatch) { updatePost(input: { filter: { id: $id }, set: $set }) { numUids } }', { id: [id], set });
      expect(answer['data']).toEqual({ updatePost: { numUids: 1 } });
    };
    const lowRow = rows[at(low.title)] as Row;
    const secondRow = rows[at(second.title)] as Row;
    await update(low.id, { score: 99 });
    lowRow.score = 99;
    await update(second.id, { title: 'grove grove' });
    secondRow.title = 'grove grove';
    const added = { title: 'amber fjord', body: 'amber fjord walking', score: 98, name: 'n99', rank: 12 };
    expect((await askGraphql(server.url, 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input: [added] }))['data']).toEqual({ addPost: { numUids: 1 } });
    rows.push(added);
    for (const [desc, offset, first] of [[true, 0, 10], [false, 0, 10], [true, 3, 30]] as const) {
      const filter = '{ and: [{ title: { allofterms: "amber" } }, { rank: { gt: 5 } }] }';
      expect(await page(filter, 'score', desc, offset, first)).toEqual(naive(['amber'], 'score', desc, offset, first, (row) => within('amber')(row) && row.rank > 5));
      expect(await page('{ title: { anyofterms: "amber grove" } }', 'score', desc, offset, first)).toEqual(naive(['amber', 'grove'], 'score', desc, offset, first));
    }
  });
});
