// Deleting nodes whose values share every token and key with other nodes' (issue #20's write shapes):
// each index must drop exactly the deleted node and keep the others findable. 40 posts hold the same
// values, so every token's list outgrows the small-array form (a PostingList / flexsearch array with
// removals pending in side sets); deleted from the front, the middle and the end, and deleted and added
// back in one request as the benchmark's delete shape does, then asked by each index's filter.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `
type Post {
  id: ID!
  slug: String! @id
  title: String! @search(by: [term])
  body: String! @search(by: [fulltext])
  summary: String @search(by: [ngram])
  code: String @search(by: [regexp])
  tag: String @search(by: [exact])
  score: Int! @search
  rating: Float @search
  published: DateTime @search
  place: Point @search
}
`;

const shared = {
  title: 'alpha beta gamma',
  body: 'the runners were running quickly home',
  summary: 'green apple pie recipe',
  code: 'k1234567',
  tag: 'shared',
  score: 7,
  rating: 1.5,
  published: '2021-03-04T05:06:07Z',
  place: { latitude: 10, longitude: 10 },
};
const other = { ...shared, title: 'delta', body: 'walking slowly', summary: 'red plum', code: 'q9999', tag: 'other', score: 8, rating: 3.5, published: '2019-01-01T00:00:00Z', place: { latitude: -40, longitude: 100 } };

const slugs = Array.from({ length: 40 }, (_, i) => `s${String(i).padStart(2, '0')}`);

/** One filter per index the posts are found by (every shared post matches each; `other` none). */
const filters: Readonly<Record<string, string>> = {
  term: '{ title: { allofterms: "beta alpha" } }',
  fulltext: '{ body: { alloftext: "run quickly" } }',
  ngram: '{ summary: { ngram: "apple pie" } }',
  regexp: '{ code: { regexp: "/^k123/" } }',
  exact: '{ tag: { eq: "shared" } }',
  int: '{ score: { eq: 7 } }',
  float: '{ rating: { between: { min: 1.0, max: 2.0 } } }',
  datetime: '{ published: { ge: "2021-01-01T00:00:00Z" } }',
  geo: '{ place: { near: { coordinate: { latitude: 10, longitude: 10 }, distance: 1000 } } }',
  hash: `{ slug: { in: [${slugs.map((s) => `"${s}"`).join(', ')}] } }`,
};

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
  const input = [...slugs.map((slug) => ({ slug, ...shared })), { slug: 'other', ...other }];
  const added = await askWithoutExtensions(server.url, 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
  expect(added).toEqual({ data: { addPost: { numUids: 41 } } });
});

afterAll(async () => {
  await server?.stop();
});

/** The slugs each index's filter finds, by index name. */
async function foundByEachIndex(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [name, filter] of Object.entries(filters)) {
    const answer = await askWithoutExtensions<{ data: { queryPost: { slug: string }[] } }>(server.url, `{ queryPost(filter: ${filter}, order: { asc: slug }, first: 100) { slug } }`);
    out[name] = answer.data.queryPost.map((p) => p.slug);
  }
  return out;
}

const everyIndex = (expected: string[]): Record<string, string[]> => Object.fromEntries(Object.keys(filters).map((name) => [name, expected]));

async function remove(slug: string): Promise<unknown> {
  return askWithoutExtensions(server.url, 'mutation ($slug: String!) { deletePost(filter: { slug: { eq: $slug } }) { numUids } }', { slug });
}

describe('deleting posts that share every value with others', () => {
  it('finds the 40 shared posts by each index before any delete', async () => {
    expect(await foundByEachIndex()).toEqual(everyIndex(slugs));
  });

  it('drops only the deleted posts from each index (front, middle, end)', async () => {
    for (const slug of ['s00', 's17', 's39']) expect(await remove(slug)).toEqual({ data: { deletePost: { numUids: 1 } } });
    const left = slugs.filter((s) => !['s00', 's17', 's39'].includes(s));
    expect(await foundByEachIndex()).toEqual(everyIndex(left));
    expect(await askWithoutExtensions(server.url, '{ getPost(slug: "s17") { slug } }')).toEqual({ data: { getPost: null } });
    expect(await askWithoutExtensions(server.url, '{ getPost(slug: "other") { slug tag } }')).toEqual({ data: { getPost: { slug: 'other', tag: 'other' } } });
  });

  it('finds a post deleted and added back in one request once, under its new id', async () => {
    const before = await askWithoutExtensions<{ data: { getPost: { id: string } } }>(server.url, '{ getPost(slug: "s20") { id } }');
    const answer = await askWithoutExtensions(
      server.url,
      'mutation ($slug: String!, $input: [AddPostInput!]!) { deletePost(filter: { slug: { eq: $slug } }) { numUids } addPost(input: $input) { numUids } }',
      { slug: 's20', input: [{ slug: 's20', ...shared }] },
    );
    expect(answer).toEqual({ data: { deletePost: { numUids: 1 }, addPost: { numUids: 1 } } });
    const after = await askWithoutExtensions<{ data: { getPost: { id: string } } }>(server.url, '{ getPost(slug: "s20") { id } }');
    expect(after.data.getPost.id).not.toBe(before.data.getPost.id);
    const left = slugs.filter((s) => !['s00', 's17', 's39'].includes(s));
    expect(await foundByEachIndex()).toEqual(everyIndex(left));
  });

  it('leaves nothing behind once every shared post is deleted', async () => {
    const answer = await askWithoutExtensions(server.url, 'mutation { deletePost(filter: { tag: { eq: "shared" } }) { numUids } }');
    expect(answer).toEqual({ data: { deletePost: { numUids: 37 } } });
    expect(await foundByEachIndex()).toEqual(everyIndex([]));
    expect(await askWithoutExtensions(server.url, '{ queryPost(filter: { tag: { eq: "other" } }) { slug } }')).toEqual({ data: { queryPost: [{ slug: 'other' }] } });
  });
});
