// `--cluster` under a network partition: the NATS server that leads the stream is cut off from the other
// two (its route connections dropped by the proxies of nats-cluster.ts) while a service node, C, stays
// connected to it alone. C's writes fail clearly in bounded time and nothing of them is acknowledged, its
// local reads go on, a linearizable read fails (the cut-off leader still answers stream info, stale, until
// it steps down 10-20 s later), while node A keeps writing through the other two; healed, C catches up
// and agrees with A. Its server may hand C its own refused write after the heal (nats-server 2.9.10, in
// some runs): C's apply loop takes the leader's copy instead (server/cluster/README.md, "Partitions").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { JetStreamLog } from '../../server/cluster/jetstream-log.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';

if (!natsAvailable) console.warn(natsSkipMessage);

const schema = 'type Task {\n  title: String! @id\n}\n';

async function post(url: string, query: string, headers: Record<string, string> = {}, path = '/graphql'): Promise<any> {
  const answer = await postGraphql(url, { query }, headers, path);
  expect(answer.status).toBe(200);
  return answer.json();
}
const add = (url: string, title: string): Promise<any> => post(url, `mutation { addTask(input: [{ title: "${title}" }]) { numUids } }`);
const state = async (url: string): Promise<{ digest: string; lsn: number }> => (await post(url, '{ state { digest lsn } }', {}, '/admin')).data.state;
const titles = async (url: string, headers: Record<string, string> = {}): Promise<string[]> =>
  (await post(url, '{ queryTask(order: { asc: title }) { title } }', headers)).data.queryTask.map((t: { title: string }) => t.title);

/** `add` again until it is taken (a leader election in between), for at most `withinMs`. */
async function addUntilTaken(url: string, title: string, withinMs: number): Promise<any> {
  let answer: any;
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
    answer = await add(url, title);
    if (answer.data.addTask !== null) break;
  }
  expect(answer.data).toEqual({ addTask: { numUids: 1 } });
  return answer;
}

describe.skipIf(!natsAvailable)('a service node whose NATS server is partitioned off', () => {
  let nats: NatsCluster;
  let a: ServerProcess;
  let c: ServerProcess;
  let isolated = -1;
  beforeAll(async () => {
    nats = await startNatsCluster();
    // The stream's leader is the one cut off: the hard case, where it still answers for seconds.
    const probe = await JetStreamLog.open({ servers: nats.urls, stream: 'part' });
    isolated = nats.indexOf((await probe.streamLeader()) ?? 'none');
    await probe.close();
    // One thread per node: these tests are about the nodes' shared log (threads.test.ts has the threads).
    const args = (urls: readonly string[]): string[] => ['--cluster', urls.join(','), '--cluster-stream', 'part', '--snapshot-interval', '0', '--threads', '1'];
    [a, c] = await Promise.all([
      startServer({ args: args(nats.urls.filter((_, i) => i !== isolated)), timeoutMs: 60_000 }),
      startServer({ args: args([nats.urls[isolated] as string]), timeoutMs: 60_000 }),
    ]);
    expect(await uploadSchema(a.url, schema)).toEqual(uploadSucceeded);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), c?.stop()]);
    await nats?.stop();
  });

  it('cut off, C stops acknowledging writes and refuses linearizable reads while A writes on; healed, C catches up and agrees', { timeout: 180_000 }, async () => {
    const before = await add(a.url, 'before');
    expect(await titles(c.url, { 'x-service-read-after': String(before.extensions.lsn) })).toEqual(['before']);

    nats.partition(isolated);
    try {
      let started = Date.now();
      const refused = await add(c.url, 'from c, cut off');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(refused.data).toEqual({ addTask: null });
      expect(refused.errors[0].message).toMatch(/^the mutation could not be made durable \(cluster log unavailable: could not append to stream part within 8000 ms \(last error: .+\) while writing the mutation log\)/);

      // The other two elect a leader among them (4-9 s) and take A's writes.
      await addUntilTaken(a.url, 'during 0', 30_000);
      for (let i = 1; i < 3; i++) expect((await add(a.url, `during ${i}`)).data).toEqual({ addTask: { numUids: 1 } });

      started = Date.now();
      expect(await titles(c.url)).toEqual(['before']);
      expect(Date.now() - started).toBeLessThan(1_000);
      started = Date.now();
      const linear = await post(c.url, '{ queryTask { title } }', { 'x-service-consistency': 'linearizable' });
      expect(Date.now() - started).toBeLessThan(7_000);
      expect(linear.data).toBeUndefined();
      expect(linear.errors[0].message).toMatch(/^X-Service-Consistency: linearizable: cluster log unavailable: could not read the last sequence of stream part within 5000 ms \(last error: .+\)$/);
    } finally {
      nats.heal(isolated);
    }

    expect(await titles(a.url)).toEqual(['before', 'during 0', 'during 1', 'during 2']);
    // Healed: C catches up (A's writes, not its own refused one) and takes writes again.
    const after = await addUntilTaken(c.url, 'from c, healed', 60_000);
    const lsn = after.extensions.lsn as number;
    const expected = ['before', 'during 0', 'during 1', 'during 2', 'from c, healed'];
    expect(await titles(a.url, { 'x-service-read-after': String(lsn) })).toEqual(expected);
    expect(await titles(c.url)).toEqual(expected);
    const [stateA, stateC] = await Promise.all([state(a.url), state(c.url)]);
    expect(stateC).toEqual(stateA);
    expect(stateA.lsn).toBe(lsn);
  });
});
