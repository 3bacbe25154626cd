// /admin/schema (upload, read back, validate), /admin (GraphQL), /health and /probe/graphql.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, modernAccept, postGraphql, send } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const goodSchema = 'type Task {\n  id: ID!\n  title: String!\n  done: Boolean\n}\n';
const brokenSchema = 'type Task {\n  id: ID!\n  title:\n}\n';
const uploadFailure = { errors: [{ message: 'resolving updateGQLSchema failed because input:4: Expected Name, found }\n (Locations: [{Line: 3, Column: 4}])', extensions: { code: 'Error' } }] };

interface Probe {
  status: string;
  schemaUpdateCounter: number;
}

async function probe(): Promise<Probe> {
  const answer = await send(`${server.url}/probe/graphql`);
  expect(answer.status).toBe(200);
  return answer.json() as Probe;
}

function upload(body: string | Buffer, headers: Record<string, string> = {}, method: 'POST' | 'PUT' = 'POST') {
  return send(`${server.url}/admin/schema`, { method, headers, body });
}

it('runs on the native uWebSockets.js transport', () => {
  expect(server.transport).toBe(nativeTransport);
});

describe('/probe/graphql and /health', () => {
  it('probe reports up and the schema counter', async () => {
    const answer = await send(`${server.url}/probe/graphql`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ status: 'up', schemaUpdateCounter: expect.any(Number) });
  });

  it('health is a one-element array describing this node', async () => {
    const answer = await send(`${server.url}/health`);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('application/json');
    const [node] = answer.json() as Record<string, unknown>[];
    expect(node).toMatchObject({ instance: 'alpha', status: 'healthy', group: '1', address: new URL(server.url).host });
  });
});

describe('/admin/schema', () => {
  it('GET before any upload → 404', async () => {
    const answer = await send(`${server.url}/admin/schema`);
    expect(answer.status).toBe(404);
  });

  it('a failed upload is 200 with a Dgraph-style error for application/json clients and changes nothing', async () => {
    const before = await probe();
    const answer = await upload(brokenSchema, { 'content-type': 'application/octet-stream' });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual(uploadFailure);
    expect((await probe()).schemaUpdateCounter).toBe(before.schemaUpdateCounter);
  });

  it('a failed upload is 400 for graphql-response+json clients', async () => {
    const answer = await upload(brokenSchema, { ...modernAccept, 'content-type': 'application/octet-stream' });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual(uploadFailure);
  });

  it('POST application/octet-stream uploads the schema and bumps the probe counter', async () => {
    const before = await probe();
    const answer = await upload(goodSchema, { 'content-type': 'application/octet-stream' });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ data: { code: 'Success', message: 'Done' } });
    expect((await probe()).schemaUpdateCounter).toBe(before.schemaUpdateCounter + 1);
  });

  it('GET returns the uploaded text', async () => {
    const answer = await send(`${server.url}/admin/schema`);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.text).toBe(goodSchema);
  });

  it('accepts text/plain, application/graphql, form-urlencoded (curl --data-binary), no content type, PUT and gzip', async () => {
    const variants: [Record<string, string>, string | Buffer, 'POST' | 'PUT'][] = [
      [{ 'content-type': 'text/plain' }, goodSchema, 'POST'],
      [{ 'content-type': 'application/graphql' }, goodSchema, 'POST'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, goodSchema, 'POST'],
      [{}, Buffer.from(goodSchema), 'POST'],
      [{ 'content-type': 'application/octet-stream' }, goodSchema, 'PUT'],
      [{ 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' }, gzipSync(goodSchema), 'POST'],
    ];
    for (const [headers, body, method] of variants) {
      const answer = await upload(body, headers, method);
      expect(answer.json(), JSON.stringify(headers)).toEqual({ data: { code: 'Success', message: 'Done' } });
    }
  });

  it('broken gzip → 400', async () => {
    const answer = await upload(Buffer.from('nope'), { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'Unable to parse gzip: incorrect header check' }] });
  });

  it('other methods → 400 Invalid method', async () => {
    const answer = await send(`${server.url}/admin/schema`, { method: 'DELETE' });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'Invalid method', extensions: { code: 'ErrorInvalidMethod' } }] });
  });

  it('OPTIONS → empty with CORS headers', async () => {
    const answer = await send(`${server.url}/admin/schema`, { method: 'OPTIONS' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
  });
});

describe('/admin/schema/validate', () => {
  it('a valid schema → 200 with "Schema is valid" reported inside errors (sic)', async () => {
    const answer = await send(`${server.url}/admin/schema/validate`, { method: 'POST', body: goodSchema });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ errors: [{ message: 'Schema is valid', extensions: { code: 'success' } }] });
  });

  it('an invalid schema → 400 with one error per problem', async () => {
    const answer = await send(`${server.url}/admin/schema/validate`, { method: 'POST', body: brokenSchema });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'input:4: Expected Name, found }', extensions: { code: 'ErrorInvalidRequest' } }] });
    const twoProblems = 'type A { id: ID! x: Int @search(by: [term]) y: Int @search(by: [term]) }';
    const two = await send(`${server.url}/admin/schema/validate`, { method: 'POST', body: twoProblems });
    const termOnInt = (field: string): { message: string; extensions: { code: string } } => ({
      message: `input:1: Type A; Field ${field}: has the @search directive but the argument term doesn't apply to field type Int.  Search by term applies to fields of type String. Fields of type Int are searchable by just @search.`,
      extensions: { code: 'ErrorInvalidRequest' },
    });
    expect([two.status, two.json()]).toEqual([400, { errors: [termOnInt('x'), termOnInt('y')] }]);
  });

  it('GET → 400 Invalid method', async () => {
    const answer = await send(`${server.url}/admin/schema/validate`);
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'Invalid method', extensions: { code: 'ErrorInvalidMethod' } }] });
  });
});

describe('/admin (GraphQL)', () => {
  it('getGQLSchema returns the uploaded schema', async () => {
    const answer = await postGraphql(server.url, { query: '{ getGQLSchema { schema } }' }, {}, '/admin');
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ data: { getGQLSchema: { schema: goodSchema } } });
  });

  it('works over GET too', async () => {
    const answer = await send(`${server.url}/admin?${new URLSearchParams({ query: '{ getGQLSchema { schema } }' }).toString()}`);
    expect(answer.status).toBe(200);
  });

  it('request errors follow the status-code modes', async () => {
    expect((await postGraphql(server.url, { query: '{' }, {}, '/admin')).status).toBe(200);
    expect((await postGraphql(server.url, { query: '{' }, modernAccept, '/admin')).status).toBe(400);
  });
});
