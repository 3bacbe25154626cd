// Schema upload errors that name this service's own flag (--lambda-url, not Dgraph's --graphql
// superflag) and echo the meta-line prefix the schema used (`# Dgraph.X` or `# Service.X`), over HTTP
// against the real server (started without --lambda-url): exact messages.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSchema } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** The answer of a refused upload: Dgraph's `resolving updateGQLSchema failed because` shape. */
function refused(message: string): unknown {
  return {
    errors: [{ message: `resolving updateGQLSchema failed because ${message}\n (Locations: [{Line: 3, Column: 4}])`, extensions: { code: 'Error' } }],
  };
}

describe('messages name --lambda-url', () => {
  it('@lambda without --lambda-url', async () => {
    const sdl = 'type T {\n  id: ID!\n  name: String\n  up: String @lambda\n}\n';
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused("input:4: Type T; Field up: has the @lambda directive, but the --lambda-url flag wasn't specified during startup."),
    );
  });

  it('@lambdaOnMutate without --lambda-url', async () => {
    const sdl = 'type T @lambdaOnMutate(add: true) {\n  id: ID!\n  name: String\n}\n';
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused("input:1: Type T: has the @lambdaOnMutate directive, but the `--lambda-url` flag wasn't specified during startup."),
    );
  });
});

const base = 'type T {\n  id: ID!\n  name: String\n}\n';
const auth = (prefix: string, json: string): string => `# ${prefix}.Authorization ${json}`;
const goodAuth = '{"Header":"X-Auth","Namespace":"https://ns","Algo":"HS256","VerificationKey":"secret-key"}';

describe.each(['Dgraph', 'Service'])('messages about # %s.* lines say %s', (prefix) => {
  it('Authorization given twice', async () => {
    const sdl = `${base}${auth(prefix, goodAuth)}\n${auth(prefix, '{"Header":"Y"}')}\n`;
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused(`input: ${prefix}.Authorization should be only be specified once in a schema, found second mention: # ${prefix}.Authorization {"Header":"Y"}`),
    );
  });

  it('Authorization JSON that does not parse', async () => {
    const sdl = `${base}${auth(prefix, '{"Header": }')}\n`;
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused(`input: unable to parse ${prefix}.Authorization. Reason: Unexpected token '}', "{"Header": }" is not valid JSON`),
    );
  });

  it('Authorization in the legacy form with the wrong number of parts', async () => {
    const sdl = `${base}# ${prefix}.Authorization X-Auth https://ns HS256\n`;
    expect(await uploadSchema(server.url, sdl)).toEqual(refused(`input: input: Invalid \`${prefix}.Authorization\` format`));
  });

  it('Authorization missing required fields', async () => {
    const sdl = `${base}${auth(prefix, '{"Header":"X-Auth"}')}\n`;
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused(`input: required field missing in ${prefix}.Authorization: \`Verification key\`/\`JWKUrl\`/\`JWKUrls\` \`Algo\` \`Namespace\``),
    );
  });

  it('Authorization with an unknown Algo (Dgraph checks it at upload)', async () => {
    const sdl = `${base}${auth(prefix, '{"Header":"X-Auth","Namespace":"https://ns","Algo":"HS999","VerificationKey":"k"}')}\n`;
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused('input: invalid jwt algorithm: found HS999, but supported options are: RS256,RS384,RS512,HS256,HS384,HS512'),
    );
  });

  it('Allow-Origin in the wrong format', async () => {
    const line = `# ${prefix}.Allow-Origin http://a.example http://b.example`;
    expect(await uploadSchema(server.url, `${base}${line}\n`)).toEqual(
      refused(`input: incorrect format for specifying ${prefix}.Allow-Origin found for comment: \`${line}\`, it should be \`# ${prefix}.Allow-Origin "http://example.com"\``),
    );
  });

  it('Secret in the wrong format', async () => {
    const line = `# ${prefix}.Secret ONLY_A_NAME`;
    expect(await uploadSchema(server.url, `${base}${line}\n`)).toEqual(
      refused(`input: incorrect format for specifying ${prefix} secret found for comment: \`${line}\`, it should be \`# ${prefix}.Secret key value\``),
    );
  });
});

describe("the schema parser's and the @auth rule validator's words (gqlparser)", () => {
  it('a schema that ends too early: found <EOF>, as gqlparser prints the token', async () => {
    expect(await uploadSchema(server.url, 'type T {\n  id: ID!\n')).toEqual(refused('input:3: Expected Name, found <EOF>'));
  });

  it('a field without its colon: the token kind only, as gqlparser expect() prints it', async () => {
    expect(await uploadSchema(server.url, 'type T {\n  id: ID!\n  a Int\n}\n')).toEqual(refused('input:3: Expected :, found Name'));
  });

  it('a lexical error: gqlparser lexer wording', async () => {
    expect(await uploadSchema(server.url, 'type T {\n  id: ID!\n  a: Int ^\n}\n')).toEqual(refused('input:3: Cannot parse the unexpected character "^".'));
  });

  it('an @auth rule that ends too early: found <EOF>', async () => {
    const sdl = 'type X @auth(query: { rule: "query { queryX(filter: { userRole: { eq: \\"ADMIN\\" } }) { __typename " }) {\n  username: String! @id\n  userRole: String @search(by: [hash])\n}\n';
    expect(await uploadSchema(server.url, sdl)).toEqual(refused('input: Type X: @auth: failed to parse GraphQL rule [reason : Expected Name, found <EOF>]'));
  });

  it("an @auth rule's unknown filter field gets gqlparser's suggestions (Dgraph's auth_schemas_test)", async () => {
    const sdl = 'type X @auth(query: { rule: "query { queryX(filter: { userRle: { eq: \\"ADMIN\\" } }) { __typename } }" }) {\n  username: String! @id\n  userRole: String @search(by: [hash])\n}\n';
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused('input: Type X: @auth: failed to validate GraphQL rule [reason : Field "userRle" is not defined by type XFilter. Did you mean userRole or username?]'),
    );
  });

  it("an @auth rule's unknown argument: gqlparser's wording, with its suggestion", async () => {
    const sdl = 'type X @auth(query: { rule: "query { queryX(filtr: { userRole: { eq: \\"ADMIN\\" } }) { __typename } }" }) {\n  username: String! @id\n  userRole: String @search(by: [hash])\n}\n';
    expect(await uploadSchema(server.url, sdl)).toEqual(
      refused('input: Type X: @auth: failed to validate GraphQL rule [reason : Unknown argument "filtr" on field "queryX" of type "Query". Did you mean "filter"?]'),
    );
  });

  it("an @auth rule's syntax error: tokens as gqlparser prints them", async () => {
    const sdl = 'type X @auth(query: { rule: "query { queryX(filter: ) { __typename } }" }) {\n  username: String! @id\n  userRole: String @search(by: [hash])\n}\n';
    expect(await uploadSchema(server.url, sdl)).toEqual(refused('input: Type X: @auth: failed to parse GraphQL rule [reason : Unexpected )]'));
  });
});
