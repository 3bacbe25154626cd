// Int64 over HTTP: full precision in and out, and a float-written integer in a variable refused with
// Dgraph's text (the server keeps the number's source text for this).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
  const schema = 'type Counter { id: ID!  name: String! @id  views: Int64 @search  byMonth: [Int64] }';
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
});

afterAll(async () => {
  await server?.stop();
});

describe('Int64 over HTTP', () => {
  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('keeps values beyond 2^53 exact in and out', async () => {
    const body = '{"query":"mutation { addCounter(input: [{ name: \\"big\\", views: \\"9223372036854775807\\" }]) { counter { views } } }"}';
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answer.text).toContain('"views":9223372036854775807');
    const read = await postGraphql(server.url, { query: '{ queryCounter(filter: { views: { gt: "9223372036854775806" } }) { name } }' });
    expect(read.json()).toEqual({ data: { queryCounter: [{ name: 'big' }] }, extensions: { touched_uids: 1 } });
  });

  it('refuses 180143985094.0 in a variable with the number as written and the variable path', async () => {
    const body =
      '{"query":"mutation($c: [AddCounterInput!]!) { addCounter(input: $c) { numUids } }",' +
      '"variables":{"c":[{"name":"float","byMonth":[180143985094.0, 33]}]}}';
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const result = answer.json() as { errors: { message: string; path: unknown[] }[]; data?: unknown };
    expect(result.errors[0]?.message).toBe('Type mismatched for Value `180143985094.0`, expected:`Int64`');
    expect(result.errors[0]?.path).toEqual(['variable', 'c', 0, 'byMonth', 0]);
    expect(result.data).toBeUndefined();
  });
});
