// Boolean trees and term lists over HTTP: `and`/`or`/`not` of term and range conditions and
// `anyofterms`, ordered and paged, answered exactly (a naive scan of the written rows) while the
// order index is walked with the filter checked per node, as EXPLAIN must show. Also: a removed
// number must not keep ordering its node (the column kept the old value in its typed array, and
// top-k over that array read it as present).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `type Post { id: ID!  title: String! @search(by: [term, hash])  likes: Int @search  score: Float  code: String @search(by: [regexp]) }`;

interface Row {
  title: string;
  likes: number;
  score: number;
  code: string;
}

const words = ['red', 'green', 'blue', 'gold'];
// 400 posts: each colour in every 4th title, `rare` in every 40th; likes i % 37 (ties), score i, code k<i>.
const rows: Row[] = Array.from({ length: 400 }, (_, i) => ({ title: `${words[i % 4]} ${i % 40 === 0 ? 'rare' : 'plain'} p${i}`, likes: i % 37, score: i, code: `k${i}` }));

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
  const added = await post('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input: rows });
  expect(added['data']).toEqual({ addPost: { numUids: 400 } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

const post = (query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<Record<string, unknown>> => askGraphql(server.url, query, variables, extensions);

const has = (row: Row, word: string): boolean => row.title.split(' ').includes(word);

/** Rows kept, by likes descending then insertion order, the page. */
function naive(keep: (row: Row) => boolean, offset: number, first: number): { title: string; likes: number }[] {
  const kept = rows.map((row, i) => ({ row, i })).filter(({ row }) => keep(row));
  kept.sort((a, b) => b.row.likes - a.row.likes || a.i - b.i);
  return kept.slice(offset, offset + first).map(({ row }) => ({ title: row.title, likes: row.likes }));
}

describe('boolean trees and term lists, checked per node on an order walk', () => {
  it('and: [allofterms, likes gt], desc likes: exact page, the walk checks the whole tree', async () => {
    const query = 'query ($t: String!, $gt: Int!) { queryPost(filter: { and: [{ title: { allofterms: $t } }, { likes: { gt: $gt } }] }, order: { desc: likes }, first: 1) { title likes } }';
    const answer = await post(query, { t: 'gold', gt: 5 }, { explain: true });
    expect(answer['data']).toEqual({ queryPost: naive((r) => has(r, 'gold') && r.likes > 5, 0, 1) });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        // Estimates per index (unique `p<i>` terms make a term's one); the run bounds the filter by the postings.
        '  intersect [3] checked',
        '    allofterms title via term [3] checked',
        '    gt likes via int [134] checked',
        '  order desc likes by sort',
        '  page offset 0 first 1',
        '  ran walk int index checking the filter per node: 4 visited, 1 kept',
      ].join('\n'),
    );
  });

  it('and: [or: [allofterms a, allofterms b], not: likes lt], with an offset: exact page through the walk', async () => {
    const query =
      'query ($a: String!, $b: String!, $lt: Int!) { queryPost(filter: { and: [{ or: [{ title: { allofterms: $a } }, { title: { allofterms: $b } }] }, { not: { likes: { lt: $lt } } }] }, order: { desc: likes }, first: 1, offset: 1) { title likes } }';
    const answer = await post(query, { a: 'green', b: 'rare red', lt: 30 }, { explain: true });
    expect(answer['data']).toEqual({ queryPost: naive((r) => (has(r, 'green') || (has(r, 'rare') && has(r, 'red'))) && !(r.likes < 30), 1, 1) });
    const explain = String((answer['extensions'] as Record<string, unknown>)['explain']);
    expect(explain.split('\n').at(-1)).toMatch(/^ {2}ran walk int index checking the filter per node: \d+ visited, 2 kept$/);
  });

  it('anyofterms past the last match: an empty page, collected after the walk runs out', async () => {
    const query = '{ queryPost(filter: { title: { anyofterms: "rare blue" } }, order: { desc: likes }, first: 5, offset: 110) { title likes } }';
    const answer = await post(query);
    expect(answer['data']).toEqual({ queryPost: naive((r) => has(r, 'rare') || has(r, 'blue'), 110, 5) });
    expect(answer['data']).toEqual({ queryPost: [] });
  });

  it('an intersection checks its much larger range on the rare term, unordered', async () => {
    const answer = await post('{ queryPost(filter: { title: { allofterms: "rare" }, likes: { ge: 10 } }) { title } }', undefined, { explain: true });
    const expected = rows.filter((r) => has(r, 'rare') && r.likes >= 10).map((r) => ({ title: r.title }));
    expect(answer['data']).toEqual({ queryPost: expected });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        `  intersect [3] got ${expected.length}`,
        '    allofterms title via term [3] got 10',
        '    ge likes via int [134] checked',
        `  ran unordered page over ${expected.length} candidates`,
      ].join('\n'),
    );
  });
});

describe('unordered pages of term lists', () => {
  it('allofterms two common words, first 3 offset 1: uid order from the smaller list, stopping at the page', async () => {
    const answer = await post('{ queryPost(filter: { title: { allofterms: "plain red" } }, first: 3, offset: 1) { title } }', undefined, { explain: true });
    const expected = rows.filter((r) => has(r, 'red') && has(r, 'plain')).slice(1, 4).map((r) => ({ title: r.title }));
    expect(answer['data']).toEqual({ queryPost: expected });
    // `red` (100 posts) is scanned: p0 (rare, not plain) fails, p4, p8, p12, p16 pass.
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      [
        'queryPost: Post',
        '  allofterms title via term [3] checked',
        '  page offset 1 first 3',
        '  ran unordered page from the smallest list checking the filter per node: 5 visited, 4 kept',
      ].join('\n'),
    );
  });

  it('a pair expected to match few posts is collected instead (the scan would visit most of the smaller list)', async () => {
    const answer = await post('{ queryPost(filter: { title: { allofterms: "red rare" } }, first: 3, offset: 1) { title } }', undefined, { explain: true });
    const expected = rows.filter((r) => has(r, 'red') && has(r, 'rare')).slice(1, 4).map((r) => ({ title: r.title }));
    expect(answer['data']).toEqual({ queryPost: expected });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      ['queryPost: Post', '  allofterms title via term [3] got 10', '  page offset 1 first 3', '  ran unordered page over 10 candidates'].join('\n'),
    );
  });
});

describe('regexp pages', () => {
  it('unordered first 2: the trigram candidates scanned in uid order, each verified, stopping at the page', async () => {
    // `k12` is held by k12 and k120..k129; only k12 ends with it: all 11 are verified, 1 kept.
    const answer = await post('{ queryPost(filter: { code: { regexp: "/k12$/" } }, first: 2) { code } }', undefined, { explain: true });
    expect(answer['data']).toEqual({ queryPost: [{ code: 'k12' }] });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(
      ['queryPost: Post', '  regexp code via trigram [2] checked', '  page offset 0 first 2', '  ran unordered page from the smallest list checking the filter per node: 11 visited, 1 kept'].join('\n'),
    );
    const prefix = await post('{ queryPost(filter: { code: { regexp: "/^k12/" } }, first: 2) { code } }');
    expect(prefix['data']).toEqual({ queryPost: [{ code: 'k12' }, { code: 'k120' }] });
  });

  it('an invalid pattern or flag gets the same error on the checked path', async () => {
    for (const [regexp, message] of [
      ['/(?=abc)abc/', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
      ['/abc/g', 'Invalid regexp modifier: g'],
      ['abc', 'regexp filter expects a value of the form /pattern/flags, got: abc'],
    ] as const) {
      const answer = await post('query ($r: String) { queryPost(filter: { code: { regexp: $r } }, first: 2) { code } }', { r: regexp });
      expect(answer).toEqual({ errors: [{ message, locations: [{ line: 1, column: 22 }], path: ['queryPost'] }], data: { queryPost: null } });
    }
  });
});

describe('a removed number', () => {
  it('no longer orders its node (top-k over the typed column)', async () => {
    const removed = await post('mutation { updatePost(input: { filter: { title: { allofterms: "p399" } }, remove: { score: 399 } }) { numUids } }');
    expect(removed['data']).toEqual({ updatePost: { numUids: 1 } });
    const answer = await post('{ queryPost(filter: { title: { anyofterms: "red green blue gold" } }, order: { desc: score }, first: 2) { title score } }');
    expect(answer['data']).toEqual({ queryPost: [{ title: rows[398]?.title, score: 398 }, { title: rows[397]?.title, score: 397 }] });
  });
});
