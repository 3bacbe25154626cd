// `--cluster` write forwarding (server/cluster/write-forwarding.ts): three service nodes on three real
// nats-servers. A mutation taken by a node goes to the node that proposed the stream's last message (the
// stream's msg ids name it), and is answered once the taking node applied it. Checked: the stream names
// one proposer under load from all three; every acknowledged write reads back on every node, digests
// agree; errors are the local ones byte for byte; concurrent upserts make one node; a draining target
// sends writes back; a SIGSTOPped target's forward fails as outcome unknown, never run by its sender; the
// target SIGKILLed under load: the others write on (no responders → local), in-flight writes fail as
// "outcome unknown", nothing acknowledged is lost and nothing is applied twice.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { postGraphql, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLog } from '../integration/helpers/log-records.js';
import { startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { comparable, post, state } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

const stream = 'forwarding';
// Note has no @id: a write run twice would make two nodes.
const schema = 'type Task {\n  title: String! @id\n  done: Boolean\n}\ntype Note {\n  id: ID!\n  text: String! @search(by: [hash])\n}\n';
const unknownOutcome = /^the mutation was forwarded to cluster node [0-9a-f-]{36} \(the last to write to stream forwarding\), which did not answer \(.+\); it may have been applied there: the outcome is unknown, read it back before writing it again$/;

const nodeId = (node: ServerProcess): string => String(findLog(node.output(), /^joined the cluster$/)?.['node']);

/** The proposer (node id) of each stream message from `from` on. */
async function proposers(urls: readonly string[], from: number): Promise<string[]> {
  const nc = await connect({ servers: [...urls] });
  try {
    const jsm = await jetstreamManager(nc);
    const last = (await jsm.streams.info(stream)).state.last_seq;
    const ids: string[] = [];
    for (let seq = from; seq <= last; seq++) {
      const msgId = (await jsm.streams.getMessage(stream, { seq }))?.header.get('Nats-Msg-Id') ?? '';
      ids.push(msgId.slice(0, msgId.lastIndexOf('-')));
    }
    return ids;
  } finally {
    await nc.close();
  }
}

const lastSequence = async (urls: readonly string[]): Promise<number> => {
  const nc = await connect({ servers: [...urls] });
  try {
    return (await (await jetstreamManager(nc)).streams.info(stream)).state.last_seq;
  } finally {
    await nc.close();
  }
};

describe.skipIf(!natsAvailable)('three service nodes forwarding writes to the last proposer', () => {
  let nats: NatsCluster;
  let nodes: ServerProcess[] = [];
  beforeAll(async () => {
    nats = await startNatsCluster();
    // One thread per node: these tests are about the nodes (cluster-threads.test.ts has the threads).
    const args = ['--cluster', nats.urls.join(','), '--cluster-stream', stream, '--snapshot-interval', '0', '--threads', '1'];
    nodes = await Promise.all([0, 1, 2].map(() => startServer({ args, timeoutMs: 60_000 })));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await nats?.stop();
  });

  it('a write taken by B after A proposed is proposed by A and visible on B at once', { timeout: 60_000 }, async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    expect(await uploadSchema(a.url, schema)).toEqual(uploadSucceeded);
    const before = await lastSequence(nats.urls);
    expect((await post(a.url, 'mutation { addTask(input: [{ title: "on A" }]) { numUids } }')).data).toEqual({ addTask: { numUids: 1 } });
    const onB = await post(b.url, 'mutation { addTask(input: [{ title: "taken by B" }]) { numUids } }');
    expect(onB.data).toEqual({ addTask: { numUids: 1 } });
    // No X-Service-Read-After: the answer came once B applied it.
    expect((await post(b.url, '{ getTask(title: "taken by B") { title } }')).data).toEqual({ getTask: { title: 'taken by B' } });
    expect(await proposers(nats.urls, before + 1)).toEqual([nodeId(a), nodeId(a)]);
    expect((await state(b.url)).lsn).toBe(onB.extensions.lsn);
  });

  it('the same GraphQL errors forwarded and local, byte for byte (a duplicate @id, a bad variable)', { timeout: 60_000 }, async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const duplicate = { query: 'mutation { addTask(input: [{ title: "on A" }]) { numUids } }' };
    const badVariable = { query: 'mutation ($t: String!) { addTask(input: [{ title: $t }]) { numUids } }', variables: { t: 7 } };
    const before = await lastSequence(nats.urls);
    for (const payload of [duplicate, badVariable]) {
      const [local, forwarded] = [await postGraphql(a.url, payload), await postGraphql(b.url, payload)];
      expect(forwarded.status).toBe(local.status);
      expect(comparable(forwarded.text)).toBe(comparable(local.text));
    }
    expect(JSON.parse((await postGraphql(b.url, duplicate)).text).errors[0].message).toBe(
      "couldn't rewrite mutation addTask because failed to rewrite mutation payload because id on A already exists for field title inside type Task",
    );
    expect(await lastSequence(nats.urls)).toBe(before);
  });

  it('clients on all three nodes at once for 4 s: no write fails, one node proposes, every write reads back on every node, digests agree', { timeout: 90_000 }, async () => {
    const before = await lastSequence(nats.urls);
    const written: { title: string; lsn: number }[] = [];
    const failures: unknown[] = [];
    const until = Date.now() + 4_000;
    await Promise.all(
      nodes.flatMap((node, n) =>
        [0, 1, 2, 3].map(async (client) => {
          for (let i = 0; Date.now() < until; i++) {
            const title = `load ${n}.${client}.${i}`;
            const answer = await post(node.url, `mutation { addTask(input: [{ title: "${title}" }]) { numUids } }`);
            if (answer.errors !== undefined) failures.push(answer.errors);
            else written.push({ title, lsn: answer.extensions.lsn });
            // Read-your-writes on the node that took it, under load.
            const read = await post(node.url, `{ getTask(title: "${title}") { title } }`);
            if (answer.errors === undefined && read.data.getTask?.title !== title) failures.push(`${title} not read back on the node that took it`);
          }
        }),
      ),
    );
    expect(failures).toEqual([]);
    expect(written.length).toBeGreaterThan(30);
    const lsn = Math.max(...written.map((w) => w.lsn));
    const expected = written.map((w) => w.title).sort();
    for (const node of nodes) {
      const titles = (await post(node.url, '{ queryTask(first: 100000) { title } }', { 'x-service-read-after': String(lsn) })).data.queryTask.map((t: { title: string }) => t.title);
      expect(titles.filter((title: string) => title.startsWith('load ')).sort()).toEqual(expected);
    }
    const states = await Promise.all(nodes.map((node) => state(node.url)));
    expect(new Set(states.map((s) => JSON.stringify(s))).size).toBe(1);
    // Every node forwarded to the one that proposed before: it proposed them all.
    const ids = await proposers(nats.urls, before + 1);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([nodeId(nodes[0] as ServerProcess)]));
  });

  it('an answer larger than a cluster message comes back whole through a forward', { timeout: 90_000 }, async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    // 160 notes of 10 kB: the update's answer (~1.6 MB) is over the servers' max_payload (1 MiB); each add is not.
    for (let batch = 0; batch < 4; batch++) {
      const input = Array.from({ length: 40 }, (_, i) => `{ text: "${`big${batch}.${i}-`.padEnd(10_000, 'x')}" }`).join(', ');
      expect((await post(a.url, `mutation { addNote(input: [${input}]) { numUids } }`)).data).toEqual({ addNote: { numUids: 40 } });
    }
    const before = await lastSequence(nats.urls);
    // Deleted through B (forwarded to A): the answer lists the deleted notes, their texts included.
    const deleted = await postGraphql(b.url, { query: 'mutation { deleteNote(filter: { has: text }) { numUids note(order: { asc: text }) { text } } }' });
    expect(deleted.status).toBe(200);
    expect(deleted.text.length).toBeGreaterThan(1_600_000);
    const answer = JSON.parse(deleted.text);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.deleteNote.numUids).toBe(160);
    expect(answer.data.deleteNote.note.map((n: { text: string }) => n.text.slice(0, 8))).toEqual(
      Array.from({ length: 160 }, (_, i) => `big${Math.floor(i / 40)}.${i % 40}-`.padEnd(10_000, 'x'))
        .sort()
        .map((text) => text.slice(0, 8)),
    );
    expect(await proposers(nats.urls, before + 1)).toEqual([nodeId(a)]);
  });

  it('concurrent upserts of one @id from the three nodes make exactly one node', { timeout: 60_000 }, async () => {
    const results = await Promise.all(
      nodes.map((node, i) => post(node.url, `mutation { addTask(input: [{ title: "upserted", done: ${i === 1} }], upsert: true) { task { title } } }`)),
    );
    expect(results.map((r) => r.errors)).toEqual([undefined, undefined, undefined]);
    const lsn = Math.max(...results.map((r) => r.extensions.lsn as number));
    for (const node of nodes) {
      const found = await post(node.url, '{ queryTask(filter: { title: { eq: "upserted" } }) { title } }', { 'x-service-read-after': String(lsn) });
      expect(found.data).toEqual({ queryTask: [{ title: 'upserted' }] });
    }
    const states = await Promise.all(nodes.map((node) => state(node.url)));
    expect(new Set(states.map((s) => JSON.stringify(s))).size).toBe(1);
  });

  it('a draining target sends writes back: B runs its own (and proposes from then on) while A refuses its own', { timeout: 60_000 }, async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const drain = async (enable: boolean): Promise<void> =>
      expect((await post(a.url, `mutation { draining(enable: ${enable}) { response { code } } }`, {}, '/admin')).data).toEqual({ draining: { response: { code: 'Success' } } });
    expect((await post(a.url, 'mutation { addTask(input: [{ title: "A before draining" }]) { numUids } }')).data).toEqual({ addTask: { numUids: 1 } });
    const before = await lastSequence(nats.urls);
    await drain(true);
    try {
      expect((await post(b.url, 'mutation { addTask(input: [{ title: "while A drains" }]) { numUids } }')).data).toEqual({ addTask: { numUids: 1 } });
      expect(await proposers(nats.urls, before + 1)).toEqual([nodeId(b)]);
      expect((await post(a.url, 'mutation { addTask(input: [{ title: "on draining A" }]) { numUids } }')).errors[0].message).toMatch(/the server is in draining mode/);
    } finally {
      await drain(false);
    }
  });

  it('a forward the target does not answer in time (SIGSTOPped) fails as outcome unknown and is not run again: applied once at most, never by the sender', { timeout: 120_000 }, async () => {
    const [proposer] = await proposers(nats.urls, await lastSequence(nats.urls));
    const target = nodes.find((node) => nodeId(node) === proposer) as ServerProcess;
    const sender = nodes.find((node) => node !== target) as ServerProcess;
    const before = await lastSequence(nats.urls);
    // Stopped, its connection stays open: probes time out (no "no responders"), the forward runs out of time.
    target.child.kill('SIGSTOP');
    let answer: any;
    const started = Date.now();
    try {
      answer = await post(sender.url, 'mutation { addNote(input: [{ text: "while stopped" }]) { numUids } }');
    } finally {
      target.child.kill('SIGCONT');
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(29_000);
    expect(answer.data).toEqual({ addNote: null });
    expect(answer.errors.map((e: { message: string }) => e.message)).toHaveLength(1);
    expect(answer.errors[0].message).toMatch(unknownOutcome);
    expect(answer.errors[0].message).toContain('which did not answer (nothing within 30000 ms)');
    // Resumed, the target runs what it had been sent, unless its server dropped its connection meanwhile
    // (a client stopped that long may be cut off as a slow consumer): once or not at all, and never by the sender.
    const query = '{ queryNote(filter: { text: { eq: "while stopped" } }) { text } }';
    // A process resumed after 30 s may take seconds to catch up (more on a loaded host): waited for long enough,
    // then each node reads after the stream's last sequence, so a proposal that landed meanwhile is on all or none.
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      if ((await post(target.url, query)).data.queryNote.length > 0) break;
    }
    // On a loaded host (CI) the resumed target may still propose it after that wait: it lands between two nodes'
    // reads once in a while, so the nodes are read again until the stream's last sequence stayed put across a round.
    const readAll = (): Promise<number[]> => Promise.all(nodes.map(async (node) => (await post(node.url, query, { 'x-service-consistency': 'linearizable' })).data.queryNote.length));
    let counts = await readAll();
    for (const deadline = Date.now() + 30_000; new Set(counts).size > 1 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const last = await lastSequence(nats.urls);
      counts = await readAll();
      if ((await lastSequence(nats.urls)) !== last) counts = [-1, -2];
    }
    expect(new Set(counts).size).toBe(1);
    expect(counts[0]).toBeLessThanOrEqual(1);
    expect(await proposers(nats.urls, before + 1)).not.toContain(nodeId(sender));
  });

  it('the target SIGKILLed under load: B and C write on within bounded time; nothing acknowledged lost, nothing applied twice', { timeout: 120_000 }, async () => {
    // The target: the node that proposed the stream's last message (where the others forward).
    const [proposer] = await proposers(nats.urls, await lastSequence(nats.urls));
    const a = nodes.find((node) => nodeId(node) === proposer) as ServerProcess;
    const [b, c] = nodes.filter((node) => node !== a) as [ServerProcess, ServerProcess];
    const acknowledged: string[] = [];
    const unknown: string[] = [];
    const other: unknown[] = [];
    const afterKill: number[] = [];
    let killedAt = 0;
    let until = Date.now() + 60_000;
    const load = [b, c].flatMap((node, n) =>
      [0, 1, 2, 3].map(async (client) => {
        for (let i = 0; Date.now() < until; i++) {
          const text = `note ${n}.${client}.${i}`;
          const answer = await post(node.url, `mutation { addNote(input: [{ text: "${text}" }]) { numUids } }`);
          const message: string | undefined = answer.errors?.[0]?.message;
          if (message === undefined) {
            acknowledged.push(text);
            if (killedAt > 0) afterKill.push(Date.now() - killedAt);
          } else if (unknownOutcome.test(message)) unknown.push(text);
          else other.push(answer);
        }
      }),
    );
    const startSeq = await lastSequence(nats.urls);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const killSeq = await lastSequence(nats.urls);
    a.child.kill('SIGKILL');
    killedAt = Date.now();
    await a.exited;
    until = Date.now() + 4_000;
    await Promise.all(load);
    nodes = [b, c];
    expect(other).toEqual([]);
    // Before the kill B and C forwarded every write to A.
    expect(killSeq).toBeGreaterThan(startSeq);
    expect(new Set((await proposers(nats.urls, startSeq + 1)).slice(0, killSeq - startSeq))).toEqual(new Set([proposer]));
    // Writes went on after the kill, the first within a few seconds (the in-flight ones learn of it within ~1 s).
    expect(afterKill.length).toBeGreaterThan(10);
    expect(Math.min(...afterKill)).toBeLessThan(3_000);
    const lsn = Math.max(...(await Promise.all([b, c].map(async (node) => (await state(node.url)).lsn))));
    for (const node of [b, c]) {
      const notes = (await post(node.url, '{ queryNote(first: 100000) { text } }', { 'x-service-read-after': String(lsn) })).data.queryNote
        .map((n: { text: string }) => n.text)
        .filter((text: string) => text.startsWith('note '));
      const counts = new Map<string, number>();
      for (const text of notes) counts.set(text, (counts.get(text) ?? 0) + 1);
      for (const text of acknowledged) expect(counts.get(text), text).toBe(1);
      for (const text of unknown) expect(counts.get(text) ?? 0, text).toBeLessThanOrEqual(1);
      expect(notes.length).toBeLessThanOrEqual(acknowledged.length + unknown.length);
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
    }
    const [stateB, stateC] = await Promise.all([state(b.url), state(c.url)]);
    expect(stateB).toEqual(stateC);
  });
});
