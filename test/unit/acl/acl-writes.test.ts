// The predicates a generated mutation writes (engine/acl/acl-writes.ts), as Dgraph's rewriting would
// put them in N-Quads: the ACL's WRITE check refuses a non-guardian's mutation on them.

import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { writtenPredicates } from '../../../engine/acl/acl-writes.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

const compiled = compileSchema(`
type Author {
  id: ID!
  name: String! @id
  posts: [Post] @hasInverse(field: author)
  secretNote: String @dgraph(pred: "note")
  likes: [Post] @dgraph(pred: "likes")
}
type Post {
  id: ID!
  title: String
  created: DateTime @default(add: {value: "$now"}, update: {value: "$now"})
  author: Author
  likedBy: [Author] @dgraph(pred: "~likes")
}
`);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
const { model, apiSchema } = compiled.compiled;

function written(mutation: string, variables: Record<string, unknown> = {}): string[] | undefined {
  const operation = parse(mutation).definitions[0] as OperationDefinitionNode;
  const result = writtenPredicates(model, apiSchema, operation.selectionSet.selections[0] as FieldNode, variables);
  return result === undefined ? undefined : [...result].sort();
}

describe('writtenPredicates', () => {
  it('add: dgraph.type, the given fields, @default(add) fields, @hasInverse partners, nested new objects', () => {
    expect(written('mutation { addPost(input: [{title: "t", author: {name: "a", secretNote: "n"}}]) { numUids } }')).toEqual([
      'Author.name',
      'Author.posts',
      'Post.author',
      'Post.created',
      'Post.title',
      'dgraph.type',
      'note',
    ]);
  });

  it('add: a nested reference by ID writes only the edge; a reverse field writes its forward predicate; variables are read', () => {
    expect(written('mutation($in: [AddPostInput!]!) { addPost(input: $in) { numUids } }', { in: [{ created: '2020-01-01T00:00:00Z', likedBy: [{ id: '0x1' }] }] })).toEqual([
      'Post.created',
      'dgraph.type',
      'likes',
    ]);
  });

  it('update: set and remove fields, @default(update) with set; delete: every predicate (_STAR_ALL) and the inverse partners', () => {
    expect(written('mutation { updatePost(input: {filter: {}, set: {title: "x"}, remove: {author: {id: "0x2"}}}) { numUids } }')).toEqual(['Author.posts', 'Post.author', 'Post.created', 'Post.title']);
    expect(written('mutation { deleteAuthor(filter: {}) { msg } }')).toEqual(['Post.author', '_STAR_ALL']);
  });
});
