import { describe, expect, it } from 'vitest';
import type * as Uws from 'uWebSockets.js';
import { loadTransport } from '../../../server/uws-transport.js';
import type { IncomingRequest } from '../../../server/http-types.js';

type Handler = (res: unknown, req: unknown) => void;

/** The transport's copy of one request with these raw headers (fresh strings, as the binding makes them). */
async function copyOf(raw: readonly (readonly [string, string])[], allHeaders: boolean): Promise<IncomingRequest> {
  let handler: Handler | undefined;
  const app = {
    any: (_pattern: string, h: Handler) => (handler = h),
    listen: (_host: string, _port: number, done: (socket: unknown) => void) => done({}),
  };
  const binding = { App: () => app, getParts: () => undefined, _cfg: () => undefined, us_socket_local_port: () => 1 } as unknown as typeof Uws;
  let copied: IncomingRequest | undefined;
  await loadTransport(binding).listen('127.0.0.1', 0, (request) => (copied = request), (error) => { throw error; }, () => allHeaders);
  const req = {
    forEach: (visit: (key: string, value: string) => void) => {
      for (const [key, value] of raw) visit(` ${key}`.slice(1), ` ${value}`.slice(1));
    },
    getMethod: () => 'post',
    getUrl: () => '/graphql',
    getQuery: () => 'a=1',
  };
  handler?.({}, req);
  if (copied === undefined) throw new Error('the handler was not called');
  return copied;
}

const raw = [
  ['host', 'example.com'],
  ['content-type', 'application/json'],
  ['x-forwarded-for', '10.0.0.1'],
  ['content-length', '12'],
  ['accept', 'application/json'],
  ['x-forwarded-for', '10.0.0.2'],
  ['accept', 'text/html'],
  ['content-length', '13'],
  ['content-length', '12'],
] as const;

// uws-transport.ts `snapshot`: the edge's own headers keep their first value, others are joined (only
// while every header is copied), and each Content-Length value that differs from the first is collected.
describe('uws-transport: the request copy', () => {
  it('keeps only the edge headers, each with its first value, when the schema reads no headers', async () => {
    const request = await copyOf(raw, false);
    expect(request).toEqual({
      method: 'POST',
      path: '/graphql',
      query: 'a=1',
      headers: { 'content-type': 'application/json', 'content-length': '12', accept: 'application/json' },
      conflictingLengths: '12, 13',
    });
    expect(Object.keys(request.headers)).toEqual(['content-type', 'content-length', 'accept']);
  });

  it('copies every header, repeated ones joined, when the schema reads headers', async () => {
    const request = await copyOf(raw, true);
    expect(request.headers).toEqual({
      host: 'example.com',
      'content-type': 'application/json',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
      'content-length': '12',
      accept: 'application/json',
    });
    expect(request.conflictingLengths).toBe('12, 13');
  });

  it('has no conflicting lengths when the repeated values agree', async () => {
    const request = await copyOf([['content-length', '5'], ['content-length', '5']], false);
    expect(request).toEqual({ method: 'POST', path: '/graphql', query: 'a=1', headers: { 'content-length': '5' } });
  });
});
