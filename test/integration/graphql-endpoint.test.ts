// /graphql over HTTP: methods, content types, status-code modes, CORS, and refusals of bad input.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, jsonHeaders, modernAccept, postGraphql, send } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const typename = { query: '{ __typename }' };
const modernType = 'application/graphql-response+json; charset=utf-8';

function errorsOf(body: unknown): { message: string }[] {
  return (body as { errors?: { message: string }[] }).errors ?? [];
}

it('runs on the native uWebSockets.js transport', () => {
  expect(server.transport).toBe(nativeTransport);
});

describe('accepted requests', () => {
  it('POST application/json', async () => {
    const answer = await postGraphql(server.url, typename);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('POST application/json with charset=utf-8 and operationName, null variables', async () => {
    const answer = await send(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ query: 'query A { __typename } query B { t: __typename }', operationName: 'B', variables: null, extensions: null }),
    });
    expect(answer.json()).toEqual({ data: { t: 'Query' } });
  });

  it('POST application/graphql (body = the document)', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: '{ __typename }' });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('GET with query, operationName, variables and extensions', async () => {
    const params = new URLSearchParams({
      query: 'query T($name: String!) { __type(name: $name) { name } } query U { __typename }',
      operationName: 'T',
      variables: JSON.stringify({ name: 'Query' }),
      extensions: JSON.stringify({ some: 'value' }),
    });
    const answer = await send(`${server.url}/graphql?${params.toString()}`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ data: { __type: { name: 'Query' } } });
  });

  it('GET with a long query string (beyond uWS default 4 KiB header limit)', async () => {
    const query = `{ ${Array.from({ length: 400 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const answer = await send(`${server.url}/graphql?${new URLSearchParams({ query }).toString()}`);
    expect(answer.status).toBe(200);
    expect((answer.json() as { data: Record<string, string> }).data['a399']).toBe('Query');
  });

  it('OPTIONS answers with CORS headers only', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'OPTIONS' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
    expect(header(answer, 'access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(header(answer, 'access-control-allow-headers')).toBe(
      'X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With, X-Service-AccessToken',
    );
    expect(header(answer, 'access-control-allow-credentials')).toBe('true');
  });

  it('CORS headers on ordinary responses too', async () => {
    const answer = await postGraphql(server.url, typename);
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
    expect(header(answer, 'access-control-allow-credentials')).toBe('true');
  });
});

describe('status codes by Accept', () => {
  const parseFailure = { query: '{' };

  it('application/json clients get 200 for a GraphQL request error, errors in the body, no data', async () => {
    const answer = await postGraphql(server.url, parseFailure, { accept: 'application/json' });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
    const body = answer.json() as Record<string, unknown>;
    expect(body).not.toHaveProperty('data');
    expect(errorsOf(body)).toEqual([{ message: 'Expected Name, found <EOF>', locations: [{ line: 1, column: 2 }] }]);
  });

  it('clients without Accept are treated like application/json clients', async () => {
    const answer = await postGraphql(server.url, parseFailure);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
  });

  it('graphql-response+json clients get 400 for a request error and the matching content type', async () => {
    const answer = await postGraphql(server.url, parseFailure, modernAccept);
    expect(answer.status).toBe(400);
    expect(header(answer, 'content-type')).toBe(modernType);
    expect(answer.json()).not.toHaveProperty('data');
  });

  it('graphql-response+json wins when both are acceptable', async () => {
    const answer = await postGraphql(server.url, typename, { accept: 'application/graphql-response+json, application/json;q=0.9' });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe(modernType);
  });

  it('*/* gets application/json', async () => {
    const answer = await postGraphql(server.url, typename, { accept: '*/*' });
    expect(header(answer, 'content-type')).toBe('application/json');
  });

  it('a mutation over GET is 405 for both kinds of client', async () => {
    const url = `${server.url}/graphql?${new URLSearchParams({ query: 'mutation { __typename }' }).toString()}`;
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const answer = await send(url, { headers: { accept } });
      expect(answer.status).toBe(405);
      expect(errorsOf(answer.json())[0]?.message).toBe('Can only perform a mutation operation from a POST request.');
    }
  });
});

describe('refused input (the server stays up)', () => {
  it('unsupported content type → 415 with Dgraph text', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(typename) });
    expect(answer.status).toBe(415);
    expect(errorsOf(answer.json())[0]?.message).toBe(
      'Unrecognised Content-Type.  Please use application/json or application/graphql for GraphQL requests',
    );
  });

  it('missing content type → 415', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', body: Buffer.from(JSON.stringify(typename)) });
    expect(answer.status).toBe(415);
  });

  it('a charset other than utf-8 → 415', async () => {
    const answer = await send(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: JSON.stringify(typename),
    });
    expect(answer.status).toBe(415);
  });

  it('malformed JSON → 400 "Not a valid GraphQL request body"', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { ...jsonHeaders, accept }, body: '{ "not a JSON' });
      expect(answer.status).toBe(400);
      expect(errorsOf(answer.json())[0]?.message).toMatch(/^Not a valid GraphQL request body: /);
    }
  });

  it('empty body → 400', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: '' });
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json())[0]?.message).toMatch(/^Not a valid GraphQL request body: /);
  });

  it('a JSON body that is not an object → 400', async () => {
    for (const body of ['[]', '"query"', 'null', '42']) {
      const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body });
      expect(answer.status).toBe(400);
    }
  });

  it('query, operationName or extensions of the wrong type → 400', async () => {
    for (const payload of [{ query: { obj: 'ect' } }, { query: 0 }, { ...typename, operationName: false }, { ...typename, extensions: 'string' }]) {
      const answer = await postGraphql(server.url, payload);
      expect(answer.status).toBe(400);
      expect(errorsOf(answer.json())[0]?.message).toMatch(/^Not a valid GraphQL request body: "\w+" must be/);
    }
  });

  it('variables that are not an object → 400 with the engine message', async () => {
    for (const variables of ['string', 0, false, ['array']]) {
      const answer = await postGraphql(server.url, { ...typename, variables });
      expect(answer.status).toBe(400);
      expect(errorsOf(answer.json())[0]?.message).toBe('Variables must be provided as an object.');
    }
  });

  it('GET with variables that are not JSON → 400', async () => {
    const answer = await send(`${server.url}/graphql?${new URLSearchParams({ query: '{ __typename }', variables: '{nope' }).toString()}`);
    expect(answer.status).toBe(400);
  });

  it('invalid UTF-8 in the body → 400', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    expect(answer.status).toBe(400);
  });

  it('a body of many chunks is decoded whole (multi-byte characters across chunk edges); invalid UTF-8 at its end → 400', async () => {
    const text = 'é€😀'.repeat(40_000); // ~360 KB: several socket reads
    const whole = Buffer.from(JSON.stringify({ query: 'query ($t: String) { __typename }', variables: { t: text } }));
    expect((await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: whole })).json()).toEqual({ data: { __typename: 'Query' } });
    const broken = Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from([0xff, 0x7d])]);
    expect((await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: broken })).status).toBe(400);
  });

  it('no query → engine error (200 for json clients, 400 for graphql-response+json clients)', async () => {
    expect((await postGraphql(server.url, { notquery: 1 })).status).toBe(200);
    const modern = await postGraphql(server.url, { notquery: 1 }, modernAccept);
    expect(modern.status).toBe(400);
    expect(errorsOf(modern.json())[0]?.message).toBe('no query string supplied in request');
  });

  it('a 10,000-deep nested query is refused by the nesting bound before parsing', async () => {
    const query = `${'{ a '.repeat(10_000)}${'}'.repeat(10_000)}`;
    const answer = await postGraphql(server.url, { query }, modernAccept);
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json())[0]?.message).toBe('The query exceeds the maximum nesting of 1000.');
  });

  it('100,000 aliases are refused by the token limit', async () => {
    const query = `{ ${Array.from({ length: 100_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const answer = await postGraphql(server.url, { query }, modernAccept);
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json())[0]?.message).toMatch(/tokens/);
  });

  it('deeply nested JSON variables do not crash the server', async () => {
    const depth = 100_000;
    const body = `{"query":"{ __typename }","variables":{"v":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body });
    expect(answer.status).toBeLessThan(600);
  });

  it('other methods on /graphql → 405', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(errorsOf(answer.json())[0]?.message).toBe('Unrecognised request method.  Please use GET or POST for GraphQL requests');
  });

  it('unknown paths → 404', async () => {
    expect((await send(`${server.url}/nope`)).status).toBe(404);
    expect((await send(`${server.url}/graphql/extra`)).status).toBe(404);
  });

  it('is still healthy after all of that', async () => {
    const answer = await postGraphql(server.url, typename);
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
    expect(server.child.exitCode).toBeNull();
  });
});
