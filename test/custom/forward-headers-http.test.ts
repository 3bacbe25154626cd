// Forwarded request headers over real HTTP. The edge copies every request header only while the
// schema's custom logic reads some (Engine.readsRequestHeaders); this checks both sides of that switch
// across a schema update, with a real upstream on 127.0.0.1 that echoes what it received.

import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { startServer, type ServerProcess } from '../integration/helpers/server-process.js';

let upstream: Server;
let upstreamUrl: string;
let server: ServerProcess;

const schema = (forward: string): string => `
type Item { id: ID! name: String }
type Query { echo: String @custom(http: { url: "${upstreamUrl}/echo", method: GET${forward} }) }
`;

const sent = { 'X-App-Token': 'token-1', 'X-User-Id': 'user-7', 'X-Other': 'not forwarded' };

async function echo(): Promise<unknown> {
  return (await postGraphql(server.url, { query: '{ echo }' }, sent)).json();
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const seen = [req.headers['x-app-token'], req.headers['x-upstream-user'], req.headers['x-other']].map((v) => v ?? '-').join('|');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await startServer({ args: [] });
});

afterAll(async () => {
  await Promise.all([server?.stop(), new Promise((resolve) => upstream?.close(resolve))]);
});

describe('forwardHeaders over HTTP', () => {
  it('sends nothing of the request when the schema forwards no header', async () => {
    expect(await uploadSchema(server.url, schema(''))).toEqual(uploadSucceeded);
    expect(await echo()).toEqual({ data: { echo: '-|-|-' } });
  });

  it('forwards the named headers (renamed ones too) once a schema update asks for them', async () => {
    expect(await uploadSchema(server.url, schema(', forwardHeaders: ["X-App-Token", "X-Upstream-User:X-User-Id"]'))).toEqual(uploadSucceeded);
    expect(await echo()).toEqual({ data: { echo: 'token-1|user-7|-' } });
  });

  it('stops again when the schema no longer forwards any', async () => {
    expect(await uploadSchema(server.url, schema(''))).toEqual(uploadSucceeded);
    expect(await echo()).toEqual({ data: { echo: '-|-|-' } });
  });
});

/** One POST over a raw socket, with repeated headers (fetch would merge them); returns the status. */
function rawPost(headerLines: readonly string[], body: string): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write([`POST /graphql HTTP/1.1`, `Host: ${hostname}`, ...headerLines, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body].join('\r\n'));
    });
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('repeated edge headers', () => {
  // The first value counts (as Go's Header.Get in Dgraph), whether or not the schema makes the edge copy every header.
  const headers = ['Content-Type: application/json', 'Accept: application/graphql-response+json', 'Accept: application/json'];
  const unparsable = JSON.stringify({ query: '{' });

  it('take their first value when the schema reads no request header', async () => {
    expect(await uploadSchema(server.url, schema(''))).toEqual(uploadSucceeded);
    expect(await rawPost(headers, unparsable)).toBe(400);
    expect(await rawPost([headers[0] as string, headers[2] as string, headers[1] as string], unparsable)).toBe(200);
  });

  it('take their first value when the schema forwards headers too', async () => {
    expect(await uploadSchema(server.url, schema(', forwardHeaders: ["X-App-Token"]'))).toEqual(uploadSucceeded);
    expect(await rawPost(headers, unparsable)).toBe(400);
    expect(await rawPost([headers[0] as string, headers[2] as string, headers[1] as string], unparsable)).toBe(200);
  });
});
