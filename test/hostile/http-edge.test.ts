// The HTTP edge under malformed framing and header abuse, spoken over raw sockets so nothing in between
// normalises the bytes. What uWebSockets.js 20.30 (the pinned native transport) can and cannot answer is
// in the README ("Limits of the HTTP edge").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, postGraphql } from '../integration/helpers/http.js';
import { rawExchange, type RawAnswer } from '../integration/helpers/raw-http.js';
import { nativeTransport, startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { underWatch } from './helpers/watchdog.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

function raw(bytes: string, waitMs = 3_000): Promise<RawAnswer> {
  return rawExchange(server.url, bytes, waitMs);
}

const body = '{"query":"{ __typename }"}';
function post(extraHeaders: string, payload = body): string {
  return `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n${extraHeaders}\r\n${payload}`;
}

it('runs on the native uWebSockets.js transport', () => {
  expect(server.transport).toBe(nativeTransport);
});

describe('response headers', () => {
  it('do not name the server library (no uWebSockets header)', async () => {
    const answer = await postGraphql(server.url, { query: '{ __typename }' });
    expect(answer.status).toBe(200);
    expect(header(answer, 'uwebsockets')).toBeUndefined();
    expect(Object.keys(answer.headers).filter((name) => /websocket/i.test(name))).toEqual([]);
  });
});

describe('Content-Length', () => {
  it('two different values are refused with 400 and the connection is closed', async () => {
    const { result, report } = await underWatch(server.url, () => raw(post('Content-Length: 5\r\n')));
    expect(result.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const [, json = ''] = result.text.split('\r\n\r\n');
    expect(JSON.parse(json)).toEqual({ errors: [{ message: 'Conflicting Content-Length headers: 26, 5' }] });
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(1_000);
    expect(report.worstMs).toBeLessThan(100);
    expect(report.wrong).toEqual([]);
  });

  it('a repeated identical value is accepted, as Go (Dgraph) accepts it', async () => {
    const answer = await raw(post(`Content-Length: ${body.length}\r\nConnection: close\r\n`));
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.text.endsWith('{"data":{"__typename":"Query"}}')).toBe(true);
  });

  it('a single value is answered as usual over the same raw client', async () => {
    const answer = await raw(post('Connection: close\r\n'));
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.text.endsWith('{"data":{"__typename":"Query"}}')).toBe(true);
  });
});

describe('Content-Length while every header is copied (custom logic forwards headers)', () => {
  it('two different values are refused with 400 there too', async () => {
    const schema = `type Item { id: ID! name: String }
type Query { echo: String @custom(http: { url: "http://127.0.0.1:9/echo", method: GET, forwardHeaders: ["X-Trace"] }) }`;
    const deployed = await raw(
      `POST /admin/schema HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${Buffer.byteLength(schema)}\r\nConnection: close\r\n\r\n${schema}`,
    );
    expect(deployed.text.endsWith('{"data":{"code":"Success","message":"Done"}}')).toBe(true);
    const answer = await raw(post('Content-Length: 7\r\nContent-Length: 26\r\n'));
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.text.split('\r\n\r\n')[1] ?? '')).toEqual({ errors: [{ message: 'Conflicting Content-Length headers: 26, 7' }] });
    expect(answer.closed).toBe(true);
  });
});

// uWebSockets.js 20.30's parser (the pinned native transport) takes a request with more than 47 header
// lines, or a bare CR or LF inside a header, for one whose headers have not fully arrived: it answers
// nothing and closes the connection at its 10 s idle timeout. JS never sees such a request, so the edge
// cannot answer 431/400 (README, "Limits of the HTTP edge"). What must hold is that nobody else waits.
describe('requests the pinned parser cannot frame', () => {
  const manyHeaders = Array.from({ length: 60 }, (_, i) => `X-Header-${i}: value\r\n`).join('');
  const cases = { '60 headers': post(manyHeaders), 'a bare CR in a header value': post('X-Bad: a\rb\r\n'), 'a bare LF in a header value': post('X-Bad: a\nb\r\n') };
  it('get no answer, are closed by the idle timeout, and nobody else waits meanwhile', async () => {
    const { result, report } = await underWatch(server.url, () => Promise.all(Object.values(cases).map((bytes) => raw(bytes, 15_000))));
    expect(result.map((answer) => answer.text)).toEqual(['', '', '']);
    expect(result.map((answer) => answer.closed)).toEqual([true, true, true]);
    for (const answer of result) expect(answer.ms).toBeLessThan(13_000);
    expect(report.worstMs).toBeLessThan(100);
    expect(report.wrong).toEqual([]);
  }, 20_000);
});
