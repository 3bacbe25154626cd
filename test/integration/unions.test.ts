// Issue #13: edges of a union type, end to end over HTTP against the real server process: written
// through the `<member>Ref` inputs, read back with fragments, `__typename`, the `memberTypes` filter
// and member filters, paged, changed by update (set/remove), through a deleted member, and kept
// across a restart. Expected answers follow Dgraph's e2e union tests (graphql/e2e/common/fragment.go)
// and its query rewriting of union filters (query_test.yaml "query union field - ...").

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';
import { findLog } from './helpers/log-records.js';

export const unionSchema = `
enum AnimalCategory { Fish Amphibian Reptile Bird Mammal InVertebrate }
interface Animal { id: ID! category: AnimalCategory @search }
type Dog implements Animal { breed: String @search(by: [term]) }
type Parrot implements Animal { repeatsWords: [String] }
interface Character { id: ID! name: String! @search(by: [exact]) }
type Human implements Character { totalCredits: Int }
type Plant { id: ID! breed: String }
union HomeMember = Dog | Parrot | Human | Plant
type Home { id: ID! address: String @search(by: [hash]) members: [HomeMember] favouriteMember: HomeMember }
`;

interface Response {
  data?: any;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
}

const dataDir = makeTempDir('unions-');
let server: ServerProcess;
let humanId: string;
let homeId: string;
let dogId: string;
let plantId: string;

// Mutations carry extensions.requestID (a fresh UUID): compared apart from the rest.
const gql = (query: string, variables?: Record<string, unknown>): Promise<Response> => askWithoutExtensions<Response>(server.url, query, variables);

const allMembers = `
  __typename
  ... on Animal { category }
  ... on Dog { id breed }
  ... on Parrot { repeatsWords }
  ... on Character { id }
  ... on Human { name }
  ... on Plant { id }
`;

beforeAll(async () => {
  server = await startOn(dataDir);
  expect(await uploadSchema(server.url, unionSchema)).toEqual(uploadSucceeded);
  const human = await gql(`mutation { addHuman(input: [{ name: "Han", totalCredits: 10 }]) { human { id } } }`);
  expect(human.errors).toBeUndefined();
  humanId = human.data.addHuman.human[0].id;
  const home = await gql(
    `mutation ($input: AddHomeInput!) {
      addHome(input: [$input]) { home { id members { __typename ... on Animal { id } ... on Human { id } ... on Plant { id } } } }
    }`,
    {
      input: {
        address: 'Avenger Street',
        members: [
          { dogRef: { category: 'Mammal', breed: 'German Shepherd' } },
          { parrotRef: { category: 'Bird', repeatsWords: ['squawk'] } },
          { humanRef: { id: humanId } },
          { plantRef: { breed: 'Flower' } },
        ],
        favouriteMember: { humanRef: { id: humanId } },
      },
    },
  );
  expect(home.errors).toBeUndefined();
  homeId = home.data.addHome.home[0].id;
  const members = home.data.addHome.home[0].members as { __typename: string; id: string }[];
  expect(members.map((m) => m.__typename)).toEqual(['Human', 'Dog', 'Parrot', 'Plant']);
  const idOf = (name: string): string => members.find((m) => m.__typename === name)?.id ?? '';
  dogId = idOf('Dog');
  plantId = idOf('Plant');
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('union edges over HTTP', () => {
  it('reads a union list with fragments on members and on their interfaces, and __typename', async () => {
    const answer = await gql(`{ queryHome { address members { ${allMembers} } favouriteMember { __typename ... on Human { name } } } }`);
    expect(answer).toEqual({
      data: {
        queryHome: [
          {
            address: 'Avenger Street',
            members: [
              { __typename: 'Human', id: humanId, name: 'Han' },
              { __typename: 'Dog', category: 'Mammal', id: dogId, breed: 'German Shepherd' },
              { __typename: 'Parrot', category: 'Bird', repeatsWords: ['squawk'] },
              { __typename: 'Plant', id: plantId },
            ],
            favouriteMember: { __typename: 'Human', name: 'Han' },
          },
        ],
      },
    });
  });

  it('reads through get<T> too, and fields of other members stay out of each object', async () => {
    const answer = await gql(
      `query ($id: ID!) { getHome(id: $id) { members { ... on Animal { __typename } ... on Dog { breed } ... on Human { name } ... on Plant { breed } } } }`,
      { id: homeId },
    );
    expect(answer).toEqual({
      data: { getHome: { members: [{ name: 'Han' }, { __typename: 'Dog', breed: 'German Shepherd' }, { __typename: 'Parrot' }, { breed: 'Flower' }] } },
    });
  });

  it('filters by memberTypes and by member filters (OR over the members, type AND filter for each)', async () => {
    const only = await gql(`{ queryHome { members(filter: { memberTypes: [Dog, Plant] }) { __typename } } }`);
    expect(only).toEqual({ data: { queryHome: [{ members: [{ __typename: 'Dog' }, { __typename: 'Plant' }] }] } });
    // Without memberTypes every member is kept; a member filter restricts its own member only.
    const dogFilter = await gql(`{ queryHome { members(filter: { dogFilter: { breed: { allofterms: "poodle" } } }) { __typename } } }`);
    expect(dogFilter).toEqual({ data: { queryHome: [{ members: [{ __typename: 'Human' }, { __typename: 'Parrot' }, { __typename: 'Plant' }] }] } });
    const both = await gql(
      `{ queryHome { members(filter: { memberTypes: [Dog, Parrot], dogFilter: { breed: { allofterms: "shepherd german" } }, parrotFilter: { category: { eq: Fish } } }) { __typename } } }`,
    );
    expect(both).toEqual({ data: { queryHome: [{ members: [{ __typename: 'Dog' }] }] } });
    const humans = await gql(`{ queryHome { members(filter: { humanFilter: { name: { eq: "Han" } }, memberTypes: [Human] }) { ... on Human { name } } } }`);
    expect(humans).toEqual({ data: { queryHome: [{ members: [{ name: 'Han' }] }] } });
  });

  it('an empty memberTypes list selects nothing: [] for lists, null for a single edge', async () => {
    const answer = await gql(`{ queryHome { members(filter: { memberTypes: [] }) { __typename } favouriteMember(filter: { memberTypes: [] }) { __typename } } }`);
    expect(answer).toEqual({ data: { queryHome: [{ members: [], favouriteMember: null }] } });
    const single = await gql(`{ queryHome { favouriteMember(filter: { memberTypes: [Dog] }) { __typename } } }`);
    expect(single).toEqual({ data: { queryHome: [{ favouriteMember: null }] } });
  });

  it('pages union lists with first and offset', async () => {
    const answer = await gql(`{ queryHome { a: members(first: 2) { __typename } b: members(first: 2, offset: 1) { __typename } c: members(filter: { memberTypes: [Dog, Parrot, Plant] }, offset: 2) { __typename } } }`);
    expect(answer).toEqual({
      data: { queryHome: [{ a: [{ __typename: 'Human' }, { __typename: 'Dog' }], b: [{ __typename: 'Dog' }, { __typename: 'Parrot' }], c: [{ __typename: 'Plant' }] }] },
    });
  });

  it('has on a union field, and @cascade over it', async () => {
    await gql(`mutation { addHome(input: [{ address: "Empty Lane" }]) { numUids } }`);
    const has = await gql(`{ queryHome(filter: { has: members }) { address } hasFav: queryHome(filter: { has: favouriteMember }) { address } }`);
    expect(has).toEqual({ data: { queryHome: [{ address: 'Avenger Street' }], hasFav: [{ address: 'Avenger Street' }] } });
    const cascade = await gql(`{ queryHome @cascade { address favouriteMember { __typename } } }`);
    expect(cascade).toEqual({ data: { queryHome: [{ address: 'Avenger Street', favouriteMember: { __typename: 'Human' } }] } });
    const notHas = await gql(`{ queryHome(filter: { not: { has: members } }) { address members { __typename } } }`);
    expect(notHas).toEqual({ data: { queryHome: [{ address: 'Empty Lane', members: [] }] } });
  });

  it('mutation payloads read union edges', async () => {
    const answer = await gql(
      `mutation { addHome(input: [{ address: "Payload Road", favouriteMember: { plantRef: { breed: "Cactus" } } }]) { home { favouriteMember { __typename ... on Plant { breed } } } } }`,
    );
    expect(answer).toEqual({ data: { addHome: { home: [{ favouriteMember: { __typename: 'Plant', breed: 'Cactus' } }] } } });
  });
});

describe('union edges changed by update and delete', () => {
  let otherHome: string;
  let cat: string;

  beforeAll(async () => {
    const added = await gql(
      `mutation { addHome(input: [{ address: "Update Close", members: [{ plantRef: { breed: "Fern" } }] }]) { home { id members { ... on Plant { id } } } } }`,
    );
    expect(added.errors).toBeUndefined();
    otherHome = added.data.addHome.home[0].id;
    cat = added.data.addHome.home[0].members[0].id;
  });

  const membersOf = async (): Promise<unknown> =>
    (await gql(`query ($id: ID!) { getHome(id: $id) { members { __typename ... on Dog { breed } ... on Plant { breed } } favouriteMember { __typename } } }`, { id: otherHome })).data;

  it('set adds union references (new and existing nodes), remove unlinks them', async () => {
    const set = await gql(
      `mutation ($id: ID!, $dog: ID!) { updateHome(input: { filter: { id: [$id] }, set: { members: [{ dogRef: { id: $dog } }, { dogRef: { breed: "Poodle", category: Mammal } }], favouriteMember: { dogRef: { id: $dog } } } }) { numUids } }`,
      { id: otherHome, dog: dogId },
    );
    expect(set).toEqual({ data: { updateHome: { numUids: 1 } } });
    expect(await membersOf()).toEqual({
      getHome: {
        members: [{ __typename: 'Dog', breed: 'German Shepherd' }, { __typename: 'Plant', breed: 'Fern' }, { __typename: 'Dog', breed: 'Poodle' }],
        favouriteMember: { __typename: 'Dog' },
      },
    });
    const removed = await gql(
      `mutation ($id: ID!, $dog: ID!, $plant: ID!) { updateHome(input: { filter: { id: [$id] }, remove: { members: [{ dogRef: { id: $dog } }, { plantRef: { id: $plant } }], favouriteMember: { dogRef: { id: $dog } } } }) { numUids } }`,
      { id: otherHome, dog: dogId, plant: cat },
    );
    expect(removed).toEqual({ data: { updateHome: { numUids: 1 } } });
    expect(await membersOf()).toEqual({ getHome: { members: [{ __typename: 'Dog', breed: 'Poodle' }], favouriteMember: null } });
  });

  it('a union reference must name exactly one member', async () => {
    const answer = await gql(
      `mutation ($id: ID!) { updateHome(input: { filter: { id: [$id] }, set: { favouriteMember: { dogRef: { breed: "A" }, plantRef: { breed: "B" } } } }) { numUids } }`,
      { id: otherHome },
    );
    expect(answer).toEqual({
      data: { updateHome: null },
      errors: [
        {
          message:
            "couldn't rewrite mutation updateHome because failed to rewrite mutation payload because value for field `favouriteMember` in type `Home` must have exactly one child, found 2 children",
          locations: [{ line: 1, column: 23 }],
          path: ['updateHome'],
        },
      ],
    });
  });

  it('a deleted member disappears from the union edge', async () => {
    const deleted = await gql(`mutation ($id: [ID!]) { deletePlant(filter: { id: $id }) { numUids } }`, { id: [plantId] });
    expect(deleted).toEqual({ data: { deletePlant: { numUids: 1 } } });
    const answer = await gql(`query ($id: ID!) { getHome(id: $id) { members { __typename } } }`, { id: homeId });
    expect(answer).toEqual({ data: { getHome: { members: [{ __typename: 'Human' }, { __typename: 'Dog' }, { __typename: 'Parrot' }] } } });
  });
});

describe('union edges across a restart', () => {
  it('survive a crash (log replay) and a clean stop (snapshot)', async () => {
    const query = `query ($id: ID!) { getHome(id: $id) { members { ${allMembers} } favouriteMember { __typename } } }`;
    const before = await gql(query, { id: homeId });
    expect(before.data.getHome.members).toHaveLength(3);
    server = await restart(server, 'SIGKILL');
    expect(findLog(server.output(), 'restored', { snapshotLsn: 0 })?.['replayed']).toBeGreaterThan(0);
    expect(await gql(query, { id: homeId })).toEqual(before);
    server = await restart(server, 'SIGTERM');
    expect(findLog(server.output(), 'restored', { replayed: 0 })?.['snapshotLsn']).toBeGreaterThan(0);
    expect(await gql(query, { id: homeId })).toEqual(before);
  });
});

/** A server on a data directory that outlives it (the helper's own temporary directory stays unused). */
export function startOn(dir: string): Promise<ServerProcess> {
  return startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir] });
}

/** Kills the server (SIGKILL: the log is replayed; SIGTERM: it snapshots on the way out) and starts another on its data. */
export async function restart(old: ServerProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<ServerProcess> {
  old.child.kill(signal);
  await old.exited;
  await old.stop();
  return startOn(dataDir);
}
