// Filter objects over HTTP, with Dgraph's reading (graphql/resolve/query_rewriter.go buildFilter): the
// field conditions, `has`, `not` and `and` of one object are ANDed, and an `or` beside them is ORed
// with that conjunction. Every root that takes a filter is checked: query, aggregate, update, delete
// (reading the data back), nested edges and their aggregates, interfaces.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const schema = `
interface Thing { id: ID!  label: String @search(by: [hash]) }
type Gadget implements Thing { size: Int @search }
type Author { id: ID!  name: String! @id  posts: [Post] @hasInverse(field: author) }
type Post {
  id: ID!
  title: String! @search(by: [hash, term])
  tag: String @search(by: [hash])
  likes: Int @search
  score: Float @search
  published: Boolean @search
  author: Author
}`;

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

interface Body {
  data?: Record<string, unknown> | null;
  errors?: unknown[];
}

async function gql(query: string, variables?: Record<string, unknown>): Promise<Body> {
  const answer = await postGraphql(server.url, variables === undefined ? { query } : { query, variables });
  expect(answer.status).toBe(200);
  return answer.json() as Body;
}

async function ok(query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = await gql(query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as Record<string, unknown>;
}

const posts = [
  { title: 'alpha one', tag: 'x', likes: 1, score: 0.5, published: true },
  { title: 'beta two', tag: 'y', likes: 5, score: 1.5, published: false },
  { title: 'gamma three', tag: 'z', likes: 10, published: true },
  { title: 'delta four', likes: 20, score: 2.5, published: false },
  { title: 'epsilon one', tag: 'x', likes: 30, score: 3.5 },
];

/** Titles of the posts a filter matches, in title order. */
async function titles(filter: unknown): Promise<string[]> {
  const data = await ok('query ($f: PostFilter) { queryPost(filter: $f, order: { asc: title }) { title } }', { f: filter });
  return (data['queryPost'] as { title: string }[]).map((p) => p.title);
}

beforeEach(async () => {
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
  await ok('mutation { deletePost(filter: {}) { numUids } deleteAuthor(filter: {}) { numUids } deleteGadget(filter: {}) { numUids } }');
  await ok(
    `mutation ($posts: [AddPostInput!]!) {
      addAuthor(input: [{ name: "ann" }, { name: "bob" }]) { numUids }
      addPost(input: $posts) { numUids }
      addGadget(input: [{ label: "a", size: 1 }, { label: "b", size: 2 }, { label: "c", size: 3 }]) { numUids }
    }`,
    { posts: posts.map((p, i) => ({ ...p, author: { name: i < 3 ? 'ann' : 'bob' } })) },
  );
});

describe('a filter object: its conditions ANDed, its `or` ORed with them', () => {
  it('a field condition beside `or` is either one', async () => {
    expect(await titles({ tag: { eq: 'x' }, or: { tag: { eq: 'y' } } })).toEqual(['alpha one', 'beta two', 'epsilon one']);
  });

  it('several conditions and `and` beside a list `or`: (c1 AND c2 AND and) OR o1 OR o2', async () => {
    const filter = { likes: { ge: 5 }, published: false, and: [{ score: { lt: 2 } }], or: [{ tag: { eq: 'z' } }, { title: { anyofterms: 'epsilon' } }] };
    expect(await titles(filter)).toEqual(['beta two', 'epsilon one', 'gamma three']);
  });

  it('`or` alone at the top, as a list or a single object', async () => {
    expect(await titles({ or: [{ likes: { lt: 2 } }, { likes: { gt: 25 } }] })).toEqual(['alpha one', 'epsilon one']);
    expect(await titles({ or: { likes: { lt: 2 } } })).toEqual(['alpha one']);
  });

  it('`not` of an object holding an `or` excludes both sides (and keeps nodes without the field)', async () => {
    expect(await titles({ not: { tag: { eq: 'x' }, or: { tag: { eq: 'y' } } } })).toEqual(['delta four', 'gamma three']);
  });

  it('`or` inside `and` inside `not`', async () => {
    const filter = { not: { and: { published: true, or: { likes: { ge: 20 } } } } };
    // published or likes >= 20: alpha, gamma, delta, epsilon; not: beta only.
    expect(await titles(filter)).toEqual(['beta two']);
  });

  it('`has`, `in`, `between` and `eq: null` beside an `or`', async () => {
    expect(await titles({ has: 'score', likes: { between: { min: 2, max: 25 } }, or: { tag: { in: ['z'] } } })).toEqual(['beta two', 'delta four', 'gamma three']);
    expect(await titles({ tag: { eq: null }, or: { tag: { eq: 'z' } } })).toEqual(['delta four', 'gamma three']);
    expect(await titles({ not: { has: 'tag', or: { likes: { gt: 25 } } } })).toEqual(['delta four']);
  });

  it('ids beside an `or`', async () => {
    const data = await ok('{ queryPost(filter: { tag: { eq: "y" } }) { id } }');
    const [beta] = data['queryPost'] as { id: string }[];
    expect(await titles({ id: [beta?.id], or: { tag: { eq: 'z' } } })).toEqual(['beta two', 'gamma three']);
  });

  it('aggregate counts and sums what the query returns', async () => {
    const data = await ok('{ aggregatePost(filter: { tag: { eq: "x" }, or: { tag: { eq: "y" } } }) { count likesSum likesMax } }');
    expect(data['aggregatePost']).toEqual({ count: 3, likesSum: 36, likesMax: 30 });
  });

  it('update changes every node of either side, and the change reads back', async () => {
    const data = await ok('mutation { updatePost(input: { filter: { tag: { eq: "x" }, or: { likes: { eq: 5 } } }, set: { score: 9.5 } }) { numUids post(order: { asc: title }) { title score } } }');
    expect(data['updatePost']).toEqual({
      numUids: 3,
      post: [
        { title: 'alpha one', score: 9.5 },
        { title: 'beta two', score: 9.5 },
        { title: 'epsilon one', score: 9.5 },
      ],
    });
    expect(await titles({ score: { eq: 9.5 } })).toEqual(['alpha one', 'beta two', 'epsilon one']);
  });

  it('delete removes every node of either side, and only those', async () => {
    const data = await ok('mutation { deletePost(filter: { tag: { eq: "x" }, or: { tag: { eq: "z" } } }) { numUids msg post(order: { asc: title }) { title } } }');
    expect(data['deletePost']).toEqual({ numUids: 3, msg: 'Deleted', post: [{ title: 'alpha one' }, { title: 'epsilon one' }, { title: 'gamma three' }] });
    expect(await titles(null)).toEqual(['beta two', 'delta four']);
    const authors = await ok('{ queryAuthor(order: { asc: name }) { name posts(order: { asc: title }) { title } } }');
    expect(authors['queryAuthor']).toEqual([
      { name: 'ann', posts: [{ title: 'beta two' }] },
      { name: 'bob', posts: [{ title: 'delta four' }] },
    ]);
  });

  it('nested edge filters and edge aggregates', async () => {
    const data = await ok(`{ queryAuthor(order: { asc: name }) {
      name
      posts(filter: { tag: { eq: "y" }, or: { likes: { ge: 30 } } }, order: { asc: title }) { title }
      postsAggregate(filter: { tag: { eq: "y" }, or: { likes: { ge: 30 } } }) { count }
    } }`);
    expect(data['queryAuthor']).toEqual([
      { name: 'ann', posts: [{ title: 'beta two' }], postsAggregate: { count: 1 } },
      { name: 'bob', posts: [{ title: 'epsilon one' }], postsAggregate: { count: 1 } },
    ]);
  });

  it('interface queries', async () => {
    const data = await ok('{ queryThing(filter: { label: { eq: "a" }, or: { label: { eq: "c" } } }) { label } }');
    expect(data['queryThing']).toEqual([{ label: 'a' }, { label: 'c' }]);
  });

  it('empty connectives place no condition: `and: {}`, `or: {}`, `or: []`, `not: {}`', async () => {
    expect(await titles({ tag: { eq: 'y' }, or: {} })).toEqual(['beta two']);
    expect(await titles({ tag: { eq: 'y' }, or: [] })).toEqual(['beta two']);
    expect(await titles({ tag: { eq: 'y' }, and: {} })).toEqual(['beta two']);
    expect(await titles({ tag: { eq: 'y' }, not: {} })).toEqual(['beta two']);
  });
});
