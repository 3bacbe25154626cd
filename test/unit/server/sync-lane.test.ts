// The request path answers a query from inside uWS's data callback (no promise in between) and writes
// it without a cork of its own (uWS has corked the socket for the callback), its headers (the touched-uids
// count included) in one call and its X-Request-Id in another; answers produced later cork.

import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';
import { createAdminHost } from '../../../server/admin-host.js';
import { loadConfig } from '../../../server/config.js';
import { Exchange } from '../../../server/exchange.js';
import type { ResponseSink } from '../../../server/http-types.js';
import { createLogger } from '../../../server/log.js';
import { createRequestFigures, Router } from '../../../server/router.js';

interface FakeSink extends ResponseSink {
  readonly events: string[];
  deliver(body: string): void;
}

function fakeSink(): FakeSink {
  const events: string[] = [];
  let onData: ((chunk: ArrayBuffer, isLast: boolean) => void) | undefined;
  return {
    events,
    onAborted: () => undefined,
    onData: (handler) => {
      onData = handler;
    },
    cork: (callback) => {
      events.push('cork');
      callback();
    },
    writeStatus: (status) => events.push(`status ${Buffer.from(status).toString('latin1')}`),
    writeHeader: () => events.push('header'),
    end: (body) => events.push(`end ${typeof body === 'string' ? body : Buffer.from(body ?? new Uint8Array()).toString('utf8')}`),
    pause: () => undefined,
    resume: () => undefined,
    tryEnd: () => [true, true],
    getWriteOffset: () => 0,
    close: () => events.push('close'),
    onWritable: () => undefined,
    deliver(body) {
      const bytes = Buffer.from(body);
      events.push('data');
      onData?.(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), true);
      events.push('data returned');
    },
  };
}

async function router(): Promise<Router> {
  const engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
  const loaded = loadConfig([], {});
  if (loaded.kind !== 'config') throw new Error('default config did not load');
  const log = createLogger('error', { format: 'json' });
  const address = (): string => '127.0.0.1:0';
  const admin = createAdminHost({ engine, dataDir: '', log, address, shutdown: () => undefined });
  return new Router({ engine, config: loaded.config, log, address, admin, figures: createRequestFigures(true), metrics: { text: () => Promise.resolve(''), json: () => Promise.resolve([]) } });
}

const post = { method: 'POST', path: '/graphql', query: '', headers: { 'content-type': 'application/json' } };

describe('the synchronous lane', () => {
  let routerInstance: Router;
  beforeAll(async () => {
    routerInstance = await router();
  });

  it('answers a query inside the data callback, without a cork call', () => {
    const sink = fakeSink();
    const exchange = new Exchange(post, sink, () => undefined);
    exchange.insideHandler(() => routerInstance.handle(exchange));
    sink.deliver(JSON.stringify({ query: '{ __typename }' }));
    expect(sink.events).toEqual(['data', 'header', 'header', 'end {"data":{"__typename":"Query"}}', 'data returned']);
  });

  it('corks an answer written outside a uWS callback (a refusal found after the body, through a promise)', async () => {
    const sink = fakeSink();
    const exchange = new Exchange({ ...post, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }, sink, () => undefined);
    exchange.insideHandler(() => routerInstance.handle(exchange));
    sink.deliver('not gzip');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sink.events[0]).toBe('data');
    expect(sink.events[1]).toBe('data returned');
    expect(sink.events.slice(2, 4)).toEqual(['cork', 'status 400 Bad Request']);
  });
});
