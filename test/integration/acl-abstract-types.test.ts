// Interface and union results for a user without READ on dgraph.type. Dgraph asks for dgraph.type
// only under abstract fields, to pick each node's concrete type in completion; ACL prunes it from the
// query, so completion has no type: every field of every fragment is kept (one per response name, the
// first occurrence), each read from the predicate of the type it was selected on (absent: null, or
// the non-null error), and `__typename` is the type the selection was written on (the interface or
// union itself, or a fragment's type condition). Nodes are still found: `type(T)` needs no READ.
// Real server over HTTP, whole answers; the same queries by a user with READ on dgraph.type first.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSchema, uploadSucceeded } from './helpers/http.js';
import { aclLogin, aclPost, type Body } from './helpers/acl-client.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const secret = 'an-acl-secret-of-at-least-32-bytes!!';
const dir = makeTempDir('service-acl-abstract-');
const secretFile = join(dir, 'hmac-secret');
writeFileSync(secretFile, secret);

const schema = `
interface Thing {
  id: ID!
  name: String! @search(by: [hash])
}
type Book implements Thing {
  pages: Int
}
type Film implements Thing {
  minutes: Int
  rating: String!
}
union Media = Book | Film
type Shelf {
  id: ID!
  label: String! @search(by: [hash])
  items: [Media]
  favourite: Thing
}
`;

const readRules = (withType: boolean): string =>
  ['Thing.name', 'Book.pages', 'Film.minutes', 'Film.rating', 'Shelf.label', 'Shelf.items', 'Shelf.favourite', ...(withType ? ['dgraph.type'] : [])]
    .map((predicate) => `{predicate: "${predicate}", permission: 4}`)
    .join(', ');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('interface and union results without READ on dgraph.type', () => {
  let server: ServerProcess;
  let typed: string;
  let untyped: string;
  const as = (token: string, query: string): Promise<Body> => aclPost(server.url, '/graphql', query, { 'X-Dgraph-AccessToken': token });

  beforeAll(async () => {
    server = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', join(dir, 'data'), '--acl-secret-file', secretFile, '--snapshot-interval', '0'] });
    const groot = await aclLogin(server.url, 'groot', 'password');
    const admin = (query: string): Promise<Body> => aclPost(server.url, '/admin', query, { 'X-Dgraph-AccessToken': groot });
    expect(await admin(`mutation { addGroup(input: [{name: "typed", rules: [${readRules(true)}]}, {name: "untyped", rules: [${readRules(false)}]}]) { group { name } } }`)).toEqual({
      data: { addGroup: { group: [{ name: 'typed' }, { name: 'untyped' }] } },
    });
    await admin(`mutation { addUser(input: [{name: "tia", password: "tiapass1", groups: [{name: "typed"}]}, {name: "uma", password: "umapass1", groups: [{name: "untyped"}]}]) { user { name } } }`);
    expect(await uploadSchema(server.url, schema, { 'X-Dgraph-AccessToken': groot })).toEqual(uploadSucceeded);
    const added = await as(groot, 'mutation { addBook(input: [{name: "b1", pages: 10}, {name: "b2"}]) { book { id name } } addFilm(input: [{name: "f1", minutes: 90, rating: "PG"}]) { numUids } }');
    const books = Object.fromEntries((added.data as { addBook: { book: { id: string; name: string }[] } }).addBook.book.map((b) => [b.name, b.id]));
    expect(await as(groot, `mutation { addShelf(input: [{label: "s1", items: [{bookRef: {id: "${books['b1']}"}}], favourite: {id: "${books['b2']}"}}]) { numUids } }`)).toEqual({
      data: { addShelf: { numUids: 1 } },
    });
    typed = await aclLogin(server.url, 'tia', 'tiapass1');
    untyped = await aclLogin(server.url, 'uma', 'umapass1');
  });

  afterAll(async () => {
    await server.stop();
  });

  const interfaceQuery = '{ queryThing(order: {asc: name}) { __typename name ... on Book { pages kind: __typename } ... on Film { minutes } } }';

  it('an interface query completes each node as its concrete type with READ on dgraph.type', async () => {
    expect(await as(typed, interfaceQuery)).toEqual({
      data: {
        queryThing: [
          { __typename: 'Book', name: 'b1', pages: 10, kind: 'Book' },
          { __typename: 'Book', name: 'b2', pages: null, kind: 'Book' },
          { __typename: 'Film', name: 'f1', minutes: 90 },
        ],
      },
    });
  });

  it('without it, every fragment field is kept, __typename is the type it was written on', async () => {
    expect(await as(untyped, interfaceQuery)).toEqual({
      data: {
        queryThing: [
          { __typename: 'Thing', name: 'b1', pages: 10, kind: 'Book', minutes: null },
          { __typename: 'Thing', name: 'b2', pages: null, kind: 'Book', minutes: null },
          { __typename: 'Thing', name: 'f1', pages: null, kind: 'Book', minutes: 90 },
        ],
      },
    });
  });

  it('a union edge and an interface edge, and a non-null field of another member type', async () => {
    const query = '{ queryShelf { label items { __typename ... on Book { name pages } ... on Film { minutes } } favourite { __typename name } } }';
    expect(await as(typed, query)).toEqual({
      data: { queryShelf: [{ label: 's1', items: [{ __typename: 'Book', name: 'b1', pages: 10 }], favourite: { __typename: 'Book', name: 'b2' } }] },
    });
    expect(await as(untyped, query)).toEqual({
      data: { queryShelf: [{ label: 's1', items: [{ __typename: 'Media', name: 'b1', pages: 10, minutes: null }], favourite: { __typename: 'Thing', name: 'b2' } }] },
    });
    const nonNull = '{ queryShelf { label items { ... on Book { name } ... on Film { rating } } } }';
    expect(await as(typed, nonNull)).toEqual({ data: { queryShelf: [{ label: 's1', items: [{ name: 'b1' }] }] } });
    expect(await as(untyped, nonNull)).toEqual({
      errors: [
        {
          message: "Non-nullable field 'rating' (type String!) was not present in result from Dgraph.  GraphQL error propagation triggered.",
          locations: [{ line: 1, column: 65 }],
          path: ['queryShelf', 0, 'items', 0, 'rating'],
        },
      ],
      data: { queryShelf: [{ label: 's1', items: [null] }] },
    });
  });

  it('a concrete type query is unchanged without READ on dgraph.type', async () => {
    expect(await as(untyped, '{ queryBook(order: {asc: name}) { __typename name pages } }')).toEqual({
      data: { queryBook: [{ __typename: 'Book', name: 'b1', pages: 10 }, { __typename: 'Book', name: 'b2', pages: null }] },
    });
  });
});
