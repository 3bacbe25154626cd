// Mutations that name their nodes by @id or id (the bench matrix's write shapes) over HTTP: delete by
// @id and add the same post back in one request, update by @id, delete by ids. Their filters are
// answered by the @id index and checked node by node against the type (exec/universe.ts), never by
// listing every node of the type; EXPLAIN shows that plan ran. Everything is read back, also after
// a SIGKILL and a restart on the same data directory (the log holds each request as one record).

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const schema = `type Author { id: ID!  handle: String! @id  posts: [Post] @hasInverse(field: author) }
type Post { id: ID!  slug: String! @id  title: String! @search(by: [term])  score: Int! @search  author: Author }`;

const dataDir = makeTempDir('mutation-by-key-');
const startOn = () => startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--debug', '--fsync', 'always'] });
let server: ServerProcess;

async function gql(query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<Record<string, unknown>> {
  const answer = await postGraphql(server.url, { query, variables, extensions });
  expect(answer.status).toBe(200);
  return answer.json() as Record<string, unknown>;
}

// p0..p59 by ann (even) and bob (odd); score = i. Ids: p0 0x1, ann 0x2, p1 0x3, bob 0x4, p2..p59 0x5..0x3e (p4 0x7, p5 0x8, p6 0x9, p7 0xa).
// 60 posts: a filter's few ids are checked one by one against the type (more than 16 nodes per id).
const posts = Array.from({ length: 60 }, (_, i) => ({ slug: `p${i}`, title: `post number ${i}`, score: i, author: { handle: i % 2 === 0 ? 'ann' : 'bob' } }));
const deleteAndAdd =
  'mutation ($slug: String!, $input: [AddPostInput!]!) { deletePost(filter: { slug: { eq: $slug } }) { numUids msg post { slug score } } addPost(input: $input) { numUids post { id slug title author { handle } } } }';

beforeAll(async () => {
  server = await startOn();
  const uploaded = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: schema });
  expect(await uploaded.text()).toContain('Success');
  const added = await gql('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input: posts });
  expect(added).toEqual({ data: { addPost: { numUids: 62 } }, extensions: expect.any(Object) });
}, 30_000);

afterAll(async () => {
  server.child.kill('SIGKILL');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('mutations by @id and ids', () => {
  it('delete by @id and add the post back in one request: exact answer, and the @id lookup is the plan that ran', async () => {
    const answer = await gql(deleteAndAdd, { slug: 'p5', input: [{ slug: 'p5', title: 'post again', score: 5, author: { handle: 'bob' } }] }, { explain: true });
    expect(answer['data']).toEqual({
      deletePost: { numUids: 1, msg: 'Deleted', post: [{ slug: 'p5', score: 5 }] },
      addPost: { numUids: 1, post: [{ id: '0x3f', slug: 'p5', title: 'post again', author: { handle: 'bob' } }] },
    });
    expect((answer['extensions'] as Record<string, unknown>)['explain']).toBe(['deletePost: Post', '  eq slug via hash [1] got 1', '  ran unordered page over 1 candidates', 'Post.author: Author per parent (1 parents, 1 targets, 1 kept)'].join('\n'));
  });

  it('update by @id sets the title and answers the updated post', async () => {
    const answer = await gql('mutation ($slug: String!, $title: String!) { updatePost(input: { filter: { slug: { eq: $slug } }, set: { title: $title } }) { numUids post { slug title } } }', {
      slug: 'p6',
      title: 'renamed six',
    });
    expect(answer['data']).toEqual({ updatePost: { numUids: 1, post: [{ slug: 'p6', title: 'renamed six' }] } });
  });

  it('delete by ids matches only live posts: an author id and an already deleted post are not deleted', async () => {
    // 0x2 is ann, 0x8 was p5 (deleted above), 0xa is p7.
    const answer = await gql('mutation { deletePost(filter: { id: ["0x2", "0x8", "0xa"] }) { numUids post { slug } } }');
    expect(answer['data']).toEqual({ deletePost: { numUids: 1, post: [{ slug: 'p7' }] } });
  });

  it('reads back the writes, and again after SIGKILL and a restart', async () => {
    const read = '{ a: queryPost(filter: { score: { le: 7 } }, order: { asc: score }) { id slug title } b: queryAuthor(order: { asc: handle }) { handle postsAggregate { count } } c: queryPost(filter: { title: { allofterms: "renamed" } }) { slug } d: queryPost(filter: { not: { score: { ge: 2 } } }) { slug } }';
    const expected = {
      a: [
        { id: '0x1', slug: 'p0', title: 'post number 0' },
        { id: '0x3', slug: 'p1', title: 'post number 1' },
        { id: '0x5', slug: 'p2', title: 'post number 2' },
        { id: '0x6', slug: 'p3', title: 'post number 3' },
        { id: '0x7', slug: 'p4', title: 'post number 4' },
        { id: '0x3f', slug: 'p5', title: 'post again' },
        { id: '0x9', slug: 'p6', title: 'renamed six' },
      ],
      b: [
        { handle: 'ann', postsAggregate: { count: 30 } },
        { handle: 'bob', postsAggregate: { count: 29 } },
      ],
      c: [{ slug: 'p6' }],
      d: [{ slug: 'p0' }, { slug: 'p1' }],
    };
    expect((await gql(read))['data']).toEqual(expected);
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startOn();
    expect((await gql(read))['data']).toEqual(expected);
  }, 30_000);
});
