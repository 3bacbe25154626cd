// Forwarded request headers over real HTTP. The edge copies every request header only while the
// schema's custom logic reads some (Engine.readsRequestHeaders); this checks both sides of that switch
// across a schema update, with a real upstream on 127.0.0.1 that echoes what it received.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
