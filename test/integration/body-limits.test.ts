// Request bodies: size caps (413 before buffering past the cap), gzip in both directions, gzip bombs,
// broken gzip, and clients that vanish mid-body.

import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { header, jsonHeaders, postGraphql, send } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

const maxBodyBytes = 8 * 1024 * 1024;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ args: ['--max-body-bytes', String(maxBodyBytes)] });
});
afterAll(async () => {
  await server.stop();
});

const typename = JSON.stringify({ query: '{ __typename }' });
const bigIntrospection = JSON.stringify({ query: '{ __schema { types { name description fields { name description } } } }' });
const gzipJson = { ...jsonHeaders, 'content-encoding': 'gzip' };

function messageOf(body: unknown): string | undefined {
  return (body as { errors?: { message: string }[] }).errors?.[0]?.message;
}

async function healthy(): Promise<void> {
  const answer = await postGraphql(server.url, { query: '{ __typename }' });
  expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
}

/** Resident memory of the server process in bytes (Linux), or undefined. */
function serverRss(): number | undefined {
  try {
    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

it('runs on the native uWebSockets.js transport', () => {
  expect(server.transport).toBe(nativeTransport);
});

describe('gzip', () => {
  it('accepts a gzip request body', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: gzipJson, body: gzipSync(typename) });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('gzips a large response when the client accepts gzip', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { ...jsonHeaders, 'accept-encoding': 'gzip' }, body: bigIntrospection });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-encoding')).toBe('gzip');
    expect(header(answer, 'vary')).toBe('Accept-Encoding');
    const plain = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: bigIntrospection });
    expect(gunzipSync(answer.body).toString('utf8')).toBe(plain.text);
    expect(Object.keys((plain.json() as { data: object }).data)).toEqual(['__schema']);
  });

  it('does not gzip when the client does not ask, or for small bodies', async () => {
    const plain = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: bigIntrospection });
    expect(header(plain, 'content-encoding')).toBeUndefined();
    expect(plain.text.length).toBeGreaterThan(1024);
    const small = await send(`${server.url}/graphql`, { method: 'POST', headers: { ...jsonHeaders, 'accept-encoding': 'gzip' }, body: typename });
    expect(header(small, 'content-encoding')).toBeUndefined();
    expect(small.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('broken gzip → 400 "Unable to parse gzip: ..."', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: gzipJson, body: Buffer.from('this is not gzip') });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'Unable to parse gzip: incorrect header check' }] });
  });

  it('truncated gzip → 400', async () => {
    const whole = gzipSync(bigIntrospection);
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: gzipJson, body: whole.subarray(0, whole.length - 10) });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ errors: [{ message: 'Unable to parse gzip: unexpected end of file' }] });
  });

  it('an unsupported Content-Encoding → 415', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: { ...jsonHeaders, 'content-encoding': 'br' }, body: typename });
    expect(answer.status).toBe(415);
  });

  it('refuses a 1 GiB gzip bomb with 413 in well under a second, with flat memory', async () => {
    // Concatenated gzip members are one valid stream: 1024 × (1 MiB of zeros) ≈ 1 GiB inflated, ~1 MiB sent.
    const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    expect(bomb.length).toBeLessThan(maxBodyBytes); // so it is the inflated size that is refused
    const rssBefore = serverRss();
    const started = performance.now();
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: gzipJson, body: bomb });
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(413);
    expect(messageOf(answer.json())).toBe(`Request body too large: the limit is ${maxBodyBytes} bytes after gzip decompression`);
    expect(elapsed).toBeLessThan(1000);
    const rssAfter = serverRss();
    if (rssBefore !== undefined && rssAfter !== undefined) expect(rssAfter - rssBefore).toBeLessThan(64 * 1024 * 1024);
    await healthy();
  });

  it('refuses a small gzip bomb (16 MiB inflated) on its inflated size', async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => member)); // 16 MiB inflated, ~16 KiB sent
    expect(bomb.length).toBeLessThan(maxBodyBytes);
    const started = performance.now();
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: gzipJson, body: bomb });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(answer.status).toBe(413);
    expect(messageOf(answer.json())).toBe(`Request body too large: the limit is ${maxBodyBytes} bytes after gzip decompression`);
    await healthy();
  });
});

describe('size caps', () => {
  it('a Content-Length over the cap → 413 at once', async () => {
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: Buffer.alloc(maxBodyBytes + 1, 0x20) });
    expect(answer.status).toBe(413);
    expect(messageOf(answer.json())).toBe(`Request body too large: the limit is ${maxBodyBytes} bytes`);
    await healthy();
  });

  it('a body exactly at the cap is read', async () => {
    const padded = typename + ' '.repeat(maxBodyBytes - typename.length);
    const answer = await send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: padded });
    expect(answer.status).toBe(200);
  });

  it('a chunked body that grows past the cap → 413 without reading the rest', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    async function* forever(): AsyncGenerator<Buffer> {
      while (sent < 16 * maxBodyBytes) {
        sent += chunk.length;
        yield chunk;
      }
    }
    const response = await request(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body: Readable.from(forever()) });
    expect(response.statusCode).toBe(413);
    expect(messageOf(await response.body.json())).toBe(`Request body too large: the limit is ${maxBodyBytes} bytes`);
    expect(sent).toBeLessThan(16 * maxBodyBytes);
    await healthy();
  });

  it('the cap applies to /admin/schema uploads too', async () => {
    const answer = await send(`${server.url}/admin/schema`, { method: 'POST', body: Buffer.alloc(maxBodyBytes + 1, 0x20) });
    expect(answer.status).toBe(413);
  });
});

describe('aborted requests', () => {
  function abortMidBody(extraHeaders: string, partial: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /graphql HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n${extraHeaders}Content-Length: 100000\r\n\r\n`,
        );
        socket.write(partial, () => setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50));
      });
      socket.on('error', reject);
    });
  }

  it('a client that disconnects mid-body does not hurt the server', async () => {
    await abortMidBody('', Buffer.from('{"query":"{ __typ'));
    await healthy();
  });

  it('a client that disconnects mid-gzip-body does not hurt the server', async () => {
    await abortMidBody('Content-Encoding: gzip\r\n', gzipSync(bigIntrospection).subarray(0, 20));
    await healthy();
  });

  it('many aborted requests in a row leave the server healthy', async () => {
    await Promise.all(Array.from({ length: 50 }, () => abortMidBody('', Buffer.from('{"query":'))));
    await healthy();
    expect(server.child.exitCode).toBeNull();
  });
});
