// Interface and union results under ACL without READ on dgraph.type, over real HTTP. Dgraph's GraphQL
// layer asks for dgraph.type to learn each node's concrete type; authorizeQuery prunes it, so the
// completion (query/outputnode_graphql.go) has no type: every fragment's fields are written (null where
// the node holds none, Dgraph's non-null error where one is required) and `__typename` answers the
// type the field was selected on (schema/wrappers.go TypeName, IncludeAbstractField).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSchema, uploadSucceeded } from './helpers/http.js';
import { aclLogin, aclPost } from './helpers/acl-client.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const secret = 'an-acl-secret-of-at-least-32-bytes!!';
const dir = makeTempDir('service-acl-abstract-');
const secretFile = join(dir, 'hmac-secret');
writeFileSync(secretFile, secret);

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

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ACL: interface and union results without READ on dgraph.type', () => {
  let server: ServerProcess;
  const dataDir = join(dir, 'data');
  let typed: string;
  let untyped: string;
  const graphql = (query: string, token: string): Promise<unknown> => aclPost(server.url, '/graphql', query, { 'X-Dgraph-AccessToken': token });

  beforeAll(async () => {
    mkdirSync(dataDir);
    server = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--acl-secret-file', secretFile, '--snapshot-interval', '0'] });
    const groot = await aclLogin(server.url, 'groot', 'password');
    const admin = (query: string): Promise<unknown> => aclPost(server.url, '/admin', query, { 'X-Dgraph-AccessToken': groot });
    await admin(`mutation { addGroup(input: [{name: "typed", rules: [${rules(['dgraph.type'])}]}, {name: "untyped", rules: [${rules([])}]}]) { group { name } } }`);
    await admin(`mutation { addUser(input: [{name: "tina", password: "tinapass", groups: [{name: "typed"}]}, {name: "ugo", password: "ugopass1", groups: [{name: "untyped"}]}]) { user { name } } }`);
    expect(await uploadSchema(server.url, schema, { 'X-Dgraph-AccessToken': groot })).toEqual(uploadSucceeded);
    expect(await graphql(`mutation { addHuman(input: [{name: "Luke", starships: 2}]) { numUids } }`, groot)).toEqual({ data: { addHuman: { numUids: 1 } } });
    expect(await graphql(`mutation { addDroid(input: [{name: "C3PO", primaryFunction: "protocol"}]) { numUids } }`, groot)).toEqual({ data: { addDroid: { numUids: 1 } } });
    expect(await graphql(`mutation { addBox(input: [{label: "crate", things: [{humanRef: {name: "Han", starships: 1}}]}]) { numUids } }`, groot)).toEqual({
      data: { addBox: { numUids: 2 } },
    });
    [typed, untyped] = await Promise.all([aclLogin(server.url, 'tina', 'tinapass'), aclLogin(server.url, 'ugo', 'ugopass1')]);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
  });

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
