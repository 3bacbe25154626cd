// `--threads N` (issue #16): N uWS listeners on one port, each answering reads from its own replica,
// the first thread writing. Every check goes through fresh connections, which the kernel spreads over
// the threads (SO_REUSEPORT); a generated X-Request-Id names the thread that answered (its prefix is
// per thread), so the tests see that every thread served.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { snapshotFileName } from '../../engine/index.js';
import { fresh, onEveryThread, type Fresh } from './helpers/fresh-connection.js';
import { findLogs } from './helpers/log-records.js';
import { parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const schema = `type Post @withSubscription { id: ID! title: String! @search(by: [term]) score: Int @search slug: String! @id big: Int64 }`;

const gql = (url: string, query: string, variables?: unknown, extensions?: unknown): Promise<Fresh> => fresh(url, '/graphql', JSON.stringify({ query, variables, extensions }));
const admin = (url: string, query: string): Promise<Fresh> => fresh(url, '/admin', JSON.stringify({ query }));

/** Replica threads join once they loaded the data (the start-up line comes as the writer listens). */
async function serving(server: ServerProcess, threads: number): Promise<void> {
  await vi.waitFor(() => expect(findLogs(server.output(), 'replica thread serving')).toHaveLength(threads - 1), { timeout: 20_000, interval: 50 });
}

describe('--threads 3', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ args: ['--threads', '3', '--fsync', 'always'] });
    await serving(server, 3);
    expect((await fresh(server.url, '/admin/schema', schema, 'application/octet-stream')).body).toEqual({ data: { code: 'Success', message: 'Done' } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('starts two replica threads on the port and says so', () => {
    expect(findLogs(server.output(), 'replica thread serving').map((r) => r['thread'])).toEqual(expect.arrayContaining([1, 2]));
    expect(findLogs(server.output(), /^listening on /)[0]?.['threads']).toBe(3);
  });

  it('a write answered on one connection is seen by the next request on any thread (read-after-ack)', async () => {
    const threads = new Set<string>();
    for (let i = 1; i <= 40; i++) {
      const added = await gql(server.url, 'mutation A($p: AddPostInput!) { addPost(input: [$p]) { post { slug } } }', { p: { title: `alpha post ${i}`, score: i, slug: `s${i}` } });
      expect(added.body.data).toEqual({ addPost: { post: [{ slug: `s${i}` }] } });
      expect(added.body.extensions?.lsn).toEqual(expect.any(Number));
      const read = await gql(server.url, '{ aggregatePost { count scoreMax } }');
      expect(read.body).toEqual({ data: { aggregatePost: { count: i, scoreMax: i } } });
      threads.add(added.thread).add(read.thread);
    }
    expect(threads.size).toBe(3);
  });

  it('every thread holds the same state: digest and LSN', async () => {
    const states = await onEveryThread(server.url, 3, (url) => admin(url, '{ state { digest lsn } }'));
    const [first, ...rest] = [...states.values()].map((a) => a.body.data);
    expect(first.state.lsn).toBeGreaterThan(40);
    for (const other of rest) expect(other).toEqual(first);
  });

  it('an @id conflict is decided once, by the writer, whichever thread took each add', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => gql(server.url, 'mutation { addPost(input: [{ title: "same", slug: "one-slug" }]) { post { slug } } }')));
    const ok = answers.filter((a) => a.body.errors === undefined);
    expect(ok).toHaveLength(1);
    for (const refused of answers.filter((a) => a.body.errors !== undefined)) {
      expect(refused.body.errors?.map((e) => e.message)).toEqual(['couldn\'t rewrite mutation addPost because failed to rewrite mutation payload because id one-slug already exists for field slug inside type Post']);
    }
    const counts = await onEveryThread(server.url, 3, (url) => gql(url, '{ aggregatePost(filter: { slug: { eq: "one-slug" } }) { count } }'));
    for (const answer of counts.values()) expect(answer.body.data).toEqual({ aggregatePost: { count: 1 } });
  });

  it('a float-written Int64 in the variables is refused as on one thread (the forwarded write keeps its text)', async () => {
    const raw = '{"query":"mutation A($b: Int64) { addPost(input: [{ title: \\"f\\", slug: \\"float\\", big: $b }]) { numUids } }","variables":{"b":180143985094.0}}';
    const answers = await onEveryThread(server.url, 3, (url) => fresh(url, '/graphql', raw));
    for (const answer of answers.values()) expect(answer.body).toEqual({ errors: [{ message: 'Type mismatched for Value `180143985094.0`, expected:`Int64`', path: ['variable', 'b'] }] });
  });

  it('a persisted query registered through one thread runs on every thread', async () => {
    const query = '{ queryPost(filter: { slug: { eq: "s7" } }) { title } }';
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const extensions = { persistedQuery: { version: 1, sha256Hash } };
    expect((await gql(server.url, query, undefined, extensions)).body.data).toEqual({ queryPost: [{ title: 'alpha post 7' }] });
    const runs = await onEveryThread(server.url, 3, (url) => fresh(url, '/graphql', JSON.stringify({ extensions })));
    for (const answer of runs.values()) expect(answer.body.data).toEqual({ queryPost: [{ title: 'alpha post 7' }] });
  });

  it('draining set through any thread holds on every thread, and is lifted the same way', async () => {
    expect((await admin(server.url, 'mutation { draining(enable: true) { response { code } } }')).body.data).toEqual({ draining: { response: { code: 'Success' } } });
    const refused = await onEveryThread(server.url, 3, (url) => gql(url, '{ queryPost(first: 1) { slug } }'));
    for (const answer of refused.values()) expect(answer.body.errors?.map((e) => e.message)).toEqual(['Dgraph query failed because Dgraph execution failed because the server is in draining mode and client requests will only be allowed after exiting the mode  by sending a GraphQL draining(enable: false) mutation to /admin']);
    expect((await admin(server.url, 'mutation { draining(enable: false) { response { code } } }')).body.data).toEqual({ draining: { response: { code: 'Success' } } });
    const served = await onEveryThread(server.url, 3, (url) => gql(url, '{ queryPost(filter: { slug: { eq: "s1" } }) { slug } }'));
    for (const answer of served.values()) expect(answer.body.data).toEqual({ queryPost: [{ slug: 's1' }] });
  });

  it('the log level set through any thread holds on every thread', async () => {
    const levels = async (): Promise<Set<unknown>> => new Set([...(await onEveryThread(server.url, 3, (url) => admin(url, '{ config { logLevel } }'))).values()].map((a) => a.body.data?.config?.logLevel));
    expect(await levels()).toEqual(new Set(['info']));
    expect((await admin(server.url, 'mutation { config(input: {logLevel: "debug"}) { response { code } } }')).body.data).toEqual({ config: { response: { code: 'Success' } } });
    expect(await levels()).toEqual(new Set(['debug']));
    expect((await admin(server.url, 'mutation { config(input: {logLevel: "info"}) { response { code } } }')).body.data).toEqual({ config: { response: { code: 'Success' } } });
    expect(await levels()).toEqual(new Set(['info']));
  });

  it('/metrics on any thread answers for the process: every thread\'s requests summed, the store counted once', async () => {
    await gql(server.url, '{ queryPost(first: 1) { slug } }');
    const before = parsePrometheusText((await fresh(server.url, '/metrics', undefined)).text);
    const queries = { route: '/graphql', operation: 'query', outcome: 'ok' };
    const counted = sampleValue(before, 'graphdb_requests_total', queries);
    const threads = new Set<string>();
    for (let i = 0; i < 30; i++) threads.add((await gql(server.url, '{ queryPost(first: 1) { slug } }')).thread);
    expect(threads.size).toBe(3);
    const posts = (await gql(server.url, '{ aggregatePost { count } }')).body.data.aggregatePost.count as number;
    const scrapes = await onEveryThread(server.url, 3, (url) => fresh(url, '/metrics', undefined));
    for (const scrape of scrapes.values()) {
      const families = parsePrometheusText(scrape.text);
      expect(sampleValue(families, 'graphdb_requests_total', queries)).toBe(counted + 31);
      expect(sampleValue(families, 'graphdb_nodes', { type: 'Post' })).toBe(posts);
      expect(families.get('process_cpu_user_seconds_total')?.samples).toHaveLength(1);
    }
  });

  it('a subscription on any thread sees writes taken by the others', async () => {
    const clients = Array.from({ length: 6 }, () => createClient({ url: server.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, retryAttempts: 0 }));
    const seen: number[][] = clients.map(() => []);
    const stops = clients.map((client, i) =>
      client.subscribe({ query: 'subscription { aggregatePost(filter: { title: { anyofterms: "live" } }) { count } }' }, {
        next: (v) => seen[i]?.push((v.data as { aggregatePost: { count: number } }).aggregatePost.count),
        error: () => undefined,
        complete: () => undefined,
      }),
    );
    const until = async (ok: () => boolean): Promise<void> => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(() => seen.every((s) => s.length > 0));
    for (let i = 1; i <= 3; i++) await gql(server.url, `mutation { addPost(input: [{ title: "live ${i}", slug: "live-${i}" }]) { post { slug } } }`);
    await until(() => seen.every((s) => s.at(-1) === 3));
    for (const counts of seen) expect(counts.at(-1)).toBe(3);
    for (const stop of stops) stop();
    await Promise.all(clients.map((c) => c.dispose()));
  });

  it('schema uploads and snapshots taken through a replica thread run on the writer', async () => {
    const withAuthor = `${schema} type Author { id: ID! name: String! @search(by: [hash]) }`;
    for (let i = 0; i < 6; i++) expect((await fresh(server.url, '/admin/schema', withAuthor, 'application/octet-stream')).body).toEqual({ data: { code: 'Success', message: 'Done' } });
    const added = await onEveryThread(server.url, 3, (url) => gql(url, `mutation { addAuthor(input: [{ name: "a${Math.random()}" }]) { numUids } }`));
    for (const answer of added.values()) expect(answer.body).toMatchObject({ data: { addAuthor: { numUids: 1 } } });
    const snapshots = await onEveryThread(server.url, 3, (url) => fresh(url, '/admin/snapshot', ''));
    for (const answer of snapshots.values()) expect(answer.status).toBe(200);
  });
});

describe('--threads 3 --ws-max-connections 2', () => {
  it('the WebSocket connection limit is the process\'s, whichever thread takes each upgrade', async () => {
    const server = await startServer({ args: ['--threads', '3', '--ws-max-connections', '2'] });
    await serving(server, 3);
    const url = `${server.url.replace('http', 'ws')}/graphql`;
    const open = (): Promise<WebSocket> =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(url, 'graphql-transport-ws');
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
        socket.once('error', reject);
      });
    try {
      const held = [await open(), await open()];
      // Fresh connections land on every thread; none may pass the limit.
      for (let i = 0; i < 12; i++) await expect(open()).rejects.toThrow('upgrade refused: 503');
      const closed = held.map((s) => new Promise((resolve) => s.once('close', resolve)));
      for (const socket of held) socket.close();
      await Promise.all(closed);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = [await open(), await open()];
      for (const socket of again) socket.close();
    } finally {
      await server.stop();
    }
  });
});

describe('--threads 2 across a SIGKILL', () => {
  it('comes back with every acknowledged write on every thread', async () => {
    const first = await startServer({ args: ['--threads', '2', '--fsync', 'always'] });
    await serving(first, 2);
    expect((await fresh(first.url, '/admin/schema', schema, 'application/octet-stream')).body.data).toEqual({ code: 'Success', message: 'Done' });
    const writes = await Promise.all(Array.from({ length: 30 }, (_, i) => gql(first.url, `mutation { addPost(input: [{ title: "kept ${i}", slug: "k${i}", score: ${i} }]) { numUids } }`)));
    for (const w of writes) expect(w.body.data).toEqual({ addPost: { numUids: 1 } });
    const before = (await admin(first.url, '{ state { digest lsn } }')).body.data;
    first.child.kill('SIGKILL');
    await first.exited;
    const again = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', first.dataDir, '--threads', '2', '--snapshot-postings'] });
    await serving(again, 2);
    try {
      const states = await onEveryThread(again.url, 2, (url) => admin(url, '{ state { digest lsn } }'));
      for (const state of states.values()) expect(state.body.data).toEqual(before);
      const sums = await onEveryThread(again.url, 2, (url) => gql(url, '{ aggregatePost { count scoreSum } }'));
      for (const sum of sums.values()) expect(sum.body.data).toEqual({ aggregatePost: { count: 30, scoreSum: 435 } });
    } finally {
      await again.stop();
      await first.stop();
    }
  });
});

describe('--threads 2 restarting on a snapshot and the log after it', () => {
  /** Schema, 20 posts, a snapshot, 10 more (kept in the log only), SIGKILL; returns the data dir and the state before the kill. */
  async function snapshotThenLog(snapshots: number): Promise<{ first: ServerProcess; before: unknown; lsns: number[] }> {
    // Snapshots with stored postings: the restarted replica loads the term index from them.
    const first = await startServer({ args: ['--threads', '1', '--fsync', 'always', '--snapshot-every', '0', '--snapshot-interval', '0', '--snapshot-postings'] });
    expect((await fresh(first.url, '/admin/schema', schema, 'application/octet-stream')).body).toEqual({ data: { code: 'Success', message: 'Done' } });
    const lsns: number[] = [];
    for (let s = 0; s < snapshots; s++) {
      for (let i = 0; i < 20; i++) expect((await gql(first.url, `mutation { addPost(input: [{ title: "s${s} ${i}", slug: "s${s}-${i}", score: ${i} }]) { numUids } }`)).body.data).toEqual({ addPost: { numUids: 1 } });
      const taken = await fresh(first.url, '/admin/snapshot', '');
      expect(taken.status).toBe(200);
      lsns.push(Number((await admin(first.url, '{ state { lsn } }')).body.data.state.lsn));
    }
    for (let i = 0; i < 10; i++) expect((await gql(first.url, `mutation { addPost(input: [{ title: "log ${i}", slug: "log-${i}", score: 100 }]) { numUids } }`)).body.data).toEqual({ addPost: { numUids: 1 } });
    const before = (await admin(first.url, '{ state { digest lsn } }')).body.data;
    first.child.kill('SIGKILL');
    await first.exited;
    return { first, before, lsns };
  }

  it('the replica loads the snapshot while the writer opens the directory, then the log after it: every thread agrees', async () => {
    const { first, before, lsns } = await snapshotThenLog(1);
    const again = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', first.dataDir, '--threads', '2', '--snapshot-postings'] });
    try {
      const line = findLogs(again.output(), 'replica thread serving')[0];
      expect(line?.['preloaded']).toBe(lsns[0]);
      expect(line?.['lsn']).toBe((before as { state: { lsn: number } }).state.lsn);
      const states = await onEveryThread(again.url, 2, (url) => admin(url, '{ state { digest lsn } }'));
      for (const state of states.values()) expect(state.body.data).toEqual(before);
      const counts = await onEveryThread(again.url, 2, (url) => gql(url, '{ aggregatePost { count } }'));
      for (const count of counts.values()) expect(count.body.data).toEqual({ aggregatePost: { count: 30 } });
      // The term index as the snapshot stored it (format 2: its postings loaded, not rebuilt) plus the log's posts.
      const terms = await onEveryThread(again.url, 2, (url) => gql(url, '{ queryPost(filter: { title: { anyofterms: "s0 log" } }) { slug } }'));
      for (const answer of terms.values()) expect((answer.body.data.queryPost as { slug: string }[]).map((p) => p.slug).sort()).toEqual([...Array.from({ length: 20 }, (_, i) => `s0-${i}`), ...Array.from({ length: 10 }, (_, i) => `log-${i}`)].sort());
      const one = await onEveryThread(again.url, 2, (url) => gql(url, '{ queryPost(filter: { title: { allofterms: "s0 7" } }) { slug } }'));
      for (const answer of one.values()) expect(answer.body.data).toEqual({ queryPost: [{ slug: 's0-7' }] });
    } finally {
      await again.stop();
      await first.stop();
    }
  });

  it('a writer that falls back to the previous snapshot (--recover, the newest damaged): the replica serves what the writer restored', async () => {
    const { first, before, lsns } = await snapshotThenLog(2);
    const newest = join(first.dataDir, snapshotFileName(lsns[1] as number));
    const bytes = readFileSync(newest);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] as number) ^ 0xff;
    writeFileSync(newest, bytes);
    const again = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', first.dataDir, '--threads', '2', '--recover'] });
    try {
      // Whichever came first: the replica listed the directory before the writer set the damaged snapshot
      // aside (it failed to read it, then loads again what the writer restored), or after (it loaded the
      // previous snapshot, the writer's).
      const reloads = findLogs(again.output(), 'replica thread loads the data directory again');
      const preloaded = findLogs(again.output(), 'replica thread serving')[0]?.['preloaded'];
      if (reloads.length === 0) expect(preloaded).toBe(lsns[0]);
      else {
        expect(reloads).toEqual([expect.objectContaining({ thread: 1, why: `loaded the snapshot at LSN none, the writer restored from the one at LSN ${lsns[0]}` })]);
        expect(preloaded).toBeUndefined();
      }
      const states = await onEveryThread(again.url, 2, (url) => admin(url, '{ state { digest lsn } }'));
      for (const state of states.values()) expect(state.body.data).toEqual(before);
    } finally {
      await again.stop();
      await first.stop();
    }
  });
});
