// Nested add inputs as Dgraph's mutation rewriter handles them, over HTTP against the real server
// (add_mutation_test.yaml "Add mutation for person with @hasInverse", "Deep mutation alternate id
// xid", "... multiple nodes are found for existence queries"):
// - a list-valued inverse field inside a nested object is written, not dropped (Dgraph's
//   deleteInverseObject drops only single-valued inverse fields): its new nodes are created;
// - @id values of one object naming two different existing nodes are refused when the object is to
//   be linked or upserted: `multiple nodes found for given xid values, updation not possible`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `
type Person { id: ID!  name: String @search(by: [hash])  friends: [Person] @hasInverse(field: friends) }
type District { code: String! @id  name: String!  cities: [City] @hasInverse(field: district) }
type City { id: ID!  name: String! @search(by: [hash])  district: District }
type Book { id: ID!  title: String @id  ISBN: String @id  author: Writer }
type Writer { name: String! @id  book: Book }
`;
let server: ServerProcess;

const gql = (query: string): Promise<{ data?: any; errors?: unknown[] }> => askWithoutExtensions(server.url, query);

beforeAll(async () => {
  server = await startWithSchema(schema);
});
afterAll(async () => {
  await server.stop();
});

describe('nested add references', () => {
  it('a nested list inverse field creates its new nodes', async () => {
    const added = await gql(`mutation { addPerson(input: [{ name: "Or", friends: [{ name: "Michal", friends: [{ name: "Justin" }] }] }]) { numUids } }`);
    expect(added).toEqual({ data: { addPerson: { numUids: 3 } } });
    expect(await gql(`{ queryPerson(order: { asc: name }) { name friends(order: { asc: name }) { name } } }`)).toEqual({
      data: {
        queryPerson: [
          { name: 'Justin', friends: [{ name: 'Michal' }] },
          { name: 'Michal', friends: [{ name: 'Justin' }, { name: 'Or' }] },
          { name: 'Or', friends: [{ name: 'Michal' }] },
        ],
      },
    });
    await gql(`mutation { addCity(input: [{ name: "c1", district: { code: "d1", name: "d1", cities: [{ name: "c2" }] } }]) { numUids } }`);
    expect(await gql(`{ getDistrict(code: "d1") { cities(order: { asc: name }) { name district { code } } } }`)).toEqual({
      data: { getDistrict: { cities: [{ name: 'c1', district: { code: 'd1' } }, { name: 'c2', district: { code: 'd1' } }] } },
    });
  });

  it('@id values naming two different nodes are refused for a link and for an upsert', async () => {
    await gql(`mutation { addBook(input: [{ title: "Sapiens", ISBN: "B00" }, { title: "Other", ISBN: "B01" }]) { numUids } }`);
    const nested = await gql(`mutation { addWriter(input: [{ name: "Yuval", book: { title: "Sapiens", ISBN: "B01" } }]) { numUids } }`);
    const upsert = await gql(`mutation { addBook(input: [{ title: "Sapiens", ISBN: "B01" }], upsert: true) { numUids } }`);
    for (const [answer, name] of [[nested, 'addWriter'], [upsert, 'addBook']] as const) {
      expect(answer).toEqual({
        data: { [name]: null },
        errors: [
          {
            message: `couldn't rewrite mutation ${name} because failed to rewrite mutation payload because multiple nodes found for given xid values, updation not possible`,
            locations: [{ line: 1, column: 12 }],
            path: [name],
          },
        ],
      });
    }
    expect(await gql(`{ queryWriter { name } queryBook(order: { asc: title }) { title ISBN } }`)).toEqual({
      data: { queryWriter: [], queryBook: [{ title: 'Other', ISBN: 'B01' }, { title: 'Sapiens', ISBN: 'B00' }] },
    });
  });
});
