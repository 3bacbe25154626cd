// Cluster mode under the default `--threads` (two threads on these machines): each node's replica thread
// forwards its writes to the node's writer, which proposes them to the stream, and waits for
// `X-Service-Read-After` like the writer. Fresh connections (no keep-alive) reach either thread.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLogs } from '../integration/helpers/log-records.js';
import { makeTempDir, startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { schema, state } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

/** One request on a connection of its own: the answer and the thread that gave it (its X-Request-Id prefix). */
async function fresh(url: string, query: string, headers: Record<string, string> = {}): Promise<{ body: any; thread: string }> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close', ...headers }, body: JSON.stringify({ query }) });
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
