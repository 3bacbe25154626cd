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

function sink(): ResponseSink & { body: string; deliver(text: string): void } {
  let onData: ((chunk: ArrayBuffer, isLast: boolean) => void) | undefined;
  const s = {
    body: '',
    onAborted: () => undefined,
    onData: (handler: (chunk: ArrayBuffer, isLast: boolean) => void) => void (onData = handler),
    cork: (callback: () => void) => callback(),
    writeStatus: () => undefined,
    writeHeader: () => undefined,
    end: (body?: string | Uint8Array) => void (s.body = typeof body === 'string' ? body : Buffer.from(body ?? new Uint8Array()).toString('utf8')),
    pause: () => undefined,
    resume: () => undefined,
    deliver(text: string) {
      const bytes = Buffer.from(text);
      onData?.(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), true);
    },
  };
  return s as unknown as ResponseSink & { body: string; deliver(text: string): void };
}

describe('the id of an internal error', () => {
  it('is the one the request line and the error record carry, with request lines sampled away', async () => {
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
    const router = new Router({ engine, config: loaded.config, log, address, admin, figures: createRequestFigures(true) });
    const out = sink();
    const exchange = new Exchange({ method: 'POST', path: '/graphql', query: '', headers: { 'content-type': 'application/json' } }, out, () => undefined);
    exchange.insideHandler(() => router.handle(exchange));
    out.deliver(JSON.stringify({ query: '{ __typename }' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const id = /^\{"errors":\[\{"message":"Internal error \(request ([^)]+)\)\."/.exec(out.body)?.[1];
    expect(id).toBeDefined();
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => [r['msg'], r['requestId']])).toEqual([
      ['internal error', id],
      ['request', id],
    ]);
    expect(records[1]).toMatchObject({ level: 'info', method: 'POST', path: '/graphql', status: 500 });
  });
});
