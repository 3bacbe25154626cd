// Completion rules no consistent store can trigger through the API (REFERENCE §7): a single-valued
// field that finds several values. The store is written directly to hold such data.

import { describe, expect, it } from 'vitest';
import { openDirect } from '../../conformance/helpers/direct-engine.js';

const schema = `
type Author { id: ID! name: String! }
type Post { id: ID! title: String! author: Author! editor: Author }
`;

const listForOne =
  'A list was returned, but GraphQL was expecting just one item. This indicates an internal error - probably a mismatch between the GraphQL and Dgraph/remote schemas. The value was resolved as null (which may trigger GraphQL error propagation) and as much other data as possible returned.';

function postWithTwo(field: 'author' | 'editor') {
  const engine = openDirect(schema);
  const s = engine.graph.store;
  const post = s.createNode();
  s.addType(post, 'Post');
  s.scalar('Post.title').set(post, 'T');
  for (const name of ['A', 'B']) {
    const author = s.createNode();
    s.addType(author, 'Author');
    s.scalar('Author.name').set(author, name);
    s.edges(`Post.${field}`).add(post, author);
  }
  return engine;
}

describe('completion of a single-valued field holding several values', () => {
  it('nullable field: the error at the field, the field null', async () => {
    const result = await postWithTwo('editor').gql(`query {
  getPost(id: "0x1") {
    title
    editor { name }
  }
}`);
    expect(result.data).toEqual({ getPost: { title: 'T', editor: null } });
    expect(result.errors).toEqual([{ message: listForOne, locations: [{ line: 4, column: 5 }], path: ['getPost', 'editor'] }]);
  });

  it('non-null field: the error once, null propagated to the nearest nullable parent', async () => {
    const result = await postWithTwo('author').gql(`query {
  getPost(id: "0x1") {
    title
    author { name }
  }
}`);
    expect(result.data).toEqual({ getPost: null });
    expect(result.errors).toEqual([{ message: listForOne, locations: [{ line: 4, column: 5 }], path: ['getPost', 'author'] }]);
  });

  it('one value is completed as usual', async () => {
    const engine = postWithTwo('editor');
    engine.graph.store.edges('Post.editor').remove(1, 3);
    const result = await engine.gql(`{ getPost(id: "0x1") { editor { name } } }`);
    expect(result).toEqual({ data: { getPost: { editor: { name: 'A' } } }, extensions: { touched_uids: 2 } });
  });
});
