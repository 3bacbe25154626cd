// Interface and union results for a user without READ on dgraph.type. Dgraph asks for dgraph.type
// only under abstract fields, to pick each node's concrete type in completion; ACL prunes it from the
// query, so completion has no type: every field of every fragment is kept (one per response name, the
// first occurrence), each read from the predicate of the type it was selected on (absent: null, or
// the non-null error), and `__typename` is the type the selection was written on (the interface or
// union itself, or a fragment's type condition). Nodes are still found: `type(T)` needs no READ.
// Real server over HTTP, whole answers; the same queries by a user with READ on dgraph.type first.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body } from './helpers/acl-client.js';
import { AclServer } from './helpers/acl-server.js';

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

describe('interface and union results without READ on dgraph.type', () => {
  const acl = new AclServer('service-acl-abstract-');
  const users = [['tia', 'tiapass1', 'typed'], ['uma', 'umapass1', 'untyped']] as const;
  let typed: string;
  let untyped: string;
  const as = (token: string, query: string): Promise<Body> => acl.as(token, query);

  beforeAll(async () => {
    await acl.start();
    const groot = acl.groot;
    await acl.addGroupsAndUsers({ typed: readRules(true), untyped: readRules(false) }, users);
    await acl.uploadSchema(schema);
    const added = await as(groot, 'mutation { addBook(input: [{name: "b1", pages: 10}, {name: "b2"}]) { book { id name } } addFilm(input: [{name: "f1", minutes: 90, rating: "PG"}]) { numUids } }');
    const books = Object.fromEntries((added.data as { addBook: { book: { id: string; name: string }[] } }).addBook.book.map((b) => [b.name, b.id]));
    expect(await as(groot, `mutation { addShelf(input: [{label: "s1", items: [{bookRef: {id: "${books['b1']}"}}], favourite: {id: "${books['b2']}"}}]) { numUids } }`)).toEqual({
      data: { addShelf: { numUids: 1 } },
    });
    [typed, untyped] = await acl.loginAll(users);
  });

  afterAll(() => acl.remove());

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
