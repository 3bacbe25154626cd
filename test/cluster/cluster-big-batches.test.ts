// `--cluster` with writes larger than a NATS message (max_payload, 1 MiB): a 3 MiB mutation on one node
// is read back whole on another, and two nodes writing big batches at once both land, once each.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';

if (!natsAvailable) console.warn(natsSkipMessage);

const schema = 'type Note {\n  key: String! @id\n  batch: String @search(by: [hash])\n  text: String\n}\n';

async function post(url: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, path = '/graphql'): Promise<any> {
  const answer = await postGraphql(url, { query, variables }, headers, path);
  expect(answer.status).toBe(200);
  return answer.json();
}
const state = async (url: string): Promise<{ digest: string; lsn: number }> => (await post(url, '{ state { digest lsn } }', {}, {}, '/admin')).data.state;

/** `count` notes of about 1 KiB each in batch `prefix`, keys `<prefix>-<i>`. */
const notes = (prefix: string, count: number): Array<{ key: string; batch: string; text: string }> =>
  Array.from({ length: count }, (_, i) => ({ key: `${prefix}-${i}`, batch: prefix, text: `${prefix} ${i} `.padEnd(1024, String.fromCharCode(97 + (i % 26))) }));
const add = 'mutation($notes: [AddNoteInput!]!) { addNote(input: $notes) { numUids } }';

describe.skipIf(!natsAvailable)('big batches on two service nodes', () => {
  let nats: NatsCluster;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    nats = await startNatsCluster();
    // One thread per node: these tests are about the nodes' shared log (threads.test.ts has the threads).
    const args = ['--cluster', nats.urls.join(','), '--cluster-stream', 'big', '--snapshot-interval', '0', '--threads', '1'];
    [a, b] = await Promise.all([startServer({ args, timeoutMs: 60_000 }), startServer({ args, timeoutMs: 60_000 })]);
    expect(await uploadSchema(a.url, schema)).toEqual(uploadSucceeded);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await nats?.stop();
  });

  it('a 3 MiB mutation on node A is read back whole on node B; digests agree', { timeout: 60_000 }, async () => {
    const written = notes('a', 3_000);
    const added = await post(a.url, add, { notes: written });
    expect(added.data).toEqual({ addNote: { numUids: 3_000 } });
    const read = await post(b.url, '{ queryNote(filter: { batch: { eq: "a" } }) { key batch text } }', {}, { 'x-service-read-after': String(added.extensions.lsn) });
    expect(read.errors).toBeUndefined();
    const byKey = (x: { key: string }, y: { key: string }): number => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
    expect([...read.data.queryNote].sort(byKey)).toEqual([...written].sort(byKey));
    const [stateA, stateB] = await Promise.all([state(a.url), state(b.url)]);
    expect(stateB).toEqual(stateA);
    expect(stateA.lsn).toBe(added.extensions.lsn);
  });

  it('two nodes writing big batches at once: both are stored, once each; digests agree', { timeout: 90_000 }, async () => {
    const before = (await state(a.url)).lsn;
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([post(a.url, add, { notes: notes(`ra${round}`, 2_000) }), post(b.url, add, { notes: notes(`rb${round}`, 2_000) })]);
      expect(results.map((r) => r.data)).toEqual([{ addNote: { numUids: 2_000 } }, { addNote: { numUids: 2_000 } }]);
      expect(results.map((r) => r.extensions.lsn).sort()).toEqual([before + 2 * round + 1, before + 2 * round + 2]);
    }
    const lsn = before + 6;
    const counts = await Promise.all(
      [a, b].map((node) => post(node.url, '{ aggregateNote(filter: { batch: { in: ["ra0", "rb0", "ra1", "rb1", "ra2", "rb2"] } }) { count } }', {}, { 'x-service-read-after': String(lsn) })),
    );
    expect(counts.map((c) => c.data)).toEqual([{ aggregateNote: { count: 12_000 } }, { aggregateNote: { count: 12_000 } }]);
    const [stateA, stateB] = await Promise.all([state(a.url), state(b.url)]);
    expect(stateA).toEqual({ digest: stateB.digest, lsn });
    expect(stateB.lsn).toBe(lsn);
  });
});
