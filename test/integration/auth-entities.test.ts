// Apollo federation `_entities` under `@auth` query rules, over real HTTP: the four "Entities query …"
// cases of dgraph-testdata/resolve/auth_query_test.yaml on Dgraph's auth e2e schema (Mission: a graph
// rule on supervisorName; Astronaut: RBAC on ROLE, its missions under Mission's rule). As Dgraph's
// rewriting (query_rewriter.go entitiesQuery): an RBAC-false type answers no entities, a node its rule
// does not let through is not found (so the found ones come in ascending key order, as for any
// missing key), and nested edges are under their own type's rule.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAs, e2eAuthSchema, e2eSchemaWithoutRules } from './helpers/auth-e2e.js';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

function ask(query: string, claims?: Record<string, unknown>): Promise<unknown> {
  return askAs(server.url, query, claims);
}

beforeAll(async () => {
  server = await startWithSchema(e2eSchemaWithoutRules);
  const added = await (
    await postGraphql(server.url, {
      query: `mutation {
        addMission(input: [
          {id: "0x1", designation: "M1", startDate: "2020", supervisorName: "user"},
          {id: "0x2", designation: "M2", supervisorName: "other"},
          {id: "0x3", designation: "M3", supervisorName: "user"}
        ]) { numUids }
        addAstronaut(input: [{id: "0x1", missions: [{id: "0x1"}, {id: "0x2"}]}, {id: "0x2", missions: [{id: "0x3"}]}, {id: "0x3"}]) { numUids }
      }`,
    })
  ).json();
  expect(added).toMatchObject({ data: { addMission: { numUids: 3 }, addAstronaut: { numUids: 3 } } });
  expect(await uploadSchema(server.url, e2eAuthSchema)).toEqual(uploadSucceeded);
});
afterAll(async () => {
  await server.stop();
});

const missions = `query {
  _entities(representations: [{__typename: "Mission", id: "0x1"}{__typename: "Mission", id: "0x2"}, {__typename: "Mission", id: "0x3"}]) {
    ... on Mission { id designation startDate }
  }
}`;
const astronauts = `query {
  _entities(representations: [{__typename: "Astronaut", id: "0x3"},{__typename: "Astronaut", id: "0x1"},{__typename: "Astronaut", id: "0x2"}]) {
    ... on Astronaut { id missions { designation } }
  }
}`;

describe('_entities under @auth query rules', () => {
  it('Entities query with query auth rules: only the missions the graph rule lets through, in key order', async () => {
    expect(await ask(missions, { USER: 'user' })).toEqual({
      data: { _entities: [{ id: '0x1', designation: 'M1', startDate: '2020' }, { id: '0x3', designation: 'M3', startDate: null }] },
    });
    expect(await ask(missions, { USER: 'nobody' })).toEqual({ data: { _entities: [] } });
  });

  it('Entities query with top level RBAC rule true and level 1 query auth rule: every astronaut, missions under their rule', async () => {
    expect(await ask(astronauts, { ROLE: 'admin', USER: 'user' })).toEqual({
      data: { _entities: [{ id: '0x3', missions: [] }, { id: '0x1', missions: [{ designation: 'M1' }] }, { id: '0x2', missions: [{ designation: 'M3' }] }] },
    });
  });

  it('Entities query with RBAC rule false: no entities', async () => {
    expect(await ask(astronauts, { ROLE: 'user' })).toEqual({ data: { _entities: [] } });
    expect(await ask(astronauts)).toEqual({ data: { _entities: [] } });
  });

  it('Entities query with top RBAC rules true and missing JWT variable for level 1 query auth rule: no missions', async () => {
    expect(await ask(astronauts, { ROLE: 'admin' })).toEqual({
      data: { _entities: [{ id: '0x3', missions: [] }, { id: '0x1', missions: [] }, { id: '0x2', missions: [] }] },
    });
  });
});
