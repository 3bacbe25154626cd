// Protocol features Dgraph users rely on, over HTTP against the real server: CORS by the schema's
// Allow-Origin list, @cacheControl, automatic persisted queries (also across restarts).

import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, jsonHeaders, postGraphql, send, uploadSchema, uploadSucceeded, type Answer } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const baseHeaders =
  'X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With, X-Service-AccessToken';

const types = `
type Country { id: ID!  name: String! @search(by: [hash]) }
type Query { remote(id: ID!): String @custom(http: { url: "http://127.0.0.1:1/remote", method: GET, forwardHeaders: ["X-Tenant", "Remote-Name:X-Local"] }) }
`;
const withOrigins = `${types}
# Service.Allow-Origin "https://a.example"
# Dgraph.Allow-Origin "https://b.example"
# Service.Authorization {"VerificationKey":"secret","Header":"X-My-JWT","Namespace":"https://x.example/claims","Algo":"HS256"}
`;

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
  expect(await uploadSchema(server.url, withOrigins)).toEqual(uploadSucceeded);
  const added = await postGraphql(server.url, { query: 'mutation { addCountry(input: [{ name: "Chile" }, { name: "Peru" }]) { numUids } }' });
  expect((added.json() as { data: unknown }).data).toEqual({ addCountry: { numUids: 2 } });
});
afterAll(async () => {
  await server.stop();
});

const countries = { query: '{ queryCountry(order: { asc: name }) { name } }' };
const countriesData = { queryCountry: [{ name: 'Chile' }, { name: 'Peru' }] };

function corsOf(answer: Answer): Record<string, string | undefined> {
  const names = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-allow-credentials', 'vary'];
  return Object.fromEntries(names.map((name) => [name, header(answer, name)]));
}

const extraHeaders = `${baseHeaders},X-Tenant,X-Local,X-My-JWT`;

describe('CORS by # Service.Allow-Origin', () => {
  it('a listed origin is echoed back, with Vary: Origin and the headers the schema reads', async () => {
    const answer = await postGraphql(server.url, countries, { origin: 'https://a.example' });
    expect(answer.status).toBe(200);
    expect(corsOf(answer)).toEqual({
      'access-control-allow-origin': 'https://a.example',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': extraHeaders,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    });
    expect((answer.json() as { data: unknown }).data).toEqual(countriesData);
  });

  it('the Dgraph. prefix lists an origin too; preflight (OPTIONS) answers headers only', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://b.example', 'access-control-request-method': 'POST' } });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(corsOf(answer)).toEqual({
      'access-control-allow-origin': 'https://b.example',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': extraHeaders,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    });
    expect(header(answer, 'graphql-toucheduids')).toBeUndefined();
  });

  it('an origin not on the list (or none) gets no Allow-Origin at all', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'https://a.example.evil' }, {}]) {
      const answer = await postGraphql(server.url, countries, headers);
      expect(answer.status).toBe(200);
      expect(corsOf(answer)).toEqual({
        'access-control-allow-origin': undefined,
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': extraHeaders,
        'access-control-allow-credentials': 'true',
        vary: 'Origin',
      });
    }
  });

  it('GET, gzip and refusals on /graphql follow the list too', async () => {
    const get = await send(`${server.url}/graphql?${new URLSearchParams(countries).toString()}`, { headers: { origin: 'https://a.example' } });
    expect(header(get, 'access-control-allow-origin')).toBe('https://a.example');
    const big = { query: `{ ${Array.from({ length: 60 }, (_, i) => `c${i}: queryCountry { name }`).join(' ')} }` };
    const gzipped = await postGraphql(server.url, big, { origin: 'https://a.example', 'accept-encoding': 'gzip' });
    expect(header(gzipped, 'content-encoding')).toBe('gzip');
    expect(header(gzipped, 'vary')).toBe('Origin, Accept-Encoding');
    expect(header(gzipped, 'access-control-allow-origin')).toBe('https://a.example');
    const refused = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain', origin: 'https://evil.example' }, body: '{}' });
    expect(refused.status).toBe(415);
    expect(header(refused, 'access-control-allow-origin')).toBeUndefined();
    expect(header(refused, 'access-control-allow-headers')).toBe(extraHeaders);
    expect(header(refused, 'graphql-toucheduids')).toBe('0');
  });

  it('other paths keep the fixed headers and `*`, as in Dgraph', async () => {
    const answer = await send(`${server.url}/probe/graphql`, { headers: { origin: 'https://evil.example' } });
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
    expect(header(answer, 'access-control-allow-headers')).toBe(baseHeaders);
  });

  it('a schema re-upload changes the list: without Allow-Origin lines every origin gets `*` again', async () => {
    expect(await uploadSchema(server.url, types)).toEqual(uploadSucceeded);
    const open = await postGraphql(server.url, countries, { origin: 'https://evil.example' });
    expect(corsOf(open)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': `${baseHeaders},X-Tenant,X-Local`,
      'access-control-allow-credentials': 'true',
      vary: undefined,
    });
    expect(await uploadSchema(server.url, withOrigins)).toEqual(uploadSucceeded);
    const closed = await postGraphql(server.url, countries, { origin: 'https://evil.example' });
    expect(header(closed, 'access-control-allow-origin')).toBeUndefined();
  });
});

describe('@cacheControl', () => {
  it('a query operation with maxAge gets Cache-Control: public,max-age=N and Vary: Accept-Encoding', async () => {
    const answer = await postGraphql(server.url, { query: 'query @cacheControl(maxAge: 5) { queryCountry(order: { asc: name }) { name } }' });
    expect(header(answer, 'cache-control')).toBe('public,max-age=5');
    expect(header(answer, 'vary')).toBe('Origin, Accept-Encoding');
    expect(answer.json()).toMatchObject({ data: countriesData });
  });

  it('maxAge 0, a variable, and GET', async () => {
    const zero = await postGraphql(server.url, { query: 'query @cacheControl(maxAge: 0) { __typename }' });
    expect(header(zero, 'cache-control')).toBe('public,max-age=0');
    const variable = await postGraphql(server.url, { query: 'query Q($age: Int!) @cacheControl(maxAge: $age) { __typename }', variables: { age: 60 } });
    expect(header(variable, 'cache-control')).toBe('public,max-age=60');
    const get = await send(`${server.url}/graphql?${new URLSearchParams({ query: 'query @cacheControl(maxAge: 30) { __typename }' }).toString()}`);
    expect(header(get, 'cache-control')).toBe('public,max-age=30');
  });

  it('no directive, no header; a mutation may not carry it (validation error, no header)', async () => {
    const plain = await postGraphql(server.url, { query: '{ __typename }' });
    expect(header(plain, 'cache-control')).toBeUndefined();
    const mutation = await postGraphql(server.url, { query: 'mutation @cacheControl(maxAge: 5) { deleteCountry(filter: { name: { eq: "x" } }) { numUids } }' });
    expect(header(mutation, 'cache-control')).toBeUndefined();
    expect(mutation.json()).toEqual({ errors: [{ message: 'Directive "cacheControl" may not be used on MUTATION.', locations: [{ line: 1, column: 11 }] }] });
  });

  it('a request that fails validation gets no Cache-Control', async () => {
    const answer = await postGraphql(server.url, { query: 'query @cacheControl(maxAge: 5) { nope }' });
    expect(header(answer, 'cache-control')).toBeUndefined();
    expect(answer.json()).toEqual({ errors: [{ message: 'Cannot query field "nope" on type "Query".', locations: [{ line: 1, column: 34 }] }] });
  });
});

/** A node created, its type set, its name set (three changes), then its name read back for the payload. */
const MUTATION_TOUCHED = 4;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string): { persistedQuery: { version: number; sha256Hash: string } } => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('automatic persisted queries', () => {
  const query = 'query Named($name: String!) { queryCountry(filter: { name: { eq: $name } }) { name } } query Other { __typename }';
  const hash = sha(query);
  const chile = { queryCountry: [{ name: 'Chile' }] };

  it('an unknown hash without a query: PersistedQueryNotFound', async () => {
    const answer = await postGraphql(server.url, { extensions: persisted(sha('never sent')) });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"errors":[{"message":"PersistedQueryNotFound"}]}');
    expect(header(answer, 'graphql-toucheduids')).toBe('0');
  });

  it('a query whose hash is not the one sent is refused (and not registered)', async () => {
    const answer = await postGraphql(server.url, { query, operationName: 'Named', variables: { name: 'Chile' }, extensions: persisted(sha('other')) });
    expect(answer.text).toBe('{"errors":[{"message":"provided sha does not match query"}]}');
    const again = await postGraphql(server.url, { extensions: persisted(sha('other')) });
    expect(again.text).toBe('{"errors":[{"message":"PersistedQueryNotFound"}]}');
  });

  it('registers with the matching hash, then runs by hash alone (variables and operationName apply)', async () => {
    const first = await postGraphql(server.url, { query, operationName: 'Named', variables: { name: 'Chile' }, extensions: persisted(hash) });
    expect(first.json()).toMatchObject({ data: chile });
    const byHash = await postGraphql(server.url, { operationName: 'Named', variables: { name: 'Peru' }, extensions: persisted(hash) });
    expect(byHash.json()).toMatchObject({ data: { queryCountry: [{ name: 'Peru' }] } });
    const other = await postGraphql(server.url, { operationName: 'Other', extensions: persisted(hash) });
    expect(other.json()).toEqual({ data: { __typename: 'Query' } });
    const sameQuery = await postGraphql(server.url, { query, operationName: 'Named', variables: { name: 'Chile' }, extensions: persisted(hash) });
    expect(sameQuery.json()).toMatchObject({ data: chile });
  });

  it('over GET, with the extensions parameter (and gzip-compressed POST bodies)', async () => {
    const params = new URLSearchParams({ operationName: 'Named', variables: JSON.stringify({ name: 'Chile' }), extensions: JSON.stringify(persisted(hash)) });
    const get = await send(`${server.url}/graphql?${params.toString()}`);
    expect(get.json()).toMatchObject({ data: chile });
    const body = gzipSync(JSON.stringify({ operationName: 'Named', variables: { name: 'Chile' }, extensions: persisted(hash) }));
    const gz = await send(`${server.url}/graphql`, { method: 'POST', headers: { ...jsonHeaders, 'content-encoding': 'gzip' }, body });
    expect(gz.json()).toMatchObject({ data: chile });
  });

  it('another query under a registered hash: query does not match persisted query', async () => {
    const answer = await postGraphql(server.url, { query: '{ __typename }', extensions: persisted(hash) });
    expect(answer.text).toBe('{"errors":[{"message":"query does not match persisted query"}]}');
  });

  it('a registered mutation still cannot run over GET', async () => {
    const mutation = 'mutation { deleteCountry(filter: { name: { eq: "nobody" } }) { numUids } }';
    const registered = await postGraphql(server.url, { query: mutation, extensions: persisted(sha(mutation)) });
    expect(registered.json()).toMatchObject({ data: { deleteCountry: { numUids: 0 } } });
    const get = await send(`${server.url}/graphql?${new URLSearchParams({ extensions: JSON.stringify(persisted(sha(mutation))) }).toString()}`);
    expect(get.status).toBe(405);
    expect(get.json()).toEqual({ errors: [{ message: 'Can only perform a mutation operation from a POST request.' }] });
  });
});

describe('persisted queries survive restarts', () => {
  it('after kill -9 (log replay) and after a clean stop (snapshot)', async () => {
    const first = await startServer();
    const dataDir = first.dataDir;
    const restart = (): Promise<ServerProcess> => startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir] });
    const query = '{ __typename }';
    try {
      expect((await postGraphql(first.url, { query, extensions: persisted(sha(query)) })).json()).toEqual({ data: { __typename: 'Query' } });
      first.child.kill('SIGKILL');
      await first.exited;
      const second = await restart();
      expect((await postGraphql(second.url, { extensions: persisted(sha(query)) })).json()).toEqual({ data: { __typename: 'Query' } });
      // A snapshot holds them too: with the log before it gone, the snapshot alone must bring the hash back.
      const snapshot = await send(`${second.url}/admin/snapshot`, { method: 'POST' });
      const { lsn } = (snapshot.json() as { data: { lsn: number } }).data;
      second.child.kill('SIGKILL');
      await second.exited;
      for (const name of readdirSync(dataDir)) {
        const start = /^wal-(\d+)\.log$/.exec(name)?.[1];
        if (start !== undefined && Number(start) <= lsn) rmSync(join(dataDir, name));
      }
      const third = await restart();
      expect((await postGraphql(third.url, { extensions: persisted(sha(query)) })).json()).toEqual({ data: { __typename: 'Query' } });
      expect((await postGraphql(third.url, { extensions: persisted(sha('x')) })).text).toBe('{"errors":[{"message":"PersistedQueryNotFound"}]}');
      await third.stop();
    } finally {
      await first.stop();
    }
  });
});

describe('touched_uids', () => {
  it('a query counts one per field read on each node: extensions.touched_uids and the Graphql-TouchedUids header', async () => {
    const answer = await postGraphql(server.url, { query: '{ queryCountry(order: { asc: name }) { name } }' });
    expect(answer.text).toBe('{"data":{"queryCountry":[{"name":"Chile"},{"name":"Peru"}]},"extensions":{"touched_uids":2}}');
    expect(header(answer, 'graphql-toucheduids')).toBe('2');
    const two = await send(`${server.url}/graphql?${new URLSearchParams({ query: '{ queryCountry(order: { asc: name }) { id name } }' }).toString()}`);
    expect((two.json() as { extensions: unknown }).extensions).toEqual({ touched_uids: 4 });
    expect(header(two, 'graphql-toucheduids')).toBe('4');
  });

  it('the general path (here @cascade) counts as the direct writer does', async () => {
    const answer = await postGraphql(server.url, { query: '{ queryCountry(order: { asc: name }) @cascade { name } }' });
    expect(answer.text).toBe('{"data":{"queryCountry":[{"name":"Chile"},{"name":"Peru"}]},"extensions":{"touched_uids":2}}');
    expect(header(answer, 'graphql-toucheduids')).toBe('2');
  });

  it('nothing touched: no extensions, header 0; request errors: header 0', async () => {
    const none = await postGraphql(server.url, { query: '{ queryCountry(filter: { name: { eq: "Atlantis" } }) { name } }' });
    expect(none.text).toBe('{"data":{"queryCountry":[]}}');
    expect(header(none, 'graphql-toucheduids')).toBe('0');
    const bad = await postGraphql(server.url, { query: '{' });
    expect(header(bad, 'graphql-toucheduids')).toBe('0');
    expect(bad.json()).not.toHaveProperty('extensions');
  });

  it('gzip: the header matches the count in the compressed body', async () => {
    const big = { query: `{ ${Array.from({ length: 60 }, (_, i) => `c${i}: queryCountry { name }`).join(' ')} }` };
    const answer = await postGraphql(server.url, big, { 'accept-encoding': 'gzip' });
    expect(header(answer, 'content-encoding')).toBe('gzip');
    expect(header(answer, 'graphql-toucheduids')).toBe('120');
    expect((JSON.parse(gunzipSync(answer.body).toString('utf8')) as { extensions: unknown }).extensions).toEqual({ touched_uids: 120 });
  });

  it('a mutation counts its changes and its payload read; requestID and the log record\'s lsn follow', async () => {
    const answer = await postGraphql(server.url, { query: 'mutation { addCountry(input: [{ name: "Bolivia" }]) { country { name } } }' });
    const body = answer.json() as { data: unknown; extensions: { touched_uids: number; requestID: string; lsn: number } };
    expect(body.data).toEqual({ addCountry: { country: [{ name: 'Bolivia' }] } });
    expect(Object.keys(body.extensions)).toEqual(['touched_uids', 'requestID', 'lsn']);
    expect(body.extensions.touched_uids).toBe(MUTATION_TOUCHED);
    expect(header(answer, 'graphql-toucheduids')).toBe(String(MUTATION_TOUCHED));
    const deleted = await postGraphql(server.url, { query: 'mutation { deleteCountry(filter: { name: { eq: "Bolivia" } }) { numUids } }' });
    const deletedBody = deleted.json() as { data: unknown; extensions: { lsn: number } };
    expect(deletedBody.data).toEqual({ deleteCountry: { numUids: 1 } });
    expect(deletedBody.extensions.lsn).toBe(body.extensions.lsn + 1);
  });
});
