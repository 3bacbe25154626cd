// The generated API as clients see it over HTTP: full introspection (GraphiQL/Apollo use
// getIntrospectionQuery), getGQLSchema in Dgraph's layout, and secrets never leaving the service.

import { readFileSync } from 'node:fs';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

const schemagen = '../shared/dgraph-testdata/schema/testdata/schemagen';
const secretValue = 'sup3r-s3cret-t0ken-value';
const schemaWithSecret = `${readFileSync(`${schemagen}/input/searchables.graphql`, 'utf8')}
# Service.Secret GITHUB_TOKEN "${secretValue}"
`;

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
  expect(await uploadSchema(server.url, schemaWithSecret)).toEqual(uploadSucceeded);
});

afterAll(async () => {
  await server?.stop();
});

describe('generated API over HTTP', () => {
  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('answers the full introspection query, and a client schema can be built from it', async () => {
    const answer = await postGraphql(server.url, { query: getIntrospectionQuery({ descriptions: true, directiveIsRepeatable: true }) });
    const body = answer.json() as { data: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const client = buildClientSchema(body.data);
    expect(String(client.getQueryType()?.getFields()['queryPost']?.type)).toBe('[Post]');
    expect(String(client.getMutationType()?.getFields()['addPost']?.type)).toBe('AddPostPayload');
    expect(printSchema(client)).toContain('input PostFilter');
    expect(answer.text).not.toContain(secretValue);
  });

  it('answers __type for a generated input', async () => {
    const answer = await postGraphql(server.url, { query: '{ __type(name: "PostOrderable") { kind enumValues { name } } }' });
    const names = ['title', 'titleByEverything', 'text', 'publishByYear', 'publishByMonth', 'publishByDay', 'publishByHour', 'publishTimestamp', 'numViewers', 'numLikes', 'score'];
    expect(answer.json()).toEqual({ data: { __type: { kind: 'ENUM', enumValues: names.map((name) => ({ name })) } } });
  });

  it('getGQLSchema returns the uploaded text and the generated schema in Dgraph layout', async () => {
    const answer = await postGraphql(server.url, { query: '{ getGQLSchema { id schema generatedSchema } }' }, {}, '/admin');
    const body = answer.json() as { data: { getGQLSchema: { schema: string; generatedSchema: string } } };
    expect(body.data.getGQLSchema.schema).toBe(schemaWithSecret);
    const expected = readFileSync(`${schemagen}/output/searchables.graphql`, 'utf8');
    expect(body.data.getGQLSchema.generatedSchema).toBe(expected);
    expect(body.data.getGQLSchema.generatedSchema).not.toContain(secretValue);
  });

  it('never echoes a secret in errors or logs', async () => {
    const bad = await send(`${server.url}/admin/schema`, {
      method: 'POST',
      body: `type X { id: ID! }\n# Service.Secret TOKEN ${secretValue} trailing "junk\n`,
    });
    expect(bad.text).not.toContain(secretValue);
    const wrongQuery = await postGraphql(server.url, { query: `{ queryPost(filter: { title: { anyofterms: "${secretValue}" } }) { nope } }` });
    expect(wrongQuery.status).toBe(200);
    expect(server.output()).not.toContain(secretValue);
  });
});
