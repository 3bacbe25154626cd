// An unexpected failure is answered 500 with a request id, and the server's records of it carry the same
// id: the error (with its stack, for the operator) and the request line, which is written for every 5xx
// whatever the sampling, so the client's id finds both.

import { describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';
import { createAdminHost } from '../../../server/admin-host.js';
import { loadConfig } from '../../../server/config.js';
import { Exchange } from '../../../server/exchange.js';
import type { ResponseSink } from '../../../server/http-types.js';
import { createLogger } from '../../../server/log.js';
import { createRequestFigures, Router } from '../../../server/router.js';

type Sink = ResponseSink & { body: string; headers: string[]; deliver(text: string): void };

function sink(): Sink {
  let onData: ((chunk: ArrayBuffer, isLast: boolean) => void) | undefined;
  const s = {
    body: '',
    headers: [] as string[],
    onAborted: () => undefined,
    onData: (handler: (chunk: ArrayBuffer, isLast: boolean) => void) => void (onData = handler),
    cork: (callback: () => void) => callback(),
    writeStatus: () => undefined,
    writeHeader: (name: Uint8Array, value: Uint8Array | string) => void s.headers.push(`${Buffer.from(name).toString('latin1')}: ${typeof value === 'string' ? value : Buffer.from(value).toString('latin1')}`),
    end: (body?: string | Uint8Array) => void (s.body = typeof body === 'string' ? body : Buffer.from(body ?? new Uint8Array()).toString('utf8')),
    pause: () => undefined,
    resume: () => undefined,
    deliver(text: string) {
      const bytes = Buffer.from(text);
      onData?.(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), true);
    },
  };
  return s as unknown as Sink;
}

/** A router over an engine whose execute throws, request lines sampled away, and the log's records. */
async function failingRouter(): Promise<{ router: Router; records: () => Record<string, unknown>[] }> {
  const engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
  engine.execute = () => {
    throw new Error('boom');
  };
  const loaded = loadConfig(['--log-requests', 'none'], {});
  if (loaded.kind !== 'config') throw new Error('config did not load');
  const lines: string[] = [];
  const log = createLogger('info', { format: 'json', stream: { write: (line: string) => void lines.push(line) } });
  const address = (): string => '127.0.0.1:0';
  const admin = createAdminHost({ engine, dataDir: '', log, address, shutdown: () => undefined });
  const router = new Router({ engine, config: loaded.config, log, address, admin, figures: createRequestFigures(true), metrics: { text: () => Promise.resolve(''), json: () => Promise.resolve([]) } });
  return { router, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

async function post(router: Router, headers: Record<string, string>): Promise<Sink> {
  const out = sink();
  const exchange = new Exchange({ method: 'POST', path: '/graphql', query: '', headers: { 'content-type': 'application/json', ...headers } }, out, () => undefined);
  exchange.insideHandler(() => router.handle(exchange));
  out.deliver(JSON.stringify({ query: '{ __typename }' }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return out;
}

const internalError = /^\{"errors":\[\{"message":"Internal error \(request ([^)]+)\)\."/;

describe('the id of an internal error', () => {
  it('is the one the request line, the error record and the X-Request-Id header carry, with request lines sampled away', async () => {
    const { router, records } = await failingRouter();
    const out = await post(router, {});
    const id = internalError.exec(out.body)?.[1];
    expect(id).toMatch(/^[0-9a-z]{6}-[0-9a-z]+$/);
    expect(out.headers.filter((line) => line.startsWith('X-Request-Id:'))).toEqual([`X-Request-Id: ${id}`]);
    expect(records().map((r) => [r['msg'], r['requestId']])).toEqual([
      ['internal error', id],
      ['request', id],
    ]);
    expect(records()[1]).toMatchObject({ level: 'info', method: 'POST', path: '/graphql', status: 500 });
  });

  it("is the client's X-Request-Id when it sent a safe one, and a generated one instead of an unsafe one", async () => {
    const { router, records } = await failingRouter();
    const kept = await post(router, { 'x-request-id': 'client-7' });
    expect([internalError.exec(kept.body)?.[1], kept.headers.filter((line) => line.startsWith('X-Request-Id:'))]).toEqual(['client-7', ['X-Request-Id: client-7']]);
    const replaced = await post(router, { 'x-request-id': 'bad id\r\nX: y' });
    const id = internalError.exec(replaced.body)?.[1];
    expect(id).toMatch(/^[0-9a-z]{6}-[0-9a-z]+$/);
    expect(replaced.headers.filter((line) => line.startsWith('X-Request-Id:'))).toEqual([`X-Request-Id: ${id}`]);
    expect(records().map((r) => [r['msg'], r['requestId']])).toEqual([
      ['internal error', 'client-7'],
      ['request', 'client-7'],
      ['internal error', id],
      ['request', id],
    ]);
  });

  it('a request the transport could not copy: the 500 text, its record and its header share one id', async () => {
    const { router, records } = await failingRouter();
    const out = sink();
    router.fail(new Error('copy failed'), out);
    const id = internalError.exec(out.body)?.[1];
    expect(id).toMatch(/^[0-9a-z]{6}-[0-9a-z]+$/);
    expect(out.headers).toEqual(['Content-Type: application/json', `X-Request-Id: ${id}`]);
    expect(records().map((r) => [r['msg'], r['requestId']])).toEqual([['internal error', id]]);
  });
});
