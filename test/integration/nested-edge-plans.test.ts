// Nested edges over HTTP: an edge's filter, order and page run over the parent's own targets — the
// filter as a per-candidate check when that is cheaper than the index lookups over the whole type
// (plan/filter-plan.ts chooseFilterStep) — on @hasInverse edges, on `@dgraph(pred: "~p")` reverse
// edges, in nested aggregates and under `query<T>` with many parents. Answers are compared with the
// data written; EXPLAIN (`--debug`) must show the check step that ran, per edge occurrence.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `type Author { id: ID!  handle: String! @id  posts: [Post] @hasInverse(field: author) }
type Post { id: ID!  title: String! @search(by: [hash])  body: String @search(by: [term])  score: Int @search  rating: Float @search  author: Author  editedBy: [Editor] @dgraph(pred: "~edits") }
type Editor { id: ID!  name: String! @id  age: Int @search  edits: [Post] @dgraph(pred: "edits") }`;

interface PostRow {
  title: string;
  score?: number;
  rating: number;
  author: string;
}

// Author a: 12 posts, b: 8, c: none; "bulk": 280 more, so the type is large and each index lookup
// selects far more posts than a parent has targets.
const posts: PostRow[] = [];
for (let i = 0; i < 12; i++) posts.push({ title: `a${i}`, ...(i === 4 ? {} : { score: (i * 7) % 10 }), rating: i / 4, author: 'a' });
for (let i = 0; i < 8; i++) posts.push({ title: `b${i}`, score: 20 - i, rating: i, author: 'b' });
for (let i = 0; i < 280; i++) posts.push({ title: `x${i}`, score: i % 50, rating: i % 13, author: 'bulk' });
const scored = posts.filter((p) => p.score !== undefined).length;

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
  await post('mutation { addAuthor(input: [{ handle: "a" }, { handle: "b" }, { handle: "c" }, { handle: "bulk" }]) { numUids } }');
  const input = posts.map((p, i) => ({ title: p.title, body: `w${i % 3} w${i % 5}`, score: p.score, rating: p.rating, author: { handle: p.author } }));
  const added = await post('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
  expect(added['data']).toEqual({ addPost: { numUids: 300 } });
  // 60 editors aged 0..59; editor i < 30 edits posts a(i % 12), a((i + 5) % 12), the others none.
  const editors = Array.from({ length: 60 }, (_, i) => ({ name: `e${i}`, age: i, edits: i < 30 ? [{ title: `a${i % 12}` }, { title: `a${(i + 5) % 12}` }] : [] }));
  const ids = (await post('{ queryPost(filter: { title: { in: ["a0","a1","a2","a3","a4","a5","a6","a7","a8","a9","a10","a11"] } }) { id title } }'))['data'] as { queryPost: { id: string; title: string }[] };
  const idOf = new Map(ids.queryPost.map((p) => [p.title, p.id]));
  const withIds = editors.map((e) => ({ ...e, edits: e.edits.map((p) => ({ id: idOf.get(p.title) })) }));
  const edited = await post('mutation ($input: [AddEditorInput!]!) { addEditor(input: $input) { numUids } }', { input: withIds });
  expect(edited['data']).toEqual({ addEditor: { numUids: 60 } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

async function post(query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<Record<string, unknown>> {
  const body = await askGraphql(server.url, query, variables, extensions);
  expect(body['errors']).toBeUndefined();
  return body;
}

const explainOf = (body: Record<string, unknown>): string => (body['extensions'] as Record<string, string>)['explain'] ?? '';
const postsOf = (handle: string): PostRow[] => posts.filter((p) => p.author === handle);
/** Score descending, missing scores last, ties in insertion (uid) order. */
const byScoreDesc = (list: PostRow[]): PostRow[] =>
  list.map((p, i) => ({ p, i })).sort((x, y) => (y.p.score ?? -Infinity) - (x.p.score ?? -Infinity) || x.i - y.i).map(({ p }) => p);

describe('nested edge plans', () => {
  it('getAuthor(handle) { posts(filter score gt, order desc score, first 3) }: checked over the 12 targets', async () => {
    const body = await post(
      'query ($h: String!, $gt: Int!) { getAuthor(handle: $h) { handle posts(filter: { score: { gt: $gt } }, order: { desc: score }, first: 3, offset: 1) { title score } } }',
      { h: 'a', gt: 3 },
      { explain: true },
    );
    const expected = byScoreDesc(postsOf('a').filter((p) => (p.score ?? -1) > 3)).slice(1, 4).map((p) => ({ title: p.title, score: p.score }));
    expect(body['data']).toEqual({ getAuthor: { handle: 'a', posts: expected } });
    const kept = postsOf('a').filter((p) => (p.score ?? -1) > 3).length;
    expect(explainOf(body)).toContain(
      [`Author.posts: Post per parent (1 parents, 12 targets, ${kept} kept)`, `  gt score via int [${Math.ceil(scored / 3)}]`, '  ran filter by check (1)', '  ran page by sort (1)'].join('\n'),
    );
  });

  it('postsAggregate(filter rating gt) { count scoreMax }: counted over the targets, missing scores skipped', async () => {
    const body = await post('{ getAuthor(handle: "a") { postsAggregate(filter: { rating: { gt: 0.5 } }) { count scoreMax scoreMin } } }', undefined, { explain: true });
    const found = postsOf('a').filter((p) => p.rating > 0.5);
    const scores = found.flatMap((p) => (p.score === undefined ? [] : [p.score]));
    expect(body['data']).toEqual({ getAuthor: { postsAggregate: { count: found.length, scoreMax: Math.max(...scores), scoreMin: Math.min(...scores) } } });
    expect(explainOf(body)).toContain(`Author.postsAggregate: Post per parent (1 parents, 12 targets, ${found.length} kept)\n  gt rating via float [100]\n  ran filter by check (1)`);
  });

  it('queryAuthor(order asc handle, first, offset) { posts(order asc score, first 2) }: many parents, empty ones too', async () => {
    const body = await post('{ queryAuthor(order: { asc: handle }, first: 3, offset: 1) { handle posts(filter: { score: { le: 15 } }, order: { asc: score }, first: 2) { title score } } }', undefined, {
      explain: true,
    });
    const page = (h: string) =>
      postsOf(h)
        .filter((p) => p.score !== undefined && p.score <= 15)
        .map((p, i) => ({ p, i }))
        .sort((x, y) => (x.p.score as number) - (y.p.score as number) || x.i - y.i)
        .slice(0, 2)
        .map(({ p }) => ({ title: p.title, score: p.score }));
    expect(body['data']).toEqual({ queryAuthor: ['b', 'bulk', 'c'].map((handle) => ({ handle, posts: page(handle) })) });
    // bulk's 280 targets are looked up (the range selects fewer posts than checking them costs); b and c are checked.
    expect(explainOf(body)).toContain('Author.posts: Post per parent (3 parents, 288 targets, ');
    expect(explainOf(body)).toContain('  ran filter by check (2), index (1)\n  ran page by sort (2), top-k (1)');
  });

  it('an allofterms edge filter is checked in the terms’ postings over the targets', async () => {
    const body = await post('{ getAuthor(handle: "a") { posts(filter: { body: { allofterms: "w1 w2" } }) { title } } }', undefined, { explain: true });
    // Post i of the 300 has body "w(i % 3) w(i % 5)": among a's twelve (i = 0..11), a7 ("w1 w2") and a11 ("w2 w1").
    expect(body['data']).toEqual({ getAuthor: { posts: [{ title: 'a7' }, { title: 'a11' }] } });
    expect(explainOf(body)).toMatch(/Author\.posts: Post per parent \(1 parents, 12 targets, 2 kept\)\n {2}allofterms body via term \[\d+\]\n {2}ran filter by check \(1\)/);
  });

  it('a reverse edge (@dgraph(pred: "~edits")) filtered and ordered over its targets', async () => {
    const body = await post('{ queryPost(filter: { title: { eq: "a3" } }) { title editedBy(filter: { age: { ge: 10 } }, order: { desc: age }) { name age } } }', undefined, { explain: true });
    // a3 is edited by editors i with i % 12 === 3 or (i + 5) % 12 === 3: 3, 15, 27 and 10, 22.
    expect(body['data']).toEqual({ queryPost: [{ title: 'a3', editedBy: [27, 22, 15, 10].map((age) => ({ name: `e${age}`, age })) }] });
    expect(explainOf(body)).toContain('Post.editedBy: Editor per parent (1 parents, 5 targets, 4 kept)\n  ge age via int [20]\n  ran filter by check (1)\n  ran page by sort (1)');
  });
});
