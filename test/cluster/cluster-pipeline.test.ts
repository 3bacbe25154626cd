// `--cluster-pipeline 4`: the proposing node proposes a group of writes before the previous one is
// answered (chained by Nats-Expected-Last-Msg-Id), against three real nats-servers and three service
// nodes. Checked: under load from 16 clients every acknowledged write is stored once on every node and the
// digests agree; a write over a message's size goes as parts among them (and, at the ClusterNode, a
// proposal as parts between chained ones waits for the answer before it); the proposing node SIGKILLed with groups in flight: the survivors agree with the stream
// (digests equal), every acknowledged write is there, none twice, and the restarted node agrees too.
// (The engine's side — refusals, unknown outcomes, reads during a pipeline — test/unit/persist/pipeline.test.ts.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { post, state } from './service-nodes.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ClusterNode } from '../../server/cluster/cluster-node.js';
import { JetStreamLog } from '../../server/cluster/jetstream-log.js';
import { createLogger } from '../../server/log.js';

if (!natsAvailable) console.warn(natsSkipMessage);

// Note has no @id: a write applied twice would make two nodes.
const schema = 'type Note {\n  id: ID!\n  text: String! @search(by: [hash])\n}\n';

/** Writes from `clients` connections to `node` until `until()` says stop; acknowledged texts, and the answers that were not. */
async function load(node: ServerProcess, tag: string, clients: number, until: () => boolean): Promise<{ acknowledged: string[]; failed: string[] }> {
  const acknowledged: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; !until(); i++) {
        const text = `${tag} ${client}.${i}`;
        try {
          const answer = await postGraphql(node.url, { query: `mutation { addNote(input: [{ text: "${text}" }]) { numUids } }` });
          const body = (await answer.json()) as { data?: { addNote?: { numUids?: number } } };
          if (answer.status === 200 && body.data?.addNote?.numUids === 1) acknowledged.push(text);
          else failed.push(`${text}: ${JSON.stringify(body)}`);
        } catch {
          failed.push(`${text}: no answer`);
          return; // the node is gone
        }
      }
    }),
  );
  return { acknowledged, failed };
}

/** Each note's text and how many nodes hold it, read after the node applied the stream's last sequence. */
async function notes(node: ServerProcess): Promise<Map<string, number>> {
  const answer = await post(node.url, '{ queryNote(first: 100000) { text } }', { 'x-service-consistency': 'linearizable' });
  const counts = new Map<string, number>();
  for (const { text } of answer.data.queryNote as { text: string }[]) counts.set(text, (counts.get(text) ?? 0) + 1);
  return counts;
}

async function agreeing(nodes: readonly ServerProcess[]): Promise<{ digest: string; lsn: number }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const states = await Promise.all(nodes.map((node) => state(node.url)));
    if (new Set(states.map((s) => `${s.lsn}/${s.digest}`)).size === 1 || Date.now() > deadline) {
      expect(states.map((s) => s.digest)).toEqual(states.map(() => states[0]?.digest));
      return states[0] as { digest: string; lsn: number };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!natsAvailable)('pipelined proposals on the ordering node (--cluster-pipeline 4)', () => {
  let nats: NatsCluster;
  let nodes: ServerProcess[] = [];
  const args = (): string[] => ['--cluster', nats.urls.join(','), '--cluster-stream', 'pipeline', '--cluster-pipeline', '4', '--snapshot-interval', '0', '--threads', '1'];
  beforeAll(async () => {
    nats = await startNatsCluster();
    nodes = await Promise.all([0, 1, 2].map(() => startServer({ args: args(), timeoutMs: 60_000 })));
    expect(await uploadSchema(nodes[0]?.url as string, schema)).toEqual(uploadSucceeded);
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await nats?.stop();
  });

  it('16 clients through one node: every acknowledged write is stored once on every node; digests agree', { timeout: 90_000 }, async () => {
    const [a] = nodes as [ServerProcess];
    const stopAt = Date.now() + 3_000;
    const { acknowledged, failed } = await load(a, 'steady', 16, () => Date.now() > stopAt);
    expect(failed).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(50);
    await agreeing(nodes);
    for (const node of nodes) {
      const held = await notes(node);
      expect([...held.values()].filter((count) => count > 1)).toEqual([]);
      expect(acknowledged.filter((text) => !held.has(text))).toEqual([]);
      expect(held.size).toBe(acknowledged.length);
    }
  });

  it('ClusterNode: a proposal over a message after one in flight, and one after it, wait for the answer before them; all land in order', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipeline-node-'));
    const quiet = createLogger('error', { stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
    const node = await ClusterNode.open({ servers: nats.urls, stream: 'pipeline-parts', nodeMaxAgeMs: 60_000, pipeline: 4 }, dir, quiet);
    const reader = await JetStreamLog.open({ servers: nats.urls, stream: 'pipeline-parts' });
    try {
      const big = Buffer.alloc(1_500_000, 'b');
      const answers = await Promise.all([node.propose(Buffer.from('first')), node.propose(big, true), node.propose(Buffer.from('after'), true)]);
      expect(answers).toEqual(['appended', 'appended', 'appended']);
      const seen: string[] = [];
      const follower = reader.follow(0, (_seq, data) => void seen.push(data.byteLength > 100 ? `big ${data.byteLength}` : Buffer.from(data).toString()));
      await follower.waitFor(await reader.lastSequence(), 10_000);
      expect(seen).toEqual(['first', 'big 1500000', 'after']);
      await follower.stop();
    } finally {
      await Promise.all([node.close(), reader.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a write larger than a message (proposed as parts) among small ones in flight: each stored once; digests agree', { timeout: 90_000 }, async () => {
    const [a] = nodes as [ServerProcess];
    let done = false;
    const small = load(a, 'around big', 8, () => done);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const big = Array.from({ length: 2_000 }, (_, i) => ({ text: `big ${i} `.padEnd(1024, 'x') }));
    const answer = await postGraphql(a.url, { query: 'mutation($notes: [AddNoteInput!]!) { addNote(input: $notes) { numUids } }', variables: { notes: big } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: unknown }).data).toEqual({ addNote: { numUids: 2_000 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    done = true;
    const { acknowledged, failed } = await small;
    expect(failed).toEqual([]);
    await agreeing(nodes);
    for (const node of nodes) {
      const held = await notes(node);
      expect(big.filter(({ text }) => held.get(text) !== 1)).toEqual([]);
      expect(acknowledged.filter((text) => held.get(text) !== 1)).toEqual([]);
    }
  });

  it('the proposing node SIGKILLed with groups in flight: the survivors agree with the stream, every acknowledged write there once; restarted, it agrees', { timeout: 120_000 }, async () => {
    const [a, b, c] = nodes as [ServerProcess, ServerProcess, ServerProcess];
    let killed = false;
    const writes = load(a, 'killed', 16, () => killed);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    a.child.kill('SIGKILL');
    killed = true;
    await a.exited;
    const { acknowledged } = await writes;
    expect(acknowledged.length).toBeGreaterThan(10);
    const { digest } = await agreeing([b, c]);
    for (const node of [b, c]) {
      const held = await notes(node);
      expect([...held.values()].filter((count) => count > 1)).toEqual([]);
      expect(acknowledged.filter((text) => !held.has(text))).toEqual([]);
    }
    // Writes go on through a survivor; the killed node restarted on its data directory agrees with them.
    expect((await post(b.url, 'mutation { addNote(input: [{ text: "after" }]) { numUids } }')).data).toEqual({ addNote: { numUids: 1 } });
    const again = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', a.dataDir, ...args()], timeoutMs: 60_000 });
    nodes = [again, b, c];
    const final = await agreeing(nodes);
    expect(final.digest).not.toBe(digest);
    const held = await notes(again);
    expect(acknowledged.filter((text) => !held.has(text))).toEqual([]);
    expect(held.get('after')).toBe(1);
  });
});
