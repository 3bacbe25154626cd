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

const refusal = (message: string): { errors: { message: string }[] } => ({ errors: [{ message }] });
const unrecognisedContentType = 'Unrecognised Content-Type.  Please use application/json or application/graphql for GraphQL requests';
const notUtf8 = 'Not a valid GraphQL request body: the body is not valid UTF-8';

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
    expect(answer.json()).toEqual({ data: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`a${i}`, 'Query'])) });
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
  const parseError = { errors: [{ message: 'Expected Name, found <EOF>', locations: [{ line: 1, column: 2 }] }] };

  it('application/json clients get 200 for a GraphQL request error, errors in the body, no data', async () => {
    const answer = await postGraphql(server.url, parseFailure, { accept: 'application/json' });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
    expect(answer.json()).toEqual(parseError);
  });

  it('clients without Accept are treated like application/json clients', async () => {
    const answer = await postGraphql(server.url, parseFailure);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
    expect(answer.json()).toEqual(parseError);
  });

  it('graphql-response+json clients get 400 for a request error and the matching content type', async () => {
    const answer = await postGraphql(server.url, parseFailure, modernAccept);
    expect(answer.status).toBe(400);
    expect(header(answer, 'content-type')).toBe(modernType);
    expect(answer.json()).toEqual(parseError);
  });

  it('graphql-response+json wins when both are acceptable', async () => {
    const answer = await postGraphql(server.url, typename, { accept: 'application/graphql-response+json, application/json;q=0.9' });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe(modernType);
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('*/* gets application/json', async () => {
    const answer = await postGraphql(server.url, typename, { accept: '*/*' });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('a mutation over GET is 405 for both kinds of client', async () => {
    const url = `${server.url}/graphql?${new URLSearchParams({ query: 'mutation { __typename }' }).toString()}`;
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const answer = await send(url, { headers: { accept } });
      expect(answer.status).toBe(405);
      expect(answer.json()).toEqual(refusal('Can only perform a mutation operation from a POST request.'));
    }
  });
});

describe('refused input (the server stays up)', () => {
  it('unsupported content type → 415 with Dgraph text', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(typename) });
    expect(answer.status).toBe(415);
    expect(answer.json()).toEqual(refusal(unrecognisedContentType));
  });

  it('missing content type → 415', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', body: Buffer.from(JSON.stringify(typename)) });
    expect(answer.status).toBe(415);
    expect(answer.json()).toEqual(refusal(unrecognisedContentType));
  });

  it('a charset other than utf-8 → 415', async () => {
    const answer = await send(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: JSON.stringify(typename),
    });
    expect(answer.status).toBe(415);
    expect(answer.json()).toEqual(refusal(unrecognisedContentType));
  });

  it('malformed JSON → 400 "Not a valid GraphQL request body"', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { ...jsonHeaders, accept }, body: '{ "not a JSON' });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual(refusal('Not a valid GraphQL request body: Unterminated string in JSON at position 13'));
    }
  });

  it('empty body → 400', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: '' });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual(refusal('Not a valid GraphQL request body: Unexpected end of JSON input'));
  });

  it('a JSON body that is not an object → 400', async () => {
    for (const body of ['[]', '"query"', 'null', '42']) {
      const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual(refusal('Not a valid GraphQL request body: expected a JSON object'));
    }
  });

  it('query, operationName or extensions of the wrong type → 400', async () => {
    const cases: [unknown, string][] = [
      [{ query: { obj: 'ect' } }, '"query" must be a string'],
      [{ query: 0 }, '"query" must be a string'],
      [{ ...typename, operationName: false }, '"operationName" must be a string'],
      [{ ...typename, extensions: 'string' }, '"extensions" must be an object'],
    ];
    for (const [payload, reason] of cases) {
      const answer = await postGraphql(server.url, payload);
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual(refusal(`Not a valid GraphQL request body: ${reason}`));
    }
  });

  it('variables that are not an object → 400 with the engine message', async () => {
    for (const variables of ['string', 0, false, ['array']]) {
      const answer = await postGraphql(server.url, { ...typename, variables });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual(refusal('Variables must be provided as an object.'));
    }
  });

  it('GET with variables that are not JSON → 400', async () => {
    const answer = await send(`${server.url}/graphql?${new URLSearchParams({ query: '{ __typename }', variables: '{nope' }).toString()}`);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual(refusal("Not a valid GraphQL request body: variables: Expected property name or '}' in JSON at position 1"));
  });

  it('invalid UTF-8 in the body → 400', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual(refusal(notUtf8));
  });

  it('a body of many chunks is decoded whole (multi-byte characters across chunk edges); invalid UTF-8 at its end → 400', async () => {
    const text = 'é€😀'.repeat(40_000); // ~360 KB: several socket reads
    const whole = Buffer.from(JSON.stringify({ query: 'query ($t: String) { __typename }', variables: { t: text } }));
    expect((await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: whole })).json()).toEqual({ data: { __typename: 'Query' } });
    const broken = Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from([0xff, 0x7d])]);
    const refused = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: broken });
    expect([refused.status, refused.json()]).toEqual([400, refusal(notUtf8)]);
  });

  it('no query → engine error (200 for json clients, 400 for graphql-response+json clients)', async () => {
    const plain = await postGraphql(server.url, { notquery: 1 });
    expect([plain.status, plain.json()]).toEqual([200, refusal('no query string supplied in request')]);
    const modern = await postGraphql(server.url, { notquery: 1 }, modernAccept);
    expect([modern.status, modern.json()]).toEqual([400, refusal('no query string supplied in request')]);
  });

  it('a 10,000-deep nested query is refused by the nesting bound before parsing', async () => {
    const query = `${'{ a '.repeat(10_000)}${'}'.repeat(10_000)}`;
    const answer = await postGraphql(server.url, { query }, modernAccept);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual(refusal('The query exceeds the maximum nesting of 1000.'));
  });

  it('100,000 aliases are refused by the token limit', async () => {
    const query = `{ ${Array.from({ length: 100_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const answer = await postGraphql(server.url, { query }, modernAccept);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'Syntax Error: Document contains more that 10000 tokens. Parsing aborted.', locations: [{ line: 1, column: 58887 }] }] });
  });

  it('deeply nested JSON variables are refused before parsing (400, max depth 1000); the server stays up', async () => {
    const depth = 100_000;
    const body = `{"query":"{ __typename }","variables":{"v":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual(refusal('Not a valid GraphQL request body: exceeded max depth of 1000'));
    expect((await postGraphql(server.url, typename)).json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('other methods on /graphql → 405', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(answer.json()).toEqual(refusal('Unrecognised request method.  Please use GET or POST for GraphQL requests'));
  });

  it('unknown paths → 404', async () => {
    for (const path of ['/nope', '/graphql/extra']) {
      const answer = await send(`${server.url}${path}`);
      expect([answer.status, answer.json()]).toEqual([404, refusal(`Not found: ${path}`)]);
    }
  });

  it('is still healthy after all of that', async () => {
    const answer = await postGraphql(server.url, typename);
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
    expect(server.child.exitCode).toBeNull();
  });
});
