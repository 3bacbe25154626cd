// Apollo federation `_entities` over HTTP against the real server, as Dgraph answers it
// (graphql/resolve/resolver.go entitiesQueryCompletion): when every distinct key is found, the
// answer follows the order of `representations` (a repeated key repeats its entity); when some key
// is not found, Dgraph does not reorder: the entities found come in ascending key order, with no
// null for the missing ones (the query_test.yaml `_entities` cases on an empty store answer `[]`).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `type Mission @key(fields: "id") { id: String! @id  designation: String! }`;
let server: ServerProcess;

const gql = (query: string): Promise<{ data?: any; errors?: unknown[] }> => askWithoutExtensions(server.url, query);

const entities = (ids: string[]) =>
  `{ _entities(representations: [${ids.map((id) => `{ __typename: "Mission", id: "${id}" }`).join(', ')}]) { ... on Mission { id designation } } }`;

beforeAll(async () => {
  server = await startWithSchema(schema);
  const added = await gql(`mutation { addMission(input: [{ id: "m2", designation: "Two" }, { id: "m1", designation: "One" }]) { numUids } }`);
  expect(added).toEqual({ data: { addMission: { numUids: 2 } } });
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
