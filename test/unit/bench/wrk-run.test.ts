// The wrk load runner (bench/load/wrk-run.ts) against a loopback server that checks every request:
// the body arrives byte for byte (Lua long-string quoting of `]]` and `]=]`), counts agree with what
// the server answered, non-2xx answers are counted as such, varied bodies go round-robin and unique
// bodies carry the request number. wrk is a Debian package, not an npm
// one: without it on the PATH these tests are skipped (the suite refuses `--load wrk` then).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWrk, wrkAvailable } from '../../../bench/load/wrk-run.js';

const body = JSON.stringify({ query: '{ a }', variables: { tricky: 'x]]y]=]z"\\é' } });
let expected = body;
let server: Server;
let url: string;
const seen = { ok: 0, wrongBody: 0, refused: 0 };
let recorded: string[] = [];
const available = await wrkAvailable();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/record') {
        recorded.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
        return;
      }
      if (req.url === '/refuse') {
        seen.refused++;
        res.writeHead(503).end();
        return;
      }
      const same = Buffer.concat(chunks).toString('utf8') === expected && req.method === 'POST' && req.headers['content-type'] === 'application/json';
      if (same) seen.ok++;
      else seen.wrongBody++;
      res.writeHead(same ? 200 : 400, { 'content-type': 'application/json' }).end('{"data":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe.skipIf(!available)('wrk load runner', () => {
  it('sends the body as it is and counts what the server answered', async () => {
    const result = await runWrk({ url: `${url}/graphql`, body, connections: 4, durationS: 1 });
    expect(result.generator).toBe('wrk');
    expect(seen.wrongBody).toBe(0);
    expect(result.requests).toBeGreaterThan(100);
    // wrk counts completed requests; the server may have answered a few more as the run was cut off.
    expect(seen.ok).toBeGreaterThanOrEqual(result.requests);
    expect(seen.ok - result.requests).toBeLessThanOrEqual(4);
    expect(result.non2xx).toBe(0);
    expect(result.p50Ms).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
  });

  it('quotes bodies that would end a Lua long string early, or start with a newline', async () => {
    for (const text of ['\nends in ]', 'ends in ]=', 'x]==]y]=]']) {
      expected = text;
      const before = seen.wrongBody;
      const result = await runWrk({ url: `${url}/graphql`, body: text, connections: 1, durationS: 1 });
      expect(result.requests, text).toBeGreaterThan(0);
      expect(seen.wrongBody, text).toBe(before);
    }
    expected = body;
  });

  it('counts non-2xx answers apart, not as requests served', async () => {
    const result = await runWrk({ url: `${url}/refuse`, body, connections: 2, durationS: 1 });
    expect(result.requests).toBe(0);
    expect(result.non2xx).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThanOrEqual(result.non2xx);
  });

  it('sends a list of bodies round-robin, each byte for byte', async () => {
    recorded = [];
    const bodies = ['{"v":"a]]"}', '{"v":"b"}', '{"v":"c"}'];
    const result = await runWrk({ url: `${url}/record`, body: { kind: 'list', bodies }, connections: 1, durationS: 1 });
    expect(result.requests).toBeGreaterThan(30);
    // One connection: the server sees the requests in the order wrk made them. wrk calls request()
    // once to check the script before it sends anything, so the cycle starts at the second body.
    expect(recorded.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => bodies[(i + 1) % 3]));
    expect(recorded.every((b, i) => b === bodies[(i + 1) % 3])).toBe(true);
  });

  it('joins the parts of a unique body with the request number, never repeating', async () => {
    recorded = [];
    const result = await runWrk({ url: `${url}/record`, body: { kind: 'counter', variants: [['{"slug":"s-', '","score":-', '}']] }, connections: 1, durationS: 1 });
    expect(result.requests).toBeGreaterThan(30);
    // Number 1 goes to wrk's own check of the script (request() called once before sending).
    expect(recorded.slice(0, 3)).toEqual(['{"slug":"s-2","score":-2}', '{"slug":"s-3","score":-3}', '{"slug":"s-4","score":-4}']);
    expect(recorded.every((b, i) => b === `{"slug":"s-${i + 2}","score":-${i + 2}}`)).toBe(true);
  });

  it('refuses fixed rates (those runs stay on autocannon)', async () => {
    await expect(runWrk({ url, body, connections: 1, durationS: 1, overallRate: 10 })).rejects.toThrow(/no rate/);
  });
});
