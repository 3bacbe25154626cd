// server/cluster/jetstream-log.ts against three real nats-server processes on loopback: order across
// clients, conflicting proposals, retried proposals, and what happens when servers are killed (SIGKILL).

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClusterLogError, JetStreamLog, type Follower, type JetStreamLogOptions } from '../../server/cluster/jetstream-log.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { connect, headers } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';

if (!natsAvailable) console.warn(natsSkipMessage);

const text = (data: Uint8Array): string => Buffer.from(data).toString('utf8');
const bytes = (value: string): Uint8Array => Buffer.from(value, 'utf8');

/** A follower from sequence 0 that records what it applied. */
function record(log: JetStreamLog, after = 0): { follower: Follower; seen: Array<[number, string]> } {
  const seen: Array<[number, string]> = [];
  const follower = log.follow(after, (seq, data) => {
    seen.push([seq, text(data)]);
  });
  return { follower, seen };
}

let streams = 0;
const opened: JetStreamLog[] = [];
async function open(cluster: NatsCluster, stream: string, extra: Partial<JetStreamLogOptions> = {}): Promise<JetStreamLog> {
  const log = await JetStreamLog.open({ servers: cluster.urls, stream, ...extra });
  opened.push(log);
  return log;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((log) => log.close()));
});

describe.skipIf(!natsAvailable)('JetStream log on a healthy three-server cluster', () => {
  let cluster: NatsCluster;
  let stream: string;
  beforeAll(async () => {
    cluster = await startNatsCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  const next = (): string => (stream = `healthy${++streams}`);

  it('two clients propose in turn; both apply the same messages in the same order', async () => {
    next();
    const [a, b] = await Promise.all([open(cluster, stream), open(cluster, stream)]);
    const fromA = record(a);
    const fromB = record(b);
    const written: Array<[number, string]> = [];
    let last = 0;
    for (let i = 1; i <= 20; i++) {
      const log = i % 2 === 0 ? b : a;
      const result = await log.propose(bytes(`m${i}`), last, `msg-${i}`);
      expect(result).toEqual({ seq: i });
      last = i;
      written.push([i, `m${i}`]);
    }
    await Promise.all([fromA.follower.waitFor(20, 10_000), fromB.follower.waitFor(20, 10_000)]);
    expect(fromA.seen).toEqual(written);
    expect(fromB.seen).toEqual(written);
    expect(await a.lastSequence()).toBe(20);
  });

  it('two proposals against the same last sequence: exactly one wins, the other learns the new last sequence', async () => {
    next();
    const [a, b] = await Promise.all([open(cluster, stream), open(cluster, stream)]);
    expect(await a.propose(bytes('first'), 0, 'first')).toEqual({ seq: 1 });
    for (let round = 0; round < 10; round++) {
      const expected = 1 + round;
      const results = await Promise.all([a.propose(bytes(`a${round}`), expected, `a${round}`), b.propose(bytes(`b${round}`), expected, `b${round}`)]);
      const wins = results.filter((r) => 'seq' in r);
      expect(wins).toEqual([{ seq: expected + 1 }]);
      expect(results.filter((r) => 'conflict' in r)).toEqual([{ conflict: expected + 1 }]);
    }
    expect(await b.lastSequence()).toBe(11);
    const { follower, seen } = record(a);
    await follower.waitFor(11, 10_000);
    expect(seen.map(([seq]) => seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('a retried proposal that already landed answers with its sequence and appends nothing', async () => {
    next();
    const [a, b] = await Promise.all([open(cluster, stream), open(cluster, stream)]);
    expect(await a.propose(bytes('x'), 0, 'same-id')).toEqual({ seq: 1 });
    expect(await a.propose(bytes('x'), 0, 'same-id')).toEqual({ seq: 1 });
    // Even once another node appended after it, the retry is recognised by its id (a lost ack's case).
    expect(await b.propose(bytes('y'), 1, 'other-id')).toEqual({ seq: 2 });
    expect(await a.propose(bytes('x'), 0, 'same-id')).toEqual({ seq: 1 });
    expect(await a.lastSequence()).toBe(2);
  });

  it('a follower from a later sequence applies only what follows it; a failing apply stops the loop with its error', async () => {
    next();
    const a = await open(cluster, stream);
    for (let i = 1; i <= 5; i++) await a.propose(bytes(`m${i}`), i - 1, `m${i}`);
    const { follower, seen } = record(a, 3);
    await follower.waitFor(5, 10_000);
    expect(seen).toEqual([
      [4, 'm4'],
      [5, 'm5'],
    ]);
    await follower.stop();
    const failing = a.follow(0, (seq) => {
      if (seq === 2) throw new Error('record 2 does not apply');
    });
    await failing.done;
    expect(failing.applied).toBe(1);
    expect((failing.failure as Error).message).toBe('record 2 does not apply');
    const asked = Date.now();
    await expect(failing.waitFor(3, 5_000)).rejects.toThrow(
      new ClusterLogError(`cluster log: sequence 3 of stream ${stream} not applied (applied 1; the apply loop stopped (record 2 does not apply))`),
    );
    expect(Date.now() - asked).toBeLessThan(1_000);
  });

  it('refuses a stream name NATS cannot take, with a clear error', async () => {
    await expect(JetStreamLog.open({ servers: cluster.urls, stream: 'a.b' })).rejects.toThrow(
      new ClusterLogError(`cluster stream name "a.b" may hold only letters, digits, '-' and '_'`),
    );
  });

  it('a proposal over max_payload goes as parts and is applied whole, once, at its last part\'s sequence', async () => {
    next();
    const [a, b] = await Promise.all([open(cluster, stream), open(cluster, stream)]);
    const big = Buffer.alloc(2.5 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    const whole: Array<[number, Buffer]> = [];
    const follower = b.follow(0, (seq, data) => void whole.push([seq, Buffer.from(data)]));
    // 1 MiB max_payload less 1 KiB of header room: three parts.
    expect(await a.propose(big, 0, 'big')).toEqual({ seq: 3 });
    expect(await a.propose(big, 0, 'big')).toEqual({ seq: 3 });
    expect(await b.propose(bytes('after'), 3, 'after')).toEqual({ seq: 4 });
    await follower.waitFor(4, 10_000);
    expect(whole.map(([seq, data]) => [seq, data.length])).toEqual([
      [3, big.length],
      [4, 5],
    ]);
    expect(whole[0]?.[1].equals(big)).toBe(true);
  });

  it('parts cut off by another message are discarded by every follower; a proposer that loses mid-way gets the conflict', async () => {
    next();
    const [a, b] = await Promise.all([open(cluster, stream, { partBytes: 10 }), open(cluster, stream, { partBytes: 10 })]);
    const fromA = record(a);
    const fromB = record(b);
    const nc = await connect({ servers: [...cluster.urls] });
    try {
      const js = jetstream(nc);
      // Each part costs a round trip: two hundred of them leave time to slip a message in between.
      const long = bytes('x'.repeat(2_000));
      const proposed = a.propose(long, 0, 'long');
      while (fromB.follower.applied < 2) await new Promise((resolve) => setTimeout(resolve, 2));
      const between = await js.publish(`${stream}.log`, bytes('between'));
      const result = await proposed;
      expect(result).toEqual({ conflict: between.seq });
      // Parts of one proposal interleaved with another's, and a part out of turn: nothing of them applies.
      const part = async (data: string, msgId: string, index: number, count: number): Promise<number> => {
        const h = headers();
        h.set('Graphdb-Part', `${index}/${count}`);
        h.set('Graphdb-Proposal', msgId);
        return (await js.publish(`${stream}.log`, bytes(data), { headers: h })).seq;
      };
      await part('p1', 'p', 1, 2);
      await part('q2', 'q', 2, 2);
      await part('p2', 'p', 2, 2);
      const whole = await a.propose(bytes('0123456789abcdefghij!'), between.seq + 3, 'whole');
      expect(whole).toEqual({ seq: between.seq + 6 });
      const seen = [
        [between.seq, 'between'],
        [between.seq + 6, '0123456789abcdefghij!'],
      ];
      await Promise.all([fromA.follower.waitFor(between.seq + 6, 10_000), fromB.follower.waitFor(between.seq + 6, 10_000)]);
      expect(fromA.seen).toEqual(seen);
      expect(fromB.seen).toEqual(seen);
    } finally {
      await nc.close();
    }
  });

  it('a proposal left part-way holds new proposals back until its proposer must have given up, then is cut off', async () => {
    next();
    const a = await open(cluster, stream, { proposeTimeoutMs: 1_000 });
    const { follower, seen } = record(a);
    const nc = await connect({ servers: [...cluster.urls] });
    try {
      const h = headers();
      h.set('Graphdb-Part', '1/2');
      h.set('Graphdb-Proposal', 'dead');
      await jetstream(nc).publish(`${stream}.log`, bytes('half'), { headers: h });
    } finally {
      await nc.close();
    }
    await follower.waitFor(1, 10_000);
    expect(follower.proposeAfter).toBe(0);
    const started = Date.now();
    await follower.waitFor(1, 5_000, true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(follower.proposeAfter).toBe(1);
    expect(await a.propose(bytes('next'), follower.proposeAfter, 'next')).toEqual({ seq: 2 });
    await follower.waitFor(2, 10_000);
    expect(seen).toEqual([[2, 'next']]);
  });

  it('a follower whose next sequence was purged stops naming it, also when the stream was purged empty (nothing to skip to)', async () => {
    next();
    const a = await open(cluster, stream);
    for (let i = 1; i <= 4; i++) await a.propose(bytes(`m${i}`), i - 1, `m${i}`);
    const nc = await connect({ servers: [...cluster.urls] });
    try {
      // Everything goes: the stream is empty, its first sequence 5, its last 4.
      await (await jetstream(nc).jetstreamManager()).streams.purge(stream, { seq: 5 });
    } finally {
      await nc.close();
    }
    const { follower, seen } = record(a, 2);
    const started = Date.now();
    await follower.done;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen).toEqual([]);
    expect((follower.failure as Error).message).toBe(
      `cluster log: stream ${stream} no longer holds sequence 3 (it starts at 5): this node cannot catch up from the stream; start it on an empty data directory with --cluster-seed http://peer:port (a peer's snapshot)`,
    );
    // From the last sequence on, nothing is missing: the loop follows.
    const { follower: caughtUp, seen: after } = record(a, 4);
    expect(await a.propose(bytes('m5'), 4, 'm5')).toEqual({ seq: 5 });
    await caughtUp.waitFor(5, 10_000);
    expect(after).toEqual([[5, 'm5']]);
  });

  // The fact pipelined proposals rely on (server/cluster/README.md "Write forwarding"): a proposal chained
  // to the previous one's msg id lands right after it or not at all, also when both are in flight at once.
  it('Nats-Expected-Last-Msg-Id: chained publishes in flight on one connection land in order; a chain broken by another message, or by its head refused, is refused', async () => {
    next();
    const log = await open(cluster, stream); // makes the stream
    const nc = await connect({ servers: [...cluster.urls] });
    const other = await connect({ servers: [...cluster.urls] });
    try {
      const js = jetstream(nc);
      const subject = `${stream}.log`;
      const chained = (data: string, msgID: string, after: { lastSequence: number } | { lastMsgID: string }): Promise<number> =>
        js.publish(subject, bytes(data), { msgID, expect: after }).then((ack) => ack.seq);
      const refusal = (sent: Promise<number>): Promise<string> =>
        sent.then(
          (seq) => `landed at ${seq}`,
          (error: unknown) => String((error as Error).message),
        );
      // Three in flight at once, each chained to the one before.
      expect(await Promise.all([chained('n1', 'n1', { lastSequence: 0 }), chained('n2', 'n2', { lastMsgID: 'n1' }), chained('n3', 'n3', { lastMsgID: 'n2' })])).toEqual([1, 2, 3]);
      // Another node's message lands after n3: one chained to n3 is refused, naming the last id.
      expect((await jetstream(other).publish(subject, bytes('theirs'), { msgID: 'theirs' })).seq).toBe(4);
      expect(await refusal(chained('n4', 'n4', { lastMsgID: 'n3' }))).toMatch(/wrong last msg ID: theirs/);
      // The head refused (a stale sequence) with the next in flight chained to it: both refused, nothing lands.
      const [head, tail] = await Promise.all([refusal(chained('n5', 'n5', { lastSequence: 3 })), refusal(chained('n6', 'n6', { lastMsgID: 'n5' }))]);
      expect(head).toMatch(/wrong last sequence: 4/);
      expect(tail).toMatch(/wrong last msg ID: theirs/);
      expect(await log.lastSequence()).toBe(4);
    } finally {
      await Promise.all([nc.close(), other.close()]);
    }
  });

  it('waitFor a sequence nobody writes fails after its timeout, naming it', async () => {
    next();
    const a = await open(cluster, stream);
    const { follower } = record(a);
    const started = Date.now();
    await expect(follower.waitFor(7, 500)).rejects.toThrow(
      new ClusterLogError(`cluster log: sequence 7 of stream ${stream} not applied (applied 0; waited 500 ms)`),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe.skipIf(!natsAvailable)('JetStream log when servers die', () => {
  let cluster: NatsCluster | undefined;
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((log) => log.close()));
    await cluster?.stop();
    cluster = undefined;
  });

  /** Proposes `count` messages in order from `last`, each retried on a clear failure until `withinMs`. */
  async function proposeMany(log: JetStreamLog, from: number, count: number, withinMs: number): Promise<number> {
    const deadline = Date.now() + withinMs;
    let last = from;
    while (last < from + count) {
      try {
        const result = await log.propose(bytes(`m${last + 1}`), last, `m${last + 1}`);
        expect(result).toEqual({ seq: last + 1 });
        last++;
      } catch (error) {
        expect(error).toBeInstanceOf(ClusterLogError);
        if (Date.now() > deadline) throw error;
      }
    }
    return last;
  }
  const expected = (n: number): Array<[number, string]> => Array.from({ length: n }, (_, i) => [i + 1, `m${i + 1}`]);

  it('with the stream leader killed, proposals go on after the failover and every message is applied', { timeout: 90_000 }, async () => {
    cluster = await startNatsCluster();
    const log = await open(cluster, 'killone');
    const { follower, seen } = record(log);
    await proposeMany(log, 0, 10, 10_000);
    const leader = await streamLeader(log);
    await cluster.kill(cluster.indexOf(leader));
    const killedAt = Date.now();
    await proposeMany(log, 10, 1, 30_000);
    const failoverMs = Date.now() - killedAt;
    console.log(`proposals resumed ${failoverMs} ms after the stream leader (${leader}) was killed`);
    expect(failoverMs).toBeLessThan(20_000);
    await proposeMany(log, 11, 19, 10_000);
    await follower.waitFor(30, 20_000);
    expect(seen).toEqual(expected(30));
  });

  it('with two servers killed, proposals and last-sequence reads fail clearly in bounded time; nothing acknowledged is lost', { timeout: 120_000 }, async () => {
    cluster = await startNatsCluster();
    const log = await open(cluster, 'killtwo', { proposeTimeoutMs: 5_000, readTimeoutMs: 3_000 });
    await proposeMany(log, 0, 10, 10_000);
    // The stream leader among them: a leader left alone still answers stream info (exactly: nothing can
    // commit without its quorum) until it steps down, so the survivor here is a follower, without a leader.
    const leader = cluster.indexOf(await streamLeader(log));
    const killed = [leader, (leader + 1) % 3] as const;
    await Promise.all(killed.map((index) => cluster!.kill(index)));
    let started = Date.now();
    const refused = await log.propose(bytes('m11'), 10, 'm11').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(refused).toBeInstanceOf(ClusterLogError);
    expect((refused as Error).message).toMatch(/^cluster log unavailable: could not append to stream killtwo within 5000 ms \(last error: .+\)$/);
    started = Date.now();
    // A server that heard from the old leader last may still answer stream info: then with the last
    // sequence that can exist (nothing commits without a quorum), else with the clear error.
    await log.lastSequence().then(
      (sequence) => expect(sequence).toBe(10),
      (error: unknown) => expect((error as Error).message).toMatch(/^cluster log unavailable: could not read the last sequence of stream killtwo within 3000 ms/),
    );
    expect(Date.now() - started).toBeLessThan(5_000);

    await Promise.all(killed.map((index) => cluster!.restart(index)));
    // The refused proposal may or may not have landed (its ack was what failed): a retry with its id tells.
    const last = await proposeMany(log, 10, 1, 30_000);
    expect(last).toBe(11);
    const reader = await open(cluster, 'killtwo');
    const { follower, seen } = record(reader);
    await follower.waitFor(11, 20_000);
    expect(seen).toEqual(expected(11));
    expect(await reader.lastSequence()).toBe(11);
  });

  it('the apply loop resumes after the server it reads from dies', { timeout: 90_000 }, async () => {
    cluster = await startNatsCluster();
    const writer = await open(cluster, 'resume');
    const reader = await open(cluster, 'resume');
    const { follower, seen } = record(reader);
    await proposeMany(writer, 0, 5, 10_000);
    await follower.waitFor(5, 10_000);
    const readFrom = cluster.urls.findIndex((url) => url.endsWith(`:${reader.server.split(':').pop()}`));
    expect(readFrom).toBeGreaterThanOrEqual(0);
    await cluster.kill(readFrom);
    await proposeMany(writer, 5, 10, 30_000);
    await follower.waitFor(15, 30_000);
    expect(seen).toEqual(expected(15));
    expect(reader.server).not.toBe(cluster.urls[readFrom]?.slice('nats://'.length));
  });
});

async function streamLeader(log: JetStreamLog): Promise<string> {
  const leader = await log.streamLeader();
  if (leader === undefined) throw new Error('the stream has no leader');
  return leader;
}
