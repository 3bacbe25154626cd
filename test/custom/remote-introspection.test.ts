// Remote GraphQL introspection at schema upload: every failure gives its exact upload error
// (REFERENCE §9.3, prefixed `Type T; Field f: inside graphql in @custom directive, `).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, uploaded, type Rig } from './helpers/service.js';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig(['--custom-introspection-timeout-ms', '1500']);
});
afterAll(async () => {
  await rig?.stop();
});

const remoteCountry = `type Country @remote { code: String name: String states: [State] std: Int }
type State @remote { code: String name: String country: Country }`;

function rootSchema(path: string, field: string, graphql: string, extra = remoteCountry, headers = ''): string {
  return `${extra}
type Query {
  ${field} @custom(http: { url: "${rig.mock.url}${path}", method: "POST", graphql: "${graphql}"${headers} })
}`;
}

/** The upload fails with exactly `message`, placed at the line of the field it names, as Dgraph words it. */
async function expectUploadError(sdl: string, message: string): Promise<void> {
  const field = /; Field (\w+):/.exec(message)?.[1] ?? '';
  const line = sdl.split('\n').findIndex((text) => new RegExp(`\\b${field}\\s*[(:]`).test(text)) + 1;
  expect(line).toBeGreaterThan(0);
  expect(await rig.upload(sdl)).toEqual({
    errors: [{ message: `resolving updateGQLSchema failed because input:${line}: ${message}\n (Locations: [{Line: 3, Column: 4}])`, extensions: { code: 'Error' } }],
  });
}

const prefix = (field: string, type = 'Query'): string => `Type ${type}; Field ${field}: inside graphql in @custom directive, `;
const countryQuery = 'query($id: ID!) { country(code: $id) }';

describe('remote introspection at upload', () => {
  const cases: [string, () => string, string][] = [
    ['no query root', () => rootSchema('/nullQueryAndMutationType', 'getCountry(id: ID!): Country!', countryQuery), `${prefix('getCountry')}remote schema doesn't have any queries.`],
    [
      'no mutation root',
      () => `type Country @remote { code: String name: String }\ninput CountryInput { code: String! name: String! }\ntype Query { x(id: ID!): Country! @custom(http: { url: "${rig.mock.url}/validcountry", method: "POST", graphql: "${countryQuery}" }) }
type Mutation { setCountry(input: CountryInput!): Country! @custom(http: { url: "${rig.mock.url}/nullQueryAndMutationType", method: "POST", graphql: "mutation($input: CountryInput!) { setCountry(country: $input) }" }) }`,
      `${prefix('setCountry', 'Mutation')}remote schema doesn't have any mutations.`,
    ],
    ['root type missing from types', () => rootSchema('/missingQueryAndMutationType', 'getCountry(id: ID!): Country!', countryQuery), `${prefix('getCountry')}remote schema doesn't have any type named Query.`],
    ['query not in remote schema', () => rootSchema('/noquery', 'getCountry(id: ID!): Country!', countryQuery), `${prefix('getCountry')}query \`country\` is not present in remote schema.`],
    [
      'return type mismatch',
      () => rootSchema('/validcountry', 'getCountry(id: ID!): Country', countryQuery, 'type Country @remote { code: String name: String }'),
      `${prefix('getCountry')}found return type mismatch for query \`country\`, expected \`Country\`, got \`Country!\`.`,
    ],
    ['argument not in remote', () => rootSchema('/invalidargument', 'getCountry(id: ID!): Country!', countryQuery), `${prefix('getCountry')}argument \`code\` is not present in remote query \`country\`.`],
    [
      'variable type mismatch',
      () => rootSchema('/invalidtype', 'getCountry(id: ID!): Country!', countryQuery),
      `${prefix('getCountry')}found type mismatch for variable \`$id\` in query \`country\`, expected \`ID!\`, got \`Int!\`.`,
    ],
    [
      'required remote argument missing',
      () => rootSchema('/validcountry', 'getCountry(id: ID!): Country!', 'query { country }', 'type Country @remote { code: String name: String }'),
      `${prefix('getCountry')}argument \`code\` in query \`country\` is missing, it is required by remote query.`,
    ],
    [
      'local @remote type missing remotely',
      () => rootSchema('/validcountry', 'getCountry(id: ID!): Country!', countryQuery, 'type Country @remote { code: String name: String }\ntype Planet @remote { name: String }'),
      `${prefix('getCountry')}Unable to find local type Planet in the remote schema`,
    ],
    [
      'local field missing remotely',
      () => rootSchema('/validcountry', 'getCountry(id: ID!): Country!', countryQuery, 'type Country @remote { code: String name: String capital: String }'),
      `${prefix('getCountry')}capital field for the local type Country is not present in the remote type Country`,
    ],
    [
      'input field type mismatch',
      () =>
        rootSchema(
          '/invalidfield',
          'getCountries(filter: CountryInput!): [Country!]!',
          'query($filter: CountryInput!) { countries(filter: $filter) }',
          `type Country @remote { code: String name: String states: [State] std: Int }\ntype State @remote { code: String name: String country: Country }\ninput CountryInput @remote { code: String! name: String! states: [StateInput] }\ninput StateInput @remote { code: String! name: String! }`,
        ),
      `${prefix('getCountries')}expected type for the field code is Int! but got String! in type CountryInput`,
    ],
    [
      'nested input field type mismatch',
      () =>
        rootSchema(
          '/nestedinvalid',
          'getCountries(filter: CountryInput!): [Country!]!',
          'query($filter: CountryInput!) { countries(filter: $filter) }',
          `type Country @remote { code: String name: String states: [State] std: Int }\ntype State @remote { code: String name: String country: Country }\ninput CountryInput @remote { code: String! name: String! states: [StateInput] }\ninput StateInput @remote { code: String! name: String! }`,
        ),
      `${prefix('getCountries')}expected type for the field name is Int! but got String! in type StateInput`,
    ],
    [
      'BATCH argument not a list of input objects',
      () => `type Post @remote { id: ID! text: String comments: Post! }
type Author { id: ID! name: String posts: Post! @custom(http: { url: "${rig.mock.url}/invalidInputForBatchedField", method: "POST", mode: BATCH, graphql: "query($input: [PostFilterInput]) { getPosts(input: $input) }", body: "{ id: $id }" }) }`,
      `${prefix('posts', 'Author')}argument \`input\` for given query \`getPosts\` must be of the form \`[{param1: $var1, param2: $var2, ...}]\` for BATCH mode in remote query.`,
    ],
    [
      'BATCH input type missing remotely',
      () => `type Author { id: ID! name: String posts: String! @custom(http: { url: "${rig.mock.url}/missingTypeForBatchedFieldInput", method: "POST", mode: BATCH, graphql: "query($input: [PostFilterInput]) { getPosts(input: $input) }", body: "{ id: $id }" }) }`,
      `${prefix('posts', 'Author')}remote schema doesn't have any type named PostFilterInput.`,
    ],
    [
      'introspection URL with a query string',
      () => rootSchema('/validcountry?x=1', 'getCountry(id: ID!): Country!', countryQuery, 'type Country @remote { code: String name: String }'),
      `${prefix('getCountry')}POST method cannot have query parameters in url: MOCK/validcountry?x=1`,
    ],
    [
      'answer that is not JSON',
      () => rootSchema('/validatesecrettoken', 'getCountries(filter: CountryInput!): [Country!]!', 'query($filter: CountryInput!) { countries(filter: $filter) }', 'type Country @remote { code: String name: String }\ninput CountryInput { code: String! name: String! }'),
      `${prefix('getCountries')}while json unmarshaling result from remote introspection query: unexpected end of JSON input`,
    ],
    [
      'unreachable endpoint',
      () => rootSchema('/validcountry', 'getCountry(id: ID!): Country!', countryQuery, 'type Country @remote { code: String name: String }').replace(rig.mock.url, 'http://127.0.0.1:1'),
      `${prefix('getCountry')}Post "http://127.0.0.1:1/validcountry": dial tcp 127.0.0.1:1: connect: connection refused`,
    ],
  ];
  for (const [name, sdl, message] of cases) {
    it(name, async () => {
      await expectUploadError(sdl(), message.replace('MOCK', rig.mock.url));
    });
  }

  it('valid remote schemas upload (BATCH getPosts, query, input objects)', async () => {
    expect(
      await rig.upload(`type Post @remote { id: ID! text: String comments: Post! }
type Author { id: ID! name: String posts: Post! @custom(http: { url: "${rig.mock.url}/getPosts", method: "POST", mode: BATCH, graphql: "query($input: [PostFilterInput]) { getPosts(input: $input) }", body: "{ id: $id }" }) }`),
    ).toEqual(uploaded);
    expect(await rig.upload(rootSchema('/validcountry', 'getCountry(id: ID!): Country!', countryQuery, 'type Country @remote { code: String name: String }'))).toEqual(uploaded);
    expect(await rig.gql('query { getCountry(id: "BI") { code name } }')).toEqual({ data: { getCountry: { code: 'BI', name: 'Burundi' } } });
  });

  it('introspectionHeaders take their values from secrets', async () => {
    const sdl = rootSchema(
      '/validatesecrettoken',
      'getCountries(filter: CountryInput!): [Country!]!',
      'query($filter: CountryInput!) { countries(filter: $filter) }',
      'type Country @remote { code: String name: String }\ninput CountryInput { code: String! name: String! }',
      ', introspectionHeaders: ["Github-Api-Token:GITHUB_API_TOKEN"], secretHeaders: ["Github-Api-Token:GITHUB_API_TOKEN"]',
    );
    expect(await rig.upload(`${sdl}\n# Service.Secret GITHUB_API_TOKEN "random-api-token"`)).toEqual(uploaded);
  });

  it('a failed upload changes nothing and never shows secrets', async () => {
    const sdl = `${rootSchema('/invalidtype', 'getCountry(id: ID!): Country!', countryQuery)}\n# Service.Secret TOKEN "hush-hush"`;
    const answer = await rig.upload(sdl);
    expect(JSON.stringify(answer)).not.toContain('hush-hush');
    expect(await rig.gql('query { getCountries(filter: { code: "IN", name: "India" }) { code name } }')).toEqual({ data: { getCountries: [{ code: 'IN', name: 'India' }] } });
  });
});
