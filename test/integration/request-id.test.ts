// X-Request-Id: a client's id (short, from a safe charset) is the request's id; anything else is replaced
// by a generated one, never echoed (log injection). Every answer carries the id in its X-Request-Id
// header, whatever the route and the status, and the request line carries the same id.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { header, jsonHeaders, postGraphql, send, uploadSchema, uploadSucceeded, type Answer } from './helpers/http.js';
import { findLogs } from './helpers/log-records.js';
import { rawExchange, type RawAnswer } from './helpers/raw-http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const generated = /^[0-9a-z]{6}-[0-9a-z]+$/;
const adminKey = 'request-id-admin-key-0123456789';
let server: ServerProcess;
const admin = { 'x-auth-token': adminKey };

beforeAll(async () => {
  server = await startServer({ args: ['--log-requests', 'all', '--max-body-bytes', '1024', '--anonymous'], env: { SERVICE_ADMIN_KEY: adminKey } });
  expect(await uploadSchema(server.url, 'type Item { code: String! @id name: String }', admin)).toEqual(uploadSucceeded);
});
afterAll(async () => {
  await server.stop();
});

/** The request line of the request whose id is `id` (the destination is async). */
async function requestLine(id: string): Promise<Record<string, unknown>> {
  await vi.waitFor(() => expect(findLogs(server.output(), 'request', { requestId: id })).toHaveLength(1));
  return findLogs(server.output(), 'request', { requestId: id })[0] ?? {};
}

describe('X-Request-Id', () => {
  it('every answer carries a generated id, each its own, on every route and status', async () => {
    const answers: [string, Answer][] = [
      ['graphql POST 200', await postGraphql(server.url, { query: '{ queryItem { code } }' })],
      ['graphql GET 200', await send(`${server.url}/graphql?query=${encodeURIComponent('{ queryItem { code } }')}`)],
      ['graphql 400', await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: '{' })],
      ['graphql 405', await send(`${server.url}/graphql`, { method: 'PUT', headers: jsonHeaders, body: '{}' })],
      ['graphql 413', await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: 'x'.repeat(2048) })],
      ['graphql 415', await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a' })],
      ['graphql OPTIONS', await send(`${server.url}/graphql`, { method: 'OPTIONS' })],
      ['admin 200', await postGraphql(server.url, { query: '{ health { status } }' }, admin, '/admin')],
      ['admin 401', await postGraphql(server.url, { query: '{ health { status } }' }, {}, '/admin')],
      ['admin schema GET 200', await send(`${server.url}/admin/schema`, { headers: admin })],
      ['health 200', await send(`${server.url}/health`)],
      ['probe 200', await send(`${server.url}/probe/graphql`)],
      ['metrics 200', await send(`${server.url}/metrics`, { headers: admin })],
      ['graphiql page 200', await send(`${server.url}/`, { headers: { accept: 'text/html' } })],
      ['unknown 404', await send(`${server.url}/nowhere`)],
    ];
    expect(answers.map(([name, answer]) => [name, answer.status])).toEqual([
      ['graphql POST 200', 200],
      ['graphql GET 200', 200],
      ['graphql 400', 400],
      ['graphql 405', 405],
      ['graphql 413', 413],
      ['graphql 415', 415],
      ['graphql OPTIONS', 200],
      ['admin 200', 200],
      ['admin 401', 401],
      ['admin schema GET 200', 200],
      ['health 200', 200],
      ['probe 200', 200],
      ['metrics 200', 200],
      ['graphiql page 200', 200],
      ['unknown 404', 404],
    ]);
    const ids = answers.map(([name, answer]) => [name, header(answer, 'x-request-id')] as const);
    for (const [name, id] of ids) expect([name, id]).toEqual([name, expect.stringMatching(generated)]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    // The request line carries the id the client got.
    const [, first] = answers[0] ?? [];
    expect(await requestLine(header(first as Answer, 'x-request-id') ?? '')).toMatchObject({ method: 'POST', path: '/graphql', status: 200 });
    const [, refused] = answers[8] ?? [];
    expect(await requestLine(header(refused as Answer, 'x-request-id') ?? '')).toMatchObject({ method: 'POST', path: '/admin', status: 401 });
  });

  it("a client's id is kept: echoed in the answer and on the request line, also on a refusal", async () => {
    const id = 'Abc_123.def-456:ghi/jkl+mno=@x';
    const answer = await postGraphql(server.url, { query: '{ queryItem { code } }' }, { 'x-request-id': id });
    expect([answer.status, answer.text, header(answer, 'x-request-id')]).toEqual([200, '{"data":{"queryItem":[]}}', id]);
    expect(await requestLine(id)).toMatchObject({ method: 'POST', path: '/graphql', status: 200 });
    const uuid = '3f2b8c1e-4d5a-4e6f-9a7b-0c1d2e3f4a5b';
    const refused = await postGraphql(server.url, { query: '{ health { status } }' }, { 'x-request-id': uuid }, '/admin');
    expect([refused.status, header(refused, 'x-request-id')]).toEqual([401, uuid]);
    expect(await requestLine(uuid)).toMatchObject({ path: '/admin', status: 401 });
    const longest = 'a'.repeat(128);
    expect(header(await send(`${server.url}/health`, { headers: { 'x-request-id': longest } }), 'x-request-id')).toBe(longest);
  });

  it('an invalid, empty or oversized id is replaced by a generated one and never written', async () => {
    const refused = ['a'.repeat(129), 'has space', '<script>', 'a"b', 'a;b', 'a\tb', 'x%0d%0aSet-Cookie:1', ''];
    for (const id of refused) {
      const answer = await send(`${server.url}/health`, { headers: { 'x-request-id': id } });
      expect([id, answer.status, header(answer, 'x-request-id')]).toEqual([id, 200, expect.stringMatching(generated)]);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const id of refused.filter((id) => id !== '')) expect([id, server.output().includes(id)]).toEqual([id, false]);
  });

  it('raw bytes (no client library in between): a non-ASCII id is replaced; a CR or LF in a header gets no answer at all', async () => {
    const ask = (id: string): Promise<RawAnswer> => rawExchange(server.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`, 1_000);
    // UTF-8 é in the middle (uWS drops non-ASCII bytes at the end of a value, as it does spaces).
    const utf8 = await ask('ca\xc3\xa9f');
    expect([/^HTTP\/1\.1 (\d+)/.exec(utf8.text)?.[1], /\r\nX-Request-Id: ([^\r]*)\r\n/.exec(utf8.text)?.[1]]).toEqual(['200', expect.stringMatching(generated)]);
    // uWS refuses the request line by line: no answer, so nothing can be injected into one.
    expect(await ask('evil\rSet-Cookie: injected=1')).toMatchObject({ text: '' });
    expect(await ask('evil\nSet-Cookie: injected=1')).toMatchObject({ text: '' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([server.output().includes('injected'), server.output().includes('ca\u00e9f')]).toEqual([false, false]);
  });

  it('a refused WebSocket upgrade (no subprotocol we speak) carries the id too', async () => {
    const upgrade = (id: string): string =>
      `GET /graphql HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${id}\r\n`;
    const kept = await rawExchange(server.url, upgrade('X-Request-Id: ws-upgrade-1\r\n'), 1_000);
    expect([/^HTTP\/1\.1 (\d+)/.exec(kept.text)?.[1], /\r\nX-Request-Id: ([^\r]*)\r\n/i.exec(kept.text)?.[1]]).toEqual(['400', 'ws-upgrade-1']);
    const generatedOne = await rawExchange(server.url, upgrade('X-Request-Id: not ok\r\n'), 1_000);
    expect([/^HTTP\/1\.1 (\d+)/.exec(generatedOne.text)?.[1], /\r\nX-Request-Id: ([^\r]*)\r\n/i.exec(generatedOne.text)?.[1]]).toEqual(['400', expect.stringMatching(generated)]);
  });
});
