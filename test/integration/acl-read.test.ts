// Dgraph's ACL read permissions on /graphql over real HTTP: what each caller's groups may READ is all
// its queries see (edgraph.authorizeQuery removes the rest from the query): fields on unreadable
// predicates absent (null, or Dgraph's non-null error), filters, orders and `has` on them dropped (so
// results widen; a root eq on one finds nothing), nested edges, aggregates, roots without READ on
// dgraph.type (found), `dgraph.all`, a
// guardian, a mutation payload, and group rules changed by updateGroup applying to issued tokens.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AclServer } from './helpers/acl-server.js';

const schema = `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  secret: String! @search(by: [hash])
  age: Int @search
  handle: String @id
  posts: [Post] @hasInverse(field: author)
}
type Post {
  id: ID!
  title: String! @search(by: [term])
  score: Int @search
  author: Author
}`;


const nonNullMissing = (field: string, type: string): string =>
  `Non-nullable field '${field}' (type ${type}) was not present in result from Dgraph.  GraphQL error propagation triggered.`;

describe('ACL read permissions', () => {
  const acl = new AclServer('service-acl-read-');
  const users = [['alice', 'alicepass', 'readers'], ['bob', 'bobpass1', 'notype'], ['carol', 'carolpass', 'everything']] as const;
  let groot: string;
  /** readers: some predicates of Author and Post; notype: Author.name without dgraph.type; everything: dgraph.all. */
  let alice: string;
  let bob: string;
  let carol: string;
  const graphql = (query: string, token: string): Promise<unknown> => acl.as(token, query);

  beforeAll(async () => {
    await acl.start();
    groot = acl.groot;
    await acl.addGroupsAndUsers(
      {
        readers: `{predicate: "dgraph.type", permission: 6}, {predicate: "Author.name", permission: 4}, {predicate: "Author.age", permission: 4},
        {predicate: "Author.posts", permission: 4}, {predicate: "Post.title", permission: 6}, {predicate: "Post.score", permission: 2}`,
        notype: '{predicate: "Author.name", permission: 4}',
        everything: '{predicate: "dgraph.all", permission: 4}',
      },
      users,
    );
    // After the ACL changes: a first schema upload on a fresh ACL data directory does not answer (seen on the base branch too).
    await acl.uploadSchema(schema);
    expect(
      await graphql(
        `mutation { addAuthor(input: [
          {name: "Ann", secret: "s1", age: 30, handle: "ann", posts: [{title: "first post", score: 5}, {title: "second post", score: 9}]},
          {name: "Ben", secret: "s2", age: 40}]) { numUids } }`,
        groot,
      ),
    ).toEqual({ data: { addAuthor: { numUids: 4 } } });
    [alice, bob, carol] = await acl.loginAll(users);
  }, 60_000);
  afterAll(() => acl.remove());

  const everything = {
    data: {
      queryAuthor: [
        { name: 'Ann', secret: 's1', age: 30, posts: [{ title: 'first post', score: 5, author: { name: 'Ann' } }, { title: 'second post', score: 9, author: { name: 'Ann' } }] },
        { name: 'Ben', secret: 's2', age: 40, posts: [] },
      ],
    },
  };
  const full = '{ queryAuthor(order: {asc: name}) { name secret age posts(order: {asc: score}) { title score author { name } } } }';

  it('a guardian and a dgraph.all reader see everything', async () => {
    expect(await graphql(full, groot)).toEqual(everything);
    expect(await graphql(full, carol)).toEqual(everything);
  });

  it('fields on unreadable predicates are absent: null, or the non-null error nulling the object', async () => {
    expect(await graphql('{ queryAuthor(order: {asc: name}) { name age posts(order: {desc: score}) { title score author { name } } } }', alice)).toEqual({
      data: {
        queryAuthor: [
          // The order on Post.score is dropped (uid order); Post.author is unreadable, Author.posts (its @hasInverse partner) is not.
          { name: 'Ann', age: 30, posts: [{ title: 'first post', score: null, author: null }, { title: 'second post', score: null, author: null }] },
          { name: 'Ben', age: 40, posts: [] },
        ],
      },
    });
    expect(await graphql('{ queryAuthor(order: {asc: name}) { name secret } }', alice)).toEqual({
      errors: [
        { message: nonNullMissing('secret', 'String!'), locations: [{ line: 1, column: 42 }], path: ['queryAuthor', 0, 'secret'] },
        { message: nonNullMissing('secret', 'String!'), locations: [{ line: 1, column: 42 }], path: ['queryAuthor', 1, 'secret'] },
      ],
      data: { queryAuthor: [null, null] },
    });
  });

  it('filters on unreadable predicates are dropped as Dgraph removes them (results widen)', async () => {
    const names = (filter: string): Promise<unknown> => graphql(`{ queryAuthor(filter: ${filter}, order: {asc: name}) { name } }`, alice);
    const both = { data: { queryAuthor: [{ name: 'Ann' }, { name: 'Ben' }] } };
    const ben = { data: { queryAuthor: [{ name: 'Ben' }] } };
    // One eq (or in) leaf alone is the root function (query_rewriter's rootQueryOptimization): removed, nothing found.
    expect(await names('{secret: {eq: "s1"}}')).toEqual({ data: { queryAuthor: [] } });
    expect(await names('{secret: {in: ["s1", "s2"]}}')).toEqual({ data: { queryAuthor: [] } });
    expect(await names('{has: [secret]}')).toEqual(both);
    expect(await names('{secret: {eq: "s1"}, name: {eq: "Ben"}}')).toEqual(ben);
    expect(await names('{or: [{secret: {eq: "s1"}}, {name: {eq: "Ben"}}]}')).toEqual(ben);
    // NOT of a removed leaf keeps no child: everything passes.
    expect(await names('{not: {secret: {eq: "s1"}}}')).toEqual(both);
    // NOT of an `and` whose two leaves are removed: the childless `and` passes all, its NOT nothing.
    expect(await names('{not: {secret: {eq: "s1"}, has: [secret]}}')).toEqual({ data: { queryAuthor: [] } });
    // An `or` of two removed leaves (one childless binary node) passes all.
    expect(await names('{or: [{secret: {eq: "s1"}}, {has: [secret]}, {name: {eq: "Ben"}}]}')).toEqual(both);
    // The same filter for a guardian.
    expect(await graphql('{ queryAuthor(filter: {secret: {eq: "s1"}}) { name } }', groot)).toEqual({ data: { queryAuthor: [{ name: 'Ann' }] } });
    // Nested: the filter on Post.score is dropped.
    expect(await graphql('{ queryAuthor(filter: {name: {eq: "Ann"}}) { posts(filter: {score: {gt: 6}}) { title } } }', alice)).toEqual({
      data: { queryAuthor: [{ posts: [{ title: 'first post' }, { title: 'second post' }] }] },
    });
  });

  it('@cascade checks only the readable fields (the others are not in the pruned query)', async () => {
    const query = '{ queryPost(order: {asc: title}) @cascade { title score } }';
    expect(await graphql('mutation { addPost(input: [{title: "unscored"}]) { numUids } }', groot)).toEqual({ data: { addPost: { numUids: 1 } } });
    expect(await graphql(query, groot)).toEqual({ data: { queryPost: [{ title: 'first post', score: 5 }, { title: 'second post', score: 9 }] } });
    expect(await graphql(query, alice)).toEqual({
      data: { queryPost: [{ title: 'first post', score: null }, { title: 'second post', score: null }, { title: 'unscored', score: null }] },
    });
    expect(await graphql('mutation { deletePost(filter: {title: {anyofterms: "unscored"}}) { numUids } }', groot)).toEqual({ data: { deletePost: { numUids: 1 } } });
  });

  it('orders on unreadable predicates are dropped, the readable keys after them kept', async () => {
    expect(await graphql('{ queryAuthor(order: {asc: secret, then: {desc: name}}) { name } }', alice)).toEqual({ data: { queryAuthor: [{ name: 'Ben' }, { name: 'Ann' }] } });
  });

  it('aggregates: unreadable fields are null, filters on them dropped', async () => {
    expect(await graphql('{ aggregateAuthor(filter: {secret: {eq: "s1"}}) { count ageMax nameMin secretMin } }', alice)).toEqual({
      data: { aggregateAuthor: { count: 2, ageMax: 40, nameMin: 'Ann', secretMin: null } },
    });
    expect(await graphql('{ queryAuthor(filter: {name: {eq: "Ann"}}) { postsAggregate { count scoreMax titleMin } } }', alice)).toEqual({
      data: { queryAuthor: [{ postsAggregate: { count: 2, scoreMax: null, titleMin: 'first post' } }] },
    });
  });

  it('without READ on dgraph.type the roots still find their nodes; @id roots on unreadable predicates find nothing', async () => {
    const ann = (await graphql('{ queryAuthor(filter: {name: {eq: "Ann"}}) { id } }', groot)) as { data: { queryAuthor: [{ id: string }] } };
    const id = ann.data.queryAuthor[0].id;
    // `type(Author)` (root or filter) names no predicate in Dgraph's parsed query: authorizeQuery never prunes it.
    expect(
      await graphql(
        `{ queryAuthor(order: {asc: name}) { name age } getAuthor(id: "${id}") { name age } byId: queryAuthor(filter: {id: ["${id}"]}) { name } aggregateAuthor { count } }`,
        bob,
      ),
    ).toEqual({
      data: { queryAuthor: [{ name: 'Ann', age: null }, { name: 'Ben', age: null }], getAuthor: { name: 'Ann', age: null }, byId: [{ name: 'Ann' }], aggregateAuthor: { count: 2 } },
    });
    // An unreadable @id: the root function of a get by it alone (nothing found), a dropped filter leaf beside an id.
    const byHandle = `{ byHandle: getAuthor(handle: "ann") { name } both: getAuthor(id: "${id}", handle: "nobody") { name } }`;
    expect(await graphql(byHandle, alice)).toEqual({ data: { byHandle: null, both: { name: 'Ann' } } });
    expect(await graphql(byHandle, groot)).toEqual({ data: { byHandle: { name: 'Ann' }, both: null } });
    const get = `{ getAuthor(id: "${id}") { name secret } }`;
    expect(await graphql(get, alice)).toEqual({
      errors: [{ message: nonNullMissing('secret', 'String!'), locations: [{ line: 1, column: get.indexOf('secret') + 1 }], path: ['getAuthor', 'secret'] }],
      data: { getAuthor: null },
    });
  });

  it('a mutation payload reads only what the groups may read', async () => {
    expect(await graphql('mutation { addPost(input: [{title: "third post", score: 1}]) { post { title score } } }', alice)).toEqual({
      data: { addPost: { post: [{ title: 'third post', score: null }] } },
    });
    expect(await graphql('{ queryPost(filter: {title: {anyofterms: "third"}}) { title score } }', groot)).toEqual({ data: { queryPost: [{ title: 'third post', score: 1 }] } });
  });

  it("updateGroup's rules apply to tokens issued before; groups joined later only to new logins", async () => {
    const scores = '{ queryPost(filter: {title: {anyofterms: "third"}}) { title score } }';
    expect(await acl.admin('mutation { updateGroup(input: {filter: {name: {eq: "readers"}}, set: {rules: [{predicate: "Post.score", permission: 6}]}}) { group { name } } }')).toEqual({
      data: { updateGroup: { group: [{ name: 'readers' }] } },
    });
    expect(await graphql(scores, alice)).toEqual({ data: { queryPost: [{ title: 'third post', score: 1 }] } });
    expect(await acl.admin('mutation { updateUser(input: {filter: {name: {eq: "alice"}}, set: {groups: [{name: "everything"}]}}) { user { name } } }')).toEqual({
      data: { updateUser: { user: [{ name: 'alice' }] } },
    });
    const secrets = '{ queryAuthor(order: {asc: name}) { secret } }';
    expect(await graphql(secrets, alice)).toEqual({
      errors: [
        { message: nonNullMissing('secret', 'String!'), locations: [{ line: 1, column: 37 }], path: ['queryAuthor', 0, 'secret'] },
        { message: nonNullMissing('secret', 'String!'), locations: [{ line: 1, column: 37 }], path: ['queryAuthor', 1, 'secret'] },
      ],
      data: { queryAuthor: [null, null] },
    });
    expect(await graphql(secrets, await acl.login('alice', 'alicepass'))).toEqual({ data: { queryAuthor: [{ secret: 's1' }, { secret: 's2' }] } });
  });

  it('after a restart the same groups read the same (ACL data and the graph restored)', async () => {
    await acl.stop();
    await acl.start();
    const query = '{ queryAuthor(filter: {secret: {eq: "s1"}}, order: {asc: name}) { name age posts(order: {asc: title}) { title score author { name } } } }';
    const [bobNow, aliceNow] = await Promise.all([acl.login('bob', 'bobpass1'), acl.login('alice', 'alicepass')]);
    // bob: the root eq(Author.secret) removed.
    expect(await graphql(query, bobNow)).toEqual({ data: { queryAuthor: [] } });
    expect(await graphql('{ queryAuthor(filter: {has: secret}, order: {asc: name}) { name age } }', bobNow)).toEqual({
      data: { queryAuthor: [{ name: 'Ann', age: null }, { name: 'Ben', age: null }] },
    });
    // alice: readers (Post.score readable since the updateGroup) and everything (dgraph.all).
    expect(await graphql(query, aliceNow)).toEqual({
      data: {
        queryAuthor: [
          {
            name: 'Ann',
            age: 30,
            posts: [
              { title: 'first post', score: 5, author: { name: 'Ann' } },
              { title: 'second post', score: 9, author: { name: 'Ann' } },
            ],
          },
        ],
      },
    });
  });
});
