// A root filter's universe (every node of the type) is materialised only by the plan steps that need it:
// a mutation by @id or by ids, or a list an index answers, checks its few ids node by node, so
// deleting or updating one node does not merge the type's whole posting after each write (that was
// O(nodes) per request: 8 ms per delete at 100k posts).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { GraphStore } from '../../../engine/store/graph-store.js';
import { listUniverse, restrictTo, typeUniverse } from '../../../engine/exec/universe.js';
import { openDirect } from '../../conformance/helpers/direct-engine.js';

const schema = `
type Author { id: ID! handle: String! @id posts: [Post] @hasInverse(field: author) }
type Post { id: ID! slug: String! @id title: String @search(by: [term]) score: Int @search author: Author }
`;

afterEach(() => {
  vi.restoreAllMocks();
});

/** 80 posts p0..p79 by one author: p0 is 0x1, the author 0x2, p1..p79 0x3..0x51. */
async function engineWithPosts() {
  const engine = openDirect(schema);
  const input = Array.from({ length: 80 }, (_, i) => ({ slug: `p${i}`, title: `post ${i % 2 === 0 ? 'even' : 'odd'}`, score: i, author: { handle: 'ann' } }));
  const added = await engine.gql('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
  expect(added.data).toEqual({ addPost: { numUids: 81 } });
  return engine;
}

describe('restrictTo', () => {
  it('keeps the ids of the type only: other types, deleted and unknown ids are dropped', async () => {
    const engine = await engineWithPosts();
    const store = engine.graph.store;
    store.deleteNode(5);
    const posts = typeUniverse(store, 'Post');
    expect(posts.size).toBe(79);
    expect(restrictTo([1, 2, 5, 9, 1000], posts)).toEqual([1, 9]);
    // A list as long as the universe is merged with its ids: the same answer.
    const all = Array.from({ length: 100 }, (_, i) => i);
    expect(restrictTo(all, posts)).toEqual(store.nodesOfType('Post'));
    expect(restrictTo([], posts)).toEqual([]);
  });

  it('over a list universe, as an intersection', () => {
    const list = listUniverse([2, 4, 6, 8]);
    expect(restrictTo([1, 2, 3, 8, 9], list)).toEqual([2, 8]);
    expect(restrictTo([4], listUniverse(Array.from({ length: 100 }, (_, i) => i * 2)))).toEqual([4]);
  });
});

describe('mutations by @id and ids never list the whole type', () => {
  it('delete by @id and add back: exact answers, and no nodesOfType call', async () => {
    const engine = await engineWithPosts();
    const spy = vi.spyOn(GraphStore.prototype, 'nodesOfType');
    const result = await engine.gql(
      'mutation ($slug: String!, $input: [AddPostInput!]!) { deletePost(filter: { slug: { eq: $slug } }) { numUids msg post { slug score } } addPost(input: $input) { post { id slug score author { handle } } } }',
      { slug: 'p7', input: [{ slug: 'p7', title: 'post again', score: 7, author: { handle: 'ann' } }] },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      deletePost: { numUids: 1, msg: 'Deleted', post: [{ slug: 'p7', score: 7 }] },
      addPost: { post: [{ id: '0x52', slug: 'p7', score: 7, author: { handle: 'ann' } }] },
    });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    // Read back: the old node is gone from the type, the author's inverse edge and the indexes.
    const read = await engine.gql('{ a: queryPost(filter: { score: { eq: 7 } }) { id slug } b: getAuthor(handle: "ann") { postsAggregate { count } } c: queryPost(filter: { title: { allofterms: "again" } }) { id } d: getPost(id: "0x9") { slug } }');
    expect(read.data).toEqual({ a: [{ id: '0x52', slug: 'p7' }], b: { postsAggregate: { count: 80 } }, c: [{ id: '0x52' }], d: null });
  });

  it('a second delete of the same @id finds nothing', async () => {
    const engine = await engineWithPosts();
    await engine.gql('mutation { deletePost(filter: { slug: { eq: "p3" } }) { numUids } }');
    const again = await engine.gql('mutation { deletePost(filter: { slug: { eq: "p3" } }) { numUids msg } }');
    expect(again.data).toEqual({ deletePost: { numUids: 0, msg: 'No nodes were deleted' } });
  });

  it('update and delete by ids: ids of other types and deleted nodes are not matched', async () => {
    const engine = await engineWithPosts();
    const spy = vi.spyOn(GraphStore.prototype, 'nodesOfType');
    await engine.gql('mutation { deletePost(filter: { id: ["0x4"] }) { numUids } }');
    const updated = await engine.gql('mutation { updatePost(input: { filter: { id: ["0x2", "0x3", "0x4", "0x99"] }, set: { title: "changed" } }) { numUids post { id title } } }');
    expect(updated.data).toEqual({ updatePost: { numUids: 1, post: [{ id: '0x3', title: 'changed' }] } });
    const deleted = await engine.gql('mutation { deletePost(filter: { id: ["0x2", "0x4", "0x5"] }) { numUids post { id } } }');
    expect(deleted.data).toEqual({ deletePost: { numUids: 1, post: [{ id: '0x5' }] } });
    expect(spy).not.toHaveBeenCalled();
  });

  it('a filter that needs every node (not) still sees the deletes', async () => {
    const engine = await engineWithPosts();
    await engine.gql('mutation { deletePost(filter: { slug: { in: ["p0", "p2", "p79"] } }) { numUids } }');
    const read = await engine.gql('{ queryPost(filter: { not: { score: { gt: 3 } } }) { slug } n: aggregatePost { count } }');
    expect(read.data).toEqual({ queryPost: [{ slug: 'p1' }, { slug: 'p3' }], n: { count: 77 } });
  });

  it('update and delete plans are cached per field occurrence and filter shape: each request gets the plan of its own filter', async () => {
    const engine = await engineWithPosts();
    const update = 'mutation ($input: UpdatePostInput!) { updatePost(input: $input) { numUids post { slug title } } }';
    const bySlug = await engine.gql(update, { input: { filter: { slug: { eq: 'p1' } }, set: { title: 'one' } } });
    expect(bySlug.data).toEqual({ updatePost: { numUids: 1, post: [{ slug: 'p1', title: 'one' }] } });
    const byIds = await engine.gql(update, { input: { filter: { id: ['0x5', '0x6'] }, set: { title: 'two' } } });
    expect(byIds.data).toEqual({ updatePost: { numUids: 2, post: [{ slug: 'p3', title: 'two' }, { slug: 'p4', title: 'two' }] } });
    const byRange = await engine.gql(update, { input: { filter: { score: { ge: 78 } }, set: { title: 'top' } } });
    expect(byRange.data).toEqual({ updatePost: { numUids: 2, post: [{ slug: 'p78', title: 'top' }, { slug: 'p79', title: 'top' }] } });
    const remove = 'mutation ($f: PostFilter!) { deletePost(filter: $f) { numUids post { slug } } }';
    expect((await engine.gql(remove, { f: { slug: { in: ['p10', 'p11'] } } })).data).toEqual({ deletePost: { numUids: 2, post: [{ slug: 'p10' }, { slug: 'p11' }] } });
    expect((await engine.gql(remove, { f: { title: { allofterms: 'top' } } })).data).toEqual({ deletePost: { numUids: 2, post: [{ slug: 'p78' }, { slug: 'p79' }] } });
    expect((await engine.gql(remove, { f: { slug: { eq: 'p10' } } })).data).toEqual({ deletePost: { numUids: 0, post: [] } });
  });
});
