// The existence lookups of `add<T>` (upsert or not) and of nested @id references under ACL, over real
// HTTP. Dgraph's mutation rewriter looks @id values up with DQL queries that edgraph.authorizeQuery
// prunes like any other: by an @id field the caller cannot read nothing is found, so the node looks new
// and a second node with the same @id value is created (read back, also after a restart).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSchema, uploadSucceeded } from './helpers/http.js';
import { aclLogin, aclPost } from './helpers/acl-client.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const secret = 'an-acl-secret-of-at-least-32-bytes!!';
const dir = makeTempDir('service-acl-xid-');
const secretFile = join(dir, 'hmac-secret');
writeFileSync(secretFile, secret);

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

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ACL: existence lookups by @id fields the caller cannot read', () => {
  let server: ServerProcess;
  const dataDir = join(dir, 'data');
  const serverArgs = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--acl-secret-file', secretFile, '--snapshot-interval', '0'];
  let groot: string;
  /** blind: writes everything, reads all but Author.handle and Post.slug; sighted: reads and writes everything. */
  let blind: string;
  let sighted: string;
  const graphql = (query: string, token: string): Promise<unknown> => aclPost(server.url, '/graphql', query, { 'X-Dgraph-AccessToken': token });
  const authors = '{ queryAuthor(order: {asc: name}) { handle name posts { slug title } } }';

  beforeAll(async () => {
    mkdirSync(dataDir);
    server = await startServer({ rawArgs: serverArgs });
    groot = await aclLogin(server.url, 'groot', 'password');
    const admin = (query: string): Promise<unknown> => aclPost(server.url, '/admin', query, { 'X-Dgraph-AccessToken': groot });
    const all = ['dgraph.type', 'Author.name', 'Author.posts', 'Post.title'].map((p) => `{predicate: "${p}", permission: 6}`).join(', ');
    await admin(`mutation { addGroup(input: [
      {name: "blind", rules: [${all}, {predicate: "Author.handle", permission: 2}, {predicate: "Post.slug", permission: 2}]},
      {name: "sighted", rules: [${all}, {predicate: "Author.handle", permission: 6}, {predicate: "Post.slug", permission: 6}]}]) { group { name } } }`);
    await admin(`mutation { addUser(input: [{name: "bea", password: "beapass1", groups: [{name: "blind"}]}, {name: "sam", password: "sampass1", groups: [{name: "sighted"}]}]) { user { name } } }`);
    expect(await uploadSchema(server.url, schema, { 'X-Dgraph-AccessToken': groot })).toEqual(uploadSucceeded);
    expect(await graphql(`mutation { addAuthor(input: [{handle: "ann", name: "Ann", posts: [{slug: "p1", title: "one"}]}]) { numUids } }`, groot)).toEqual({
      data: { addAuthor: { numUids: 2 } },
    });
    [blind, sighted] = await Promise.all([aclLogin(server.url, 'bea', 'beapass1'), aclLogin(server.url, 'sam', 'sampass1')]);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
  });

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
    await server.stop();
    server = await startServer({ rawArgs: serverArgs });
    groot = await aclLogin(server.url, 'groot', 'password');
    expect(await graphql(authors, groot)).toEqual(expected);
  });
});
