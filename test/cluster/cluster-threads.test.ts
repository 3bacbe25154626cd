// Cluster mode under the default `--threads` (two threads on these machines): each node's replica thread
// forwards its writes to the node's writer, which proposes them to the stream, and waits for
// `X-Service-Read-After` like the writer. Fresh connections (no keep-alive) reach either thread. With ACL,
// the users' changes (writes of /admin) go the same way and a user added through any thread logs in on all.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { aclSecret } from '../integration/helpers/acl-server.js';
import { uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLogs } from '../integration/helpers/log-records.js';
import { makeTempDir, startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { schema, state } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

/** One request on a connection of its own: the answer and the thread that gave it (its X-Request-Id prefix). */
async function fresh(url: string, query: string, headers: Record<string, string> = {}, path = '/graphql'): Promise<{ body: any; thread: string }> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close', ...headers }, body: JSON.stringify({ query }) });
  expect(response.status).toBe(200);
  const id = response.headers.get('x-request-id') ?? '';
  return { body: await response.json(), thread: id.slice(0, id.lastIndexOf('-')) };
}

describe.skipIf(!natsAvailable)('three nats-servers, two service nodes of two threads each', () => {
  let nats: NatsCluster;
  const dirs = [makeTempDir('cluster-threads-a-'), makeTempDir('cluster-threads-b-')];
  const nodes: ServerProcess[] = [];
  beforeAll(async () => {
    nats = await startNatsCluster();
    for (const dir of dirs) {
      const node = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--cluster', nats.urls.join(','), '--cluster-stream', 'threads', '--threads', '2'], timeoutMs: 60_000 });
      nodes.push(node);
      await vi.waitFor(() => expect(findLogs(node.output(), 'replica thread serving')).toHaveLength(1), { timeout: 20_000, interval: 50 });
    }
    expect(await uploadSchema(nodes[0]?.url ?? '', schema)).toEqual(uploadSucceeded);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await nats?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('writes through any thread of any node are read after their LSN on every thread of both, and the nodes agree', { timeout: 120_000 }, async () => {
    const threads = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const writer = nodes[i % 2] as ServerProcess;
      const written = await fresh(writer.url, `mutation { addTask(input: [{ title: "t${i}" }]) { numUids } }`);
      expect(written.body.data).toEqual({ addTask: { numUids: 1 } });
      threads.add(`${i % 2}:${written.thread}`);
      for (const [n, node] of nodes.entries()) {
        const read = await fresh(node.url, '{ aggregateTask { count } }', { 'x-service-read-after': String(written.body.extensions.lsn) });
        expect(read.body).toEqual({ data: { aggregateTask: { count: i + 1 } } });
        threads.add(`${n}:${read.thread}`);
      }
    }
    // Both threads of both nodes answered (fresh connections are spread by a hash: 24 x 3 requests suffice).
    expect(threads.size).toBe(4);
    const [a, b] = await Promise.all(nodes.map((node) => state(node.url)));
    expect(b).toEqual(a);
  });
});

describe.skipIf(!natsAvailable)('three nats-servers, two service nodes of two threads each, with ACL', () => {
  let nats: NatsCluster;
  const dirs = [makeTempDir('cluster-threads-acl-a-'), makeTempDir('cluster-threads-acl-b-')];
  const secretFile = join(dirs[0] as string, 'hmac-secret');
  writeFileSync(secretFile, aclSecret);
  const nodes: ServerProcess[] = [];
  beforeAll(async () => {
    nats = await startNatsCluster();
    const cluster = ['--cluster', nats.urls.join(','), '--cluster-stream', 'threads-acl', '--acl-secret-file', secretFile, '--threads', '2'];
    // Started at once: both find the stream empty and write the ACL's defaults; one loses and takes the other's.
    nodes.push(...(await Promise.all(dirs.map((dir) => startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, ...cluster], timeoutMs: 60_000 })))));
    for (const node of nodes) await vi.waitFor(() => expect(findLogs(node.output(), 'replica thread serving')).toHaveLength(1), { timeout: 20_000, interval: 50 });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await nats?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('users added through any thread of either node log in on every thread of both after their LSN; groot reads the same state on both', { timeout: 120_000 }, async () => {
    const login = (url: string, user: string, password: string, headers: Record<string, string> = {}): Promise<{ body: any; thread: string }> =>
      fresh(url, `mutation { login(userId: "${user}", password: "${password}") { response { accessJWT } } }`, headers, '/admin');
    const groot = (await login((nodes[0] as ServerProcess).url, 'groot', 'password')).body.data.login.response.accessJWT as string;
    const threads = new Set<string>();
    let lsn = 0;
    for (let i = 0; i < 12; i++) {
      const writer = nodes[i % 2] as ServerProcess;
      const added = await fresh(writer.url, `mutation { addUser(input: [{ name: "user${i}", password: "password-${i}" }]) { user { name } } }`, { 'x-dgraph-accesstoken': groot }, '/admin');
      expect(added.body).toEqual({ data: { addUser: { user: [{ name: `user${i}` }] } }, extensions: { lsn: expect.any(Number) } });
      expect(added.body.extensions.lsn).toBeGreaterThan(lsn);
      lsn = added.body.extensions.lsn;
      threads.add(`${i % 2}:${added.thread}`);
      for (const [n, node] of nodes.entries()) {
        const onNode = await login(node.url, `user${i}`, `password-${i}`, { 'x-service-read-after': String(lsn) });
        expect(typeof onNode.body.data?.login?.response?.accessJWT, JSON.stringify(onNode.body)).toBe('string');
        threads.add(`${n}:${onNode.thread}`);
      }
    }
    expect(threads.size).toBe(4);
    const states = await Promise.all(nodes.map(async (node) => (await fresh(node.url, '{ state { digest lsn } }', { 'x-dgraph-accesstoken': groot, 'x-service-read-after': String(lsn) }, '/admin')).body));
    expect(states[1]).toEqual(states[0]);
    expect(states[0].data.state.lsn).toBe(lsn);
  });
});
