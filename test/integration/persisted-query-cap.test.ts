// --max-persisted-queries: automatic persisted queries are kept at most this many (Dgraph has no cap;
// its store is its graph). Over HTTP against the real server started with a cap of 2: the third new
// hash is refused with a clear error and not registered, registered ones keep running, and the cap
// also holds after a restart (registered queries come back from the log).

import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, runToExit, type ServerProcess, startServer } from './helpers/server-process.js';

const schema = 'type Note { id: ID!  text: String @search(by: [hash]) }';
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const persisted = (query: string): { persistedQuery: { version: number; sha256Hash: string } } => ({ persistedQuery: { version: 1, sha256Hash: sha(query) } });
const full = '{"errors":[{"message":"The persisted query store is full: it holds the maximum of 2 queries (--max-persisted-queries)."}]}';

const dataDir = makeTempDir('apq-cap-');
let server: ServerProcess;

/** The server on our own data directory (server.stop() removes only the one it made itself). */
const start = (): Promise<ServerProcess> =>
  startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--max-persisted-queries', '2'] });

beforeAll(async () => {
  server = await start();
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const queries = ['{ queryNote { text } }', '{ a: queryNote { id } }', '{ b: queryNote { id } }'];

describe('--max-persisted-queries', () => {
  it('registers up to the cap, then refuses a new hash with a clear error and does not register it', async () => {
    for (const query of queries.slice(0, 2)) {
      expect((await postGraphql(server.url, { query, extensions: persisted(query) })).text).toMatch(/^\{"data":/);
    }
    const third = queries[2] as string;
    const refused = await postGraphql(server.url, { query: third, extensions: persisted(third) });
    expect(refused.status).toBe(200);
    expect(refused.text).toBe(full);
    expect((await postGraphql(server.url, { extensions: persisted(third) })).text).toBe('{"errors":[{"message":"PersistedQueryNotFound"}]}');
  });

  it('registered queries still run by hash, and sending one again with its query is no new registration', async () => {
    const first = queries[0] as string;
    expect((await postGraphql(server.url, { extensions: persisted(first) })).json()).toMatchObject({ data: { queryNote: [] } });
    expect((await postGraphql(server.url, { query: first, extensions: persisted(first) })).json()).toMatchObject({ data: { queryNote: [] } });
  });

  it('a request without a hash is not limited', async () => {
    expect((await postGraphql(server.url, { query: queries[2] })).json()).toEqual({ data: { b: [] } });
  });

  it('holds after a restart: the registered queries come back and still count', async () => {
    await server.stop();
    server = await start();
    const second = queries[1] as string;
    expect((await postGraphql(server.url, { extensions: persisted(second) })).json()).toEqual({ data: { a: [] } });
    const third = queries[2] as string;
    expect((await postGraphql(server.url, { query: third, extensions: persisted(third) })).text).toBe(full);
  });
});

describe('flag values', () => {
  it('refuses a negative cap at start-up (exit code 2)', async () => {
    const exit = await runToExit({ args: ['--max-persisted-queries', '-1'] });
    expect(exit.code).toBe(2);
    expect(exit.output).toMatch(/--max-persisted-queries/);
  });
});
