// Interface and union results under ACL without READ on dgraph.type, over real HTTP. Dgraph's GraphQL
// layer asks for dgraph.type to learn each node's concrete type; authorizeQuery prunes it, so the
// completion (query/outputnode_graphql.go) has no type: every fragment's fields are written (null where
// the node holds none, Dgraph's non-null error where one is required) and `__typename` answers the
// type the field was selected on (schema/wrappers.go TypeName, IncludeAbstractField).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AclServer } from './helpers/acl-server.js';

const schema = `
interface Character {
  id: ID!
  name: String! @search(by: [hash])
}
type Human implements Character {
  starships: Int
}
type Droid implements Character {
  primaryFunction: String!
}
union Thing = Human | Droid
type Box {
  label: String! @id
  things: [Thing]
}`;

const readable = ['Character.name', 'Human.starships', 'Droid.primaryFunction', 'Box.label', 'Box.things'];
const rules = (extra: string[]): string => [...readable, ...extra].map((p) => `{predicate: "${p}", permission: 4}`).join(', ');

const nonNullMissing = (field: string, type: string): string =>
  `Non-nullable field '${field}' (type ${type}) was not present in result from Dgraph.  GraphQL error propagation triggered.`;

describe('ACL: interface and union results without READ on dgraph.type', () => {
  const acl = new AclServer('service-acl-abstract-');
  const users = [['tina', 'tinapass', 'typed'], ['ugo', 'ugopass1', 'untyped']] as const;
  let typed: string;
  let untyped: string;
  const graphql = (query: string, token: string): Promise<unknown> => acl.as(token, query);

  beforeAll(async () => {
    await acl.start();
    const groot = acl.groot;
    await acl.addGroupsAndUsers({ typed: rules(['dgraph.type']), untyped: rules([]) }, users);
    await acl.uploadSchema(schema);
    expect(await graphql(`mutation { addHuman(input: [{name: "Luke", starships: 2}]) { numUids } }`, groot)).toEqual({ data: { addHuman: { numUids: 1 } } });
    expect(await graphql(`mutation { addDroid(input: [{name: "C3PO", primaryFunction: "protocol"}]) { numUids } }`, groot)).toEqual({ data: { addDroid: { numUids: 1 } } });
    expect(await graphql(`mutation { addBox(input: [{label: "crate", things: [{humanRef: {name: "Han", starships: 1}}]}]) { numUids } }`, groot)).toEqual({
      data: { addBox: { numUids: 2 } },
    });
    [typed, untyped] = await acl.loginAll(users);
  }, 60_000);
  afterAll(() => acl.remove());

  const characters = `{ queryCharacter(order: {asc: name}) { name ... on Human { starships } ... on Droid { primaryFunction } __typename } }`;

  it('with READ on dgraph.type each node is completed as its concrete type', async () => {
    expect(await graphql(characters, typed)).toEqual({
      data: {
        queryCharacter: [
          { name: 'C3PO', primaryFunction: 'protocol', __typename: 'Droid' },
          { name: 'Han', starships: 1, __typename: 'Human' },
          { name: 'Luke', starships: 2, __typename: 'Human' },
        ],
      },
    });
  });

  it("without it every fragment's fields are written, __typename is the interface, a missing non-null field nulls the node", async () => {
    const body = await graphql(characters, untyped);
    expect(body).toEqual({
      data: {
        queryCharacter: [{ name: 'C3PO', starships: null, primaryFunction: 'protocol', __typename: 'Character' }, null, null],
      },
      errors: [
        { message: nonNullMissing('primaryFunction', 'String!'), locations: [{ line: 1, column: characters.indexOf('primaryFunction') + 1 }], path: ['queryCharacter', 1, 'primaryFunction'] },
        { message: nonNullMissing('primaryFunction', 'String!'), locations: [{ line: 1, column: characters.indexOf('primaryFunction') + 1 }], path: ['queryCharacter', 2, 'primaryFunction'] },
      ],
    });
    // The keys in Dgraph's order: the selection set's, fragments expanded in place.
    expect(Object.keys((body as { data: { queryCharacter: object[] } }).data.queryCharacter[0] as object)).toEqual(['name', 'starships', 'primaryFunction', '__typename']);
  });

  it('a __typename inside a fragment answers the fragment type; a union member field reads as its member', async () => {
    const query = `{ getBox(label: "crate") { things { ... on Human { name starships __typename } } } }`;
    expect(await graphql(query, typed)).toEqual({ data: { getBox: { things: [{ name: 'Han', starships: 1, __typename: 'Human' }] } } });
    expect(await graphql(query, untyped)).toEqual({ data: { getBox: { things: [{ name: 'Han', starships: 1, __typename: 'Human' }] } } });
    const unionTypename = `{ getBox(label: "crate") { things { __typename ... on Droid { primaryFunction } } } }`;
    expect(await graphql(unionTypename, typed)).toEqual({ data: { getBox: { things: [{ __typename: 'Human' }] } } });
    expect(await graphql(unionTypename, untyped)).toEqual({
      data: { getBox: { things: [null] } },
      errors: [{ message: nonNullMissing('primaryFunction', 'String!'), locations: [{ line: 1, column: unionTypename.indexOf('primaryFunction') + 1 }], path: ['getBox', 'things', 0, 'primaryFunction'] }],
    });
  });
});
