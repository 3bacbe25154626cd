// A forwarded header value holding CR, LF or NUL would start a header of its own upstream. Over HTTP
// such a value never reaches the engine (test/custom/faults.test.ts); handed one directly, the engine
// fails the field before anything is sent.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

let engine: Engine;
let upstream: Server;
const received: IncomingHttpHeaders[] = [];

async function echo(fwd: string): Promise<unknown> {
  const response = await engine.execute({ method: 'POST', query: '{ echo }', headers: { 'content-type': 'application/json', 'x-fwd': fwd } });
  return JSON.parse(response.body);
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(`got ${String(req.headers['x-fwd'])}`));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/echo`;
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 10_000, maxQueryDepth: 200, debug: false, custom: { workers: 0 } });
  const deployed = await engine.updateSchema(`type Query { echo: String @custom(http: { url: "${url}", method: GET, forwardHeaders: ["X-Fwd"] }) }`);
  expect(deployed.ok, JSON.stringify(deployed)).toBe(true);
});
afterAll(async () => {
  await engine?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('a forwarded header value the engine is handed', () => {
  it('is forwarded as it is when it is a plain value', async () => {
    expect(await echo('plain')).toEqual({ data: { echo: 'got plain' } });
    expect(received.map((h) => h['x-fwd'])).toEqual(['plain']);
  });

  for (const [name, value] of [['CR/LF', 'a\r\nX-Injected: 1'], ['a bare LF', 'a\nX-Injected: 1'], ['a bare CR', 'a\rX-Injected: 1'], ['NUL', 'a\u0000b']] as const) {
    it(`with ${name} fails the field and is never sent`, async () => {
      received.length = 0;
      expect(await echo(value)).toEqual({
        data: { echo: null },
        errors: [
          {
            message: 'Evaluation of custom field failed because external request returned an error: header X-Fwd has an invalid value for field: echo within type: Query.',
            locations: [{ line: 1, column: 3 }],
            path: ['echo'],
          },
        ],
      });
      expect(received).toEqual([]);
    });
  }
});
