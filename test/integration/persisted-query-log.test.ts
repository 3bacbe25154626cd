// Persisted-query registrations are logged as counts, never one line each: the first at once, then at
// most one line a minute with the number registered since, and what is left when the server stops.
// Queries run from the store or registered again are not registrations.

import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { findLogs } from './helpers/log-records.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const persisted = (query: string): { persistedQuery: { version: number; sha256Hash: string } } => ({ persistedQuery: { version: 1, sha256Hash: sha(query) } });

const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

const counts = (server: ServerProcess): [unknown, unknown][] => findLogs(server.output(), 'persisted queries registered').map((r) => [r['count'], r['total']]);

describe('persisted-query registrations in the log', () => {
  it('the first line at once, later ones counted together (here: at the stop), repeats not counted', async () => {
    const server = await startWithSchema('type Note { id: ID! text: String }', { args: ['--log-requests', 'none'] });
    servers.push(server);
    const queries = ['{ queryNote { id } }', '{ queryNote { text } }', '{ queryNote { id text } }'];
    const register = async (query: string): Promise<string> => (await postGraphql(server.url, { query, extensions: persisted(query) })).text;
    expect(await register(queries[0] ?? '')).toBe('{"data":{"queryNote":[]}}');
    await vi.waitFor(() => expect(counts(server)).toEqual([[1, 1]]));
    for (const query of queries.slice(1)) expect(await register(query)).toBe('{"data":{"queryNote":[]}}');
    // Registered again, and run by hash alone: no registration.
    expect(await register(queries[0] ?? '')).toBe('{"data":{"queryNote":[]}}');
    expect((await postGraphql(server.url, { extensions: persisted(queries[1] ?? '') })).text).toBe('{"data":{"queryNote":[]}}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(counts(server)).toEqual([[1, 1]]);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(counts(server)).toEqual([
      [1, 1],
      [2, 3],
    ]);
  });
});
