// The existence lookups of `add<T>` (upsert or not) and of nested @id references under ACL, over real
// HTTP. Dgraph's mutation rewriter looks @id values up with DQL queries that edgraph.authorizeQuery
// prunes like any other: by an @id field the caller cannot read nothing is found, so the node looks new
// and a second node with the same @id value is created (read back, also after a restart).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AclServer } from './helpers/acl-server.js';

const schema = `
type Author {
  handle: String! @id
  name: String @search(by: [hash])
  posts: [Post]
}
type Post {
  slug: String! @id
  title: String
}`;

describe('ACL: existence lookups by @id fields the caller cannot read', () => {
  const acl = new AclServer('service-acl-xid-');
  let groot: string;
  /** blind: writes everything, reads all but Author.handle and Post.slug; sighted: reads and writes everything. */
  let blind: string;
  let sighted: string;
  const users = [['bea', 'beapass1', 'blind'], ['sam', 'sampass1', 'sighted']] as const;
  const graphql = (query: string, token: string): Promise<unknown> => acl.as(token, query);
  const authors = '{ queryAuthor(order: {asc: name}) { handle name posts { slug title } } }';

  beforeAll(async () => {
    await acl.start();
    groot = acl.groot;
    const all = ['dgraph.type', 'Author.name', 'Author.posts', 'Post.title'].map((p) => `{predicate: "${p}", permission: 6}`).join(', ');
    await acl.addGroupsAndUsers(
      { blind: `${all}, {predicate: "Author.handle", permission: 2}, {predicate: "Post.slug", permission: 2}`, sighted: `${all}, {predicate: "Author.handle", permission: 6}, {predicate: "Post.slug", permission: 6}` },
      users,
    );
    await acl.uploadSchema(schema);
    expect(await graphql(`mutation { addAuthor(input: [{handle: "ann", name: "Ann", posts: [{slug: "p1", title: "one"}]}]) { numUids } }`, groot)).toEqual({
      data: { addAuthor: { numUids: 2 } },
    });
    [blind, sighted] = await acl.loginAll(users);
  }, 60_000);
  afterAll(() => acl.remove());

  it('a caller who can read the @id field finds the existing node: the add fails', async () => {
    expect(await graphql(`mutation { addAuthor(input: [{handle: "ann", name: "Again"}]) { numUids } }`, sighted)).toEqual({
      data: { addAuthor: null },
      errors: [{ message: "couldn't rewrite mutation addAuthor because failed to rewrite mutation payload because id ann already exists for field handle inside type Author", locations: [{ line: 1, column: 12 }], path: ['addAuthor'] }],
    });
    expect(await graphql(authors, groot)).toEqual({ data: { queryAuthor: [{ handle: 'ann', name: 'Ann', posts: [{ slug: 'p1', title: 'one' }] }] } });
  });

  it('a caller who cannot read it creates new nodes: add, upsert and a nested reference all look new', async () => {
    expect(await graphql(`mutation { addAuthor(input: [{handle: "ann", name: "Bea's"}]) { numUids } }`, blind)).toEqual({ data: { addAuthor: { numUids: 1 } } });
    expect(await graphql(`mutation { addAuthor(input: [{handle: "ann", name: "Upserted", posts: [{slug: "p1", title: "copy"}]}], upsert: true) { numUids } }`, blind)).toEqual({
      data: { addAuthor: { numUids: 2 } },
    });
    const expected = {
      data: {
        queryAuthor: [
          { handle: 'ann', name: 'Ann', posts: [{ slug: 'p1', title: 'one' }] },
          { handle: 'ann', name: "Bea's", posts: [] },
          { handle: 'ann', name: 'Upserted', posts: [{ slug: 'p1', title: 'copy' }] },
        ],
      },
    };
    expect(await graphql(authors, groot)).toEqual(expected);
    await acl.stop();
    await acl.start();
    groot = acl.groot;
    expect(await graphql(authors, groot)).toEqual(expected);
  });
});
