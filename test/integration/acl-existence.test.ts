// The existence lookups of a mutation under ACL. Dgraph's mutation rewriting asks, in a DQL query,
// which @id values and IDs name existing nodes (`Book_1(func: eq(Book.isbn, "1")) { uid dgraph.type }`)
// and keeps a node only when its dgraph.type holds the expected type; that query is pruned like any
// other (edgraph authorizeQuery): without READ on the @id predicate its root goes, without READ on
// dgraph.type the types go. Either way the node is not found: an add makes a new node with the same
// @id value (no "already exists"), an upsert adds instead of updating, a nested @id reference creates
// a node, and a reference by ID is "isn't a" its type. Dgraph runs a mutation's root fields one after
// another, each checked (WRITE) as it runs: a later field sees the nodes an earlier one made, and the
// fields before a refused one keep their writes. Real server over HTTP, data read back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body } from './helpers/acl-client.js';
import { AclServer } from './helpers/acl-server.js';

const schema = `
type Book {
  id: ID!
  isbn: String! @id
  title: String
}
type Shelf {
  id: ID!
  label: String! @id
  books: [Book]
}
`;

const rules = (omit: string): string =>
  ['Book.isbn', 'Book.title', 'Shelf.label', 'Shelf.books', 'dgraph.type']
    .map((predicate) => `{predicate: "${predicate}", permission: ${predicate === omit ? 2 : 6}}`)
    .join(', ');

describe('existence lookups of mutations under ACL', () => {
  const acl = new AclServer('service-acl-existence-');
  const users = [['fay', 'faypass1', 'full'], ['nia', 'niapass1', 'noxid'], ['ned', 'nedpass1', 'notype'], ['tim', 'timpass1', 'notitle']] as const;
  let groot: string;
  /** READ and WRITE on everything. */
  let full: string;
  /** WRITE but no READ on Book.isbn. */
  let noXid: string;
  /** WRITE but no READ on dgraph.type. */
  let noType: string;
  /** READ and WRITE on everything but Book.title (READ only). */
  let noTitle: string;
  let first: string;
  const as = (token: string, query: string): Promise<Body> => acl.as(token, query);
  const books = async (): Promise<unknown> => (await as(groot, '{ queryBook(order: {asc: title}) { isbn title } }')).data;

  beforeAll(async () => {
    await acl.start();
    groot = acl.groot;
    await acl.addGroupsAndUsers(
      { full: rules(''), noxid: rules('Book.isbn'), notype: rules('dgraph.type'), notitle: rules('').replace('"Book.title", permission: 6', '"Book.title", permission: 4') },
      users,
    );
    await acl.uploadSchema(schema);
    const added = await as(groot, 'mutation { addBook(input: [{isbn: "1", title: "a"}]) { book { id } } }');
    first = (added.data as { addBook: { book: { id: string }[] } }).addBook.book[0]?.id ?? '';
    [full, noXid, noType, noTitle] = await acl.loginAll(users);
  });

  afterAll(() => acl.remove());

  it('with READ on both, an existing @id value is found: add refuses, upsert updates', async () => {
    expect(await as(full, 'mutation { addBook(input: [{isbn: "1", title: "b"}]) { numUids } }')).toEqual({
      errors: [{ message: 'couldn\'t rewrite mutation addBook because failed to rewrite mutation payload because id 1 already exists for field isbn inside type Book', locations: [{ line: 1, column: 12 }], path: ['addBook'] }],
      data: { addBook: null },
    });
    expect(await as(full, 'mutation { addBook(input: [{isbn: "1", title: "a2"}], upsert: true) { numUids } }')).toEqual({ data: { addBook: { numUids: 1 } } });
    expect(await books()).toEqual({ queryBook: [{ isbn: '1', title: 'a2' }] });
  });

  it('without READ on the @id predicate the node is not found: a second node with the same value', async () => {
    expect(await as(noXid, 'mutation { addBook(input: [{isbn: "1", title: "b"}]) { numUids } }')).toEqual({ data: { addBook: { numUids: 1 } } });
    expect(await as(noXid, 'mutation { addBook(input: [{isbn: "1", title: "c"}], upsert: true) { numUids } }')).toEqual({ data: { addBook: { numUids: 1 } } });
    expect(await books()).toEqual({ queryBook: [{ isbn: '1', title: 'a2' }, { isbn: '1', title: 'b' }, { isbn: '1', title: 'c' }] });
  });

  it('without READ on dgraph.type: a nested @id reference creates a node, a reference by ID is refused', async () => {
    expect(await as(noType, 'mutation { addShelf(input: [{label: "s1", books: [{isbn: "1", title: "d"}]}]) { numUids } }')).toEqual({ data: { addShelf: { numUids: 2 } } });
    expect(await books()).toEqual({ queryBook: [{ isbn: '1', title: 'a2' }, { isbn: '1', title: 'b' }, { isbn: '1', title: 'c' }, { isbn: '1', title: 'd' }] });
    expect(await as(noType, `mutation { addShelf(input: [{label: "s2", books: [{id: "${first}"}]}]) { numUids } }`)).toEqual({
      errors: [{ message: `couldn't rewrite mutation addShelf because failed to rewrite mutation payload because ID "${first}" isn't a Book`, locations: [{ line: 1, column: 12 }], path: ['addShelf'] }],
      data: { addShelf: null },
    });
    // The same reference by a user who may read dgraph.type links the node.
    expect(await as(full, `mutation { addShelf(input: [{label: "s3", books: [{id: "${first}"}]}]) { numUids } }`)).toEqual({ data: { addShelf: { numUids: 1 } } });
    expect((await as(groot, '{ queryShelf(order: {asc: label}) { label books { title } } }')).data).toEqual({
      queryShelf: [
        { label: 's1', books: [{ title: 'd' }] },
        { label: 's3', books: [{ title: 'a2' }] },
      ],
    });
  });

  it('each root field is checked as it runs: it sees the nodes of the fields before it, which keep their writes', async () => {
    // Book 9 exists once addBook ran, so the reference links it alone (its title ignored: no WRITE needed).
    expect(await as(noTitle, 'mutation { addBook(input: [{isbn: "9"}]) { numUids } addShelf(input: [{label: "s9", books: [{isbn: "9", title: "ignored"}]}]) { numUids } }')).toEqual({
      data: { addBook: { numUids: 1 }, addShelf: { numUids: 1 } },
    });
    expect((await as(groot, '{ getShelf(label: "s9") { books { isbn title } } }')).data).toEqual({ getShelf: { books: [{ isbn: '9', title: null }] } });
    // A new book with a title is refused; the field before it ran, the one after did not.
    expect(await as(noTitle, 'mutation { a: addBook(input: [{isbn: "10"}]) { numUids } b: addShelf(input: [{label: "s10", books: [{isbn: "11", title: "t"}]}]) { numUids } c: addBook(input: [{isbn: "12"}]) { numUids } }')).toEqual({
      errors: [
        {
          message: 'mutation addShelf failed because Dgraph execution failed because rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: Book.title \n',
          locations: [{ line: 1, column: 58 }],
          path: ['b'],
        },
        { message: 'Mutation c was not executed because of a previous error.', locations: [{ line: 1, column: 142 }], path: ['c'] },
      ],
      data: { a: { numUids: 1 }, b: null, c: null },
    });
    expect((await as(groot, '{ queryBook(filter: {isbn: {in: ["10", "11", "12"]}}) { isbn } }')).data).toEqual({ queryBook: [{ isbn: '10' }] });
  });
});
