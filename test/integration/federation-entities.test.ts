// Apollo federation `_entities` over HTTP against the real server, as Dgraph answers it
// (graphql/resolve/resolver.go entitiesQueryCompletion): when every distinct key is found, the
// answer follows the order of `representations` (a repeated key repeats its entity); when some key
// is not found, Dgraph does not reorder: the entities found come in ascending key order, with no
// null for the missing ones (the query_test.yaml `_entities` cases on an empty store answer `[]`).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `type Mission @key(fields: "id") { id: String! @id  designation: String! }
type Astronaut @key(fields: "id") @extends { id: ID! @external  name: String  missions: [Mission] }`;
let server: ServerProcess;

const gql = (query: string): Promise<{ data?: any; errors?: unknown[] }> => askWithoutExtensions(server.url, query);

const entities = (ids: string[]) =>
  `{ _entities(representations: [${ids.map((id) => `{ __typename: "Mission", id: "${id}" }`).join(', ')}]) { ... on Mission { id designation } } }`;

beforeAll(async () => {
  server = await startWithSchema(schema);
  const added = await gql(`mutation { addMission(input: [{ id: "m2", designation: "Two" }, { id: "m1", designation: "One" }]) { numUids } }`);
  expect(added).toEqual({ data: { addMission: { numUids: 2 } } });
  const astronauts = await gql(`mutation { addAstronaut(input: [{ id: "a-2", name: "Two", missions: [{ id: "m1" }] }, { id: "a-1", name: "One" }]) { astronaut { id name } } }`);
  expect(astronauts).toEqual({ data: { addAstronaut: { astronaut: [{ id: 'a-2', name: 'Two' }, { id: 'a-1', name: 'One' }] } } });
});
afterAll(async () => {
  await server.stop();
});

describe('_entities', () => {
  it('all keys found: the order of representations, repeats included', async () => {
    expect(await gql(entities(['m2', 'm1', 'm2']))).toEqual({
      data: { _entities: [{ id: 'm2', designation: 'Two' }, { id: 'm1', designation: 'One' }, { id: 'm2', designation: 'Two' }] },
    });
  });

  it('a key not found: the found entities in ascending key order, no nulls', async () => {
    expect(await gql(entities(['m9', 'm2', 'm1']))).toEqual({
      data: { _entities: [{ id: 'm1', designation: 'One' }, { id: 'm2', designation: 'Two' }] },
    });
    expect(await gql(entities(['x', 'y']))).toEqual({ data: { _entities: [] } });
  });
});

// Dgraph stores an `@external` ID key of a type extension as a String with a hash index (an XID), not
// as the node's uid (schema/wrappers.go XIDFields; Astronaut.id is `string @index(hash) @upsert`).
describe('an @external ID key', () => {
  it('keeps the value it was given, and is read, got and filtered by it', async () => {
    expect(await gql('{ queryAstronaut(order: { asc: name }) { id name missions { id } } }')).toEqual({
      data: { queryAstronaut: [{ id: 'a-1', name: 'One', missions: [] }, { id: 'a-2', name: 'Two', missions: [{ id: 'm1' }] }] },
    });
    expect(await gql('{ getAstronaut(id: "a-2") { id name } }')).toEqual({ data: { getAstronaut: { id: 'a-2', name: 'Two' } } });
    expect(await gql('{ getAstronaut(id: "0x1") { id } }')).toEqual({ data: { getAstronaut: null } });
    expect(await gql('{ queryAstronaut(filter: { id: ["a-1", "a-9"] }) { id } }')).toEqual({ data: { queryAstronaut: [{ id: 'a-1' }] } });
    expect(await gql('{ queryAstronaut(filter: { not: { id: ["a-1"] } }) { id } }')).toEqual({ data: { queryAstronaut: [{ id: 'a-2' }] } });
  });

  it('answers _entities by the key value', async () => {
    const reps = '[{ __typename: "Astronaut", id: "a-2" }, { __typename: "Astronaut", id: "a-1" }]';
    expect(await gql(`{ _entities(representations: ${reps}) { ... on Astronaut { id name } } }`)).toEqual({
      data: { _entities: [{ id: 'a-2', name: 'Two' }, { id: 'a-1', name: 'One' }] },
    });
  });

  it('refuses a second node with the same key', async () => {
    expect(await gql('mutation { addAstronaut(input: [{ id: "a-1", name: "Again" }]) { numUids } }')).toEqual({
      errors: [
        {
          message: "couldn't rewrite mutation addAstronaut because failed to rewrite mutation payload because id a-1 already exists for field id inside type Astronaut",
          locations: [{ line: 1, column: 12 }],
          path: ['addAstronaut'],
        },
      ],
      data: { addAstronaut: null },
    });
    expect(await gql('{ queryAstronaut(filter: { id: ["a-1"] }) { name } }')).toEqual({ data: { queryAstronaut: [{ name: 'One' }] } });
  });
});
