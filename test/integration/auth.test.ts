// X-Auth-Token: admin key for /admin*, admin or client key for /graphql unless anonymous; 401 for everyone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernAccept, postGraphql, send } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

const adminKey = 'admin-secret-0123456789';
const clientKey = 'client-secret-abcdef';
const invalid = { errors: [{ message: 'Invalid X-Auth-Token', extensions: { code: 'ErrorUnauthorized' } }] };
const missing = { errors: [{ message: 'Invalid X-Auth-Token: the X-Auth-Token header is missing', extensions: { code: 'ErrorUnauthorized' } }] };
const typename = { query: '{ __typename }' };

describe('with admin and client keys, anonymous off (the default when a key is set)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ args: ['--admin-key', adminKey], env: { SERVICE_CLIENT_KEY: clientKey } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('/graphql without a key → 401 (missing), for every kind of client', async () => {
    for (const headers of [{}, { accept: 'application/json' }, modernAccept]) {
      const answer = await postGraphql(server.url, typename, headers);
      expect(answer.status).toBe(401);
      expect(answer.json()).toEqual(missing);
    }
  });

  it('/graphql with a wrong key → 401 Invalid X-Auth-Token', async () => {
    for (const token of ['wrong', `${clientKey}x`, clientKey.slice(0, -1), adminKey.toUpperCase()]) {
      const answer = await postGraphql(server.url, typename, { 'x-auth-token': token });
      expect(answer.status).toBe(401);
      expect(answer.json()).toEqual(invalid);
    }
  });

  it('/graphql with the client key or the admin key → 200', async () => {
    for (const token of [clientKey, adminKey]) {
      const answer = await postGraphql(server.url, typename, { 'x-auth-token': token });
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('GET /graphql needs a key too', async () => {
    const url = `${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`;
    expect((await send(url)).status).toBe(401);
    expect((await send(url, { headers: { 'x-auth-token': clientKey } })).status).toBe(200);
  });

  it('/admin* needs the admin key: the client key is not enough', async () => {
    const calls = [
      { path: '/admin/schema', method: 'POST' as const, body: 'type T { id: ID! }' },
      { path: '/admin/schema', method: 'GET' as const },
      { path: '/admin/schema/validate', method: 'POST' as const, body: 'type T { id: ID! }' },
      { path: '/admin', method: 'POST' as const, body: JSON.stringify({ query: '{ getGQLSchema { schema } }' }) },
    ];
    for (const call of calls) {
      const base = { method: call.method, ...(call.body === undefined ? {} : { body: call.body }) };
      const headers = call.path === '/admin' ? { 'content-type': 'application/json' } : {};
      const none = await send(`${server.url}${call.path}`, { ...base, headers });
      expect(none.status, call.path).toBe(401);
      expect(none.json()).toEqual(missing);
      const client = await send(`${server.url}${call.path}`, { ...base, headers: { ...headers, 'x-auth-token': clientKey } });
      expect(client.status, call.path).toBe(401);
      expect(client.json()).toEqual(invalid);
      const admin = await send(`${server.url}${call.path}`, { ...base, headers: { ...headers, 'x-auth-token': adminKey } });
      expect(admin.status, call.path).not.toBe(401);
    }
  });

  it('the key check happens before the body is read (no 413/415 leak without a key)', async () => {
    const unsupported = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect([unsupported.status, unsupported.json()]).toEqual([401, missing]);
    // Over the default 8 MiB --max-body-bytes: without a key, 401 (not 413).
    const oversized = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(8 * 1024 * 1024 + 1, 0x20) });
    expect([oversized.status, oversized.json()]).toEqual([401, missing]);
    const admin = await send(`${server.url}/admin/schema`, { method: 'POST', body: Buffer.alloc(8 * 1024 * 1024 + 1, 0x20) });
    expect([admin.status, admin.json()]).toEqual([401, missing]);
  });

  it('/health and /probe/graphql stay open; OPTIONS needs no key', async () => {
    expect((await send(`${server.url}/health`)).status).toBe(200);
    expect((await send(`${server.url}/probe/graphql`)).status).toBe(200);
    expect((await send(`${server.url}/graphql`, { method: 'OPTIONS' })).status).toBe(200);
  });

  it('never logs the keys', () => {
    expect(server.output()).not.toContain(adminKey);
    expect(server.output()).not.toContain(clientKey);
  });
});

describe('with an admin key and --anonymous', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ args: ['--admin-key', adminKey, '--anonymous'] });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('/graphql is open without a key', async () => {
    expect((await postGraphql(server.url, typename)).status).toBe(200);
  });

  it('/admin/schema still needs the admin key', async () => {
    expect((await send(`${server.url}/admin/schema`)).status).toBe(401);
    expect((await send(`${server.url}/admin/schema`, { headers: { 'x-auth-token': 'nope' } })).status).toBe(401);
  });
});

describe('without keys', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('everything is open', async () => {
    expect((await postGraphql(server.url, typename)).status).toBe(200);
    expect((await send(`${server.url}/admin/schema/validate`, { method: 'POST', body: 'type T { id: ID! }' })).status).not.toBe(401);
  });
});
