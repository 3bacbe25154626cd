// Which thread sends a batch of @custom calls, seen from the upstream: the main thread and each worker
// thread keep their own pool of keep-alive connections (http-client.ts), so calls sent by a worker
// arrive on connections the main thread never opened. A batch of more than --custom-inline-max calls
// goes to the worker pool when --custom-workers is above 0; smaller batches, and every batch with
// --custom-workers 0, go out on the main thread's connections.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';
import { startWithSchema, type ServerProcess } from '../integration/helpers/server-process.js';

let upstream: Server;
/** Remote port of the connection each request came in on, in arrival order. */
const ports: number[] = [];
const servers: ServerProcess[] = [];
const items = 20;

async function query(server: ServerProcess, first: number): Promise<Set<number>> {
  const seen = ports.length;
  const answer = (await postGraphql(server.url, { query: `{ queryItem(first: ${first}, order: { asc: n }) { n tag } }` })).json() as { data?: unknown; errors?: unknown };
  expect(answer.errors).toBeUndefined();
  expect(answer.data).toEqual({ queryItem: Array.from({ length: first }, (_, n) => ({ n, tag: `t${n}` })) });
  expect(ports.length - seen).toBe(first); // one SINGLE call per parent
  return new Set(ports.slice(seen));
}

const overlap = (a: Set<number>, b: Set<number>): number[] => [...a].filter((port) => b.has(port));

async function start(args: string[]): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/tag`;
  // Which connections carry the calls is read from the upstream: one thread, one set of pools (each thread has its own: README, Threads).
  const server = await startWithSchema(`type Item { id: ID! n: Int! @search tag: String @custom(http: { url: "${url}", method: "POST", body: "{ id: $id, n: $n }" }) }`, { args: [...args, '--threads', '1'] });
  servers.push(server);
  const input = Array.from({ length: items }, (_, n) => `{ n: ${n} }`).join(', ');
  const added = (await postGraphql(server.url, { query: `mutation { addItem(input: [${input}]) { numUids } }` })).json() as { data?: unknown };
  expect(added.data).toEqual({ addItem: { numUids: items } });
  return server;
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      ports.push(req.socket.remotePort ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(`t${String((JSON.parse(body) as { n: number }).n)}`));
    });
  });
  upstream.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('batches of @custom calls and the worker pool', () => {
  it('with --custom-workers 2, a batch over --custom-inline-max arrives on connections the main thread never used', async () => {
    const server = await start(['--custom-workers', '2', '--custom-inline-max', '8']);
    const inline = await query(server, 2);
    const batch = await query(server, items);
    const inlineAgain = await query(server, 2);
    expect(overlap(batch, inline)).toEqual([]);
    expect(overlap(batch, inlineAgain)).toEqual([]);
    expect(overlap(inlineAgain, inline)).toEqual([...inlineAgain]); // the main thread's idle connections, reused
  });

  it('a batch of exactly --custom-inline-max calls stays on the main thread; one more goes to a worker', async () => {
    const server = await start(['--custom-workers', '2', '--custom-inline-max', '8']);
    const eight = await query(server, 8);
    const nine = await query(server, 9);
    const eightAgain = await query(server, 8);
    expect(overlap(nine, eight)).toEqual([]);
    expect(overlap(eightAgain, eight)).toEqual([...eightAgain]);
  });

  it('with --custom-workers 0, the same batch goes out on the main thread, reusing its connections', async () => {
    const server = await start(['--custom-workers', '0', '--custom-inline-max', '8']);
    const inline = await query(server, 2);
    const batch = await query(server, items);
    expect(overlap(inline, batch)).toEqual([...inline]);
  });
});
