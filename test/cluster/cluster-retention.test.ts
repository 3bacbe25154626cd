// Stream retention bounded by snapshots (server/cluster/retention.ts): each node keeps { position, url }
// under its id in the KV bucket `<stream>-nodes` (registered at join, moved up by each snapshot) and the
// stream is purged below the lowest live position. Nodes restarted after a purge (SIGKILL or SIGTERM)
// come back and agree; a new node seeded after it joins; a stopped node holds the purge back until its
// entry's max age passes, then the stream is purged past it and, restarted, it sets its files aside and
// seeds itself from a peer whose snapshot holds what was purged (found in the bucket).

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLog } from '../integration/helpers/log-records.js';
import { makeTempDir, startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { post, schema, state } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

const stream = 'kept';
const maxAgeMs = 6_000;
const add = (url: string, title: string): Promise<any> => post(url, `mutation { addTask(input: [{ title: "${title}" }]) { numUids } }`);

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!natsAvailable)('three nats-servers, three service nodes: the stream purged below the lowest snapshot', () => {
  let nats: NatsCluster;
  let nc: NatsConnection;
  const dirs = { a: makeTempDir('kept-a-'), b: makeTempDir('kept-b-'), c: makeTempDir('kept-c-'), d: makeTempDir('kept-d-') };
  const nodes: Partial<Record<keyof typeof dirs, ServerProcess>> = {};
  // One thread per node: these tests are about the nodes' shared log.
  const args = (name: keyof typeof dirs, ...extra: string[]): string[] => [
    ...['--port', '0', '--host', '127.0.0.1', '--data-dir', dirs[name], '--cluster', nats.urls.join(','), '--cluster-stream', stream],
    ...['--snapshot-interval', '0', '--threads', '1', '--cluster-node-max-age', `${maxAgeMs}ms`, ...extra],
  ];
  async function start(name: keyof typeof dirs, ...extra: string[]): Promise<ServerProcess> {
    const started = await startServer({ rawArgs: args(name, ...extra), timeoutMs: 60_000 });
    nodes[name] = started;
    return started;
  }
  const url = (name: keyof typeof dirs): string => (nodes[name] as ServerProcess).url;
  const id = (name: keyof typeof dirs): string => readFileSync(join(dirs[name], 'cluster-node-id'), 'utf8').trim();
  const streamState = async (): Promise<{ first: number; last: number }> => {
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    return { first: info.state.first_seq, last: info.state.last_seq };
  };
  async function entries(): Promise<Record<string, unknown>> {
    const kv = await new Kvm(jetstream(nc)).open(`${stream}-nodes`);
    const found: Record<string, unknown> = {};
    for await (const key of await kv.keys()) {
      const entry = await kv.get(key);
      if (entry?.operation === 'PUT') found[key] = entry.json();
    }
    return found;
  }
  /** The node's state once it applied the whole stream (a write through another node is applied here later). */
  async function synced(name: keyof typeof dirs): Promise<{ digest: string; lsn: number }> {
    await post(url(name), '{ queryTask(first: 1) { title } }', { 'x-service-consistency': 'linearizable' });
    return state(url(name));
  }
  /** A snapshot now on the node, once it applied the whole stream; the stream sequence it holds. */
  async function snapshot(name: keyof typeof dirs): Promise<number> {
    await synced(name);
    expect((await send(`${url(name)}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    return Number((await send(`${url(name)}/admin/snapshot`)).headers['x-snapshot-stream-sequence']);
  }
  /** Stops the node (SIGTERM, or SIGKILL), its data directory kept. */
  async function stop(name: keyof typeof dirs, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const node = nodes[name] as ServerProcess;
    delete nodes[name];
    node.child.kill(signal);
    await node.exited;
  }

  beforeAll(async () => {
    nats = await startNatsCluster();
    nc = await connect({ servers: [...nats.urls] });
    await start('a');
    expect(await uploadSchema(url('a'), schema)).toEqual(uploadSucceeded);
    await Promise.all([start('b'), start('c')]);
  });
  afterAll(async () => {
    await Promise.all(Object.values(nodes).map((node) => node.stop()));
    await nc?.close();
    await nats?.stop();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  it('each node registers at join; the stream keeps everything until every node snapshotted, then starts at the lowest position + 1', { timeout: 120_000 }, async () => {
    // Registered at join with the position a restart would read after: none yet (0), so nothing may go.
    const registered = { [id('a')]: { position: 0, url: url('a') }, [id('b')]: { position: 0, url: url('b') }, [id('c')]: { position: 0, url: url('c') } };
    // The URL is put once the node listens.
    expect(await until('three entries', entries, (found) => Object.values(found).filter((entry) => (entry as { url?: string }).url !== undefined).length >= 3)).toEqual(registered);
    for (let i = 0; i < 6; i++) await add(url(i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : 'c'), `task ${i}`);
    const atA = await snapshot('a');
    await add(url('b'), 'after a');
    const atB = await snapshot('b');
    expect(atB).toBe(atA + 1);
    await until('a and b in the bucket', entries, (found) => (found[id('b')] as { position: number }).position === atB);
    // Two refreshes later c's 0 still holds everything.
    await new Promise((resolve) => setTimeout(resolve, maxAgeMs / 2));
    expect(await streamState()).toEqual({ first: 1, last: atB });
    await add(url('c'), 'after b');
    const atC = await snapshot('c');
    expect(await until('the purge', streamState, (s) => s.first > 1)).toEqual({ first: atA + 1, last: atC });
    expect(await entries()).toEqual({ [id('a')]: { position: atA, url: url('a') }, [id('b')]: { position: atB, url: url('b') }, [id('c')]: { position: atC, url: url('c') } });
  });

  it('every node restarted after the purge (SIGKILL, then SIGTERM) reads the stream after its snapshot and agrees', { timeout: 180_000 }, async () => {
    const from = (await streamState()).first;
    for (let i = 0; i < 3; i++) await add(url('a'), `more ${i}`);
    await snapshot('a');
    const atB = Number((await send(`${url('b')}/admin/snapshot`)).headers['x-snapshot-stream-sequence']);
    const { last } = await streamState();
    await stop('b', 'SIGKILL');
    await start('b');
    // Read from the one after its snapshot: the messages its log holds compared, none left to apply.
    expect(findLog((nodes.b as ServerProcess).output(), 'joined the cluster')).toMatchObject({ snapshotSequence: atB, checked: last - atB, from: last + 1, sequence: last });
    for (const name of ['a', 'c'] as const) {
      await stop(name);
      await start(name);
    }
    const [a, b, c] = await Promise.all([synced('a'), synced('b'), synced('c')]);
    expect([b, c]).toEqual([a, a]);
    expect(a.lsn).toBe(12);
    expect((await streamState()).first).toBeGreaterThanOrEqual(from);
  });

  it('a new node seeded from a peer after the purge joins and agrees', { timeout: 120_000 }, async () => {
    const at = await snapshot('a');
    await add(url('b'), 'before d');
    expect((await streamState()).first).toBeGreaterThan(1);
    const d = await start('d', '--cluster-seed', url('a'));
    expect(findLog(d.output(), 'joined the cluster')).toMatchObject({ snapshotSequence: at, from: at + 1, sequence: at + 1 });
    expect(await synced('d')).toEqual(await synced('a'));
    expect(((await entries())[id('d')] as { position: number }).position).toBe(at);
    await stop('d');
  });

  it('a stopped node holds the purge back until its entry\'s max age passes; then the stream is purged past it and, restarted, it sets its files aside and seeds itself from a peer in the bucket', { timeout: 180_000 }, async () => {
    const atC = Number((await send(`${url('c')}/admin/snapshot`)).headers['x-snapshot-stream-sequence']);
    await stop('c', 'SIGKILL');
    for (let i = 0; i < 3; i++) await add(url(i % 2 === 0 ? 'a' : 'b'), `without c ${i}`);
    const [atA, atB] = [await snapshot('a'), await snapshot('b')];
    expect(atA).toBeGreaterThan(atC);
    // c's entry (its snapshot's position) is the lowest while it lives: the stream starts right after it.
    await until('the purge up to c', streamState, (s) => s.first === atC + 1);
    // Held there for as long as c's entry lives (its max age after c's last put).
    const heldFrom = Date.now();
    let seenHeld = 0;
    for (;;) {
      const [found, s] = [await entries(), await streamState()];
      if (!(id('c') in found)) break;
      expect(s.first).toBe(atC + 1);
      seenHeld++;
      expect(Date.now() - heldFrom).toBeLessThan(maxAgeMs * 3);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // c's last put was at most a quarter of the max age before its kill: its entry outlived the writes and snapshots above.
    expect(seenHeld).toBeGreaterThan(0);
    expect(await until('the purge past c', streamState, (s) => s.first > atC + 1)).toEqual({ first: Math.min(atA, atB) + 1, last: atB });
    const before = readdirSync(dirs.c).filter((name) => /^(snap-|wal-)/.test(name)).sort();
    const c = await start('c');
    const aside = findLog(c.output(), 'the cluster stream no longer holds what this node needs: its files are set aside, seeding from a peer');
    expect(aside).toMatchObject({ files: before.length, peers: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+,http:\/\/127\.0\.0\.1:\d+$/) });
    expect(String(aside?.['peers']).split(',').sort()).toEqual([url('a'), url('b')].sort());
    expect(readdirSync(String(aside?.['aside'])).sort()).toEqual(before);
    expect(dirname(String(aside?.['aside']))).toBe(dirs.c);
    // The peer's snapshot holds what was purged: the stream is read after it.
    expect(findLog(c.output(), 'seeded from a peer')).toMatchObject({ streamSequence: Math.max(atA, atB) });
    expect(findLog(c.output(), 'joined the cluster')).toMatchObject({ snapshotSequence: Math.max(atA, atB), from: Math.max(atA, atB) + 1 });
    expect(await synced('c')).toEqual(await synced('a'));
    expect((await add(url('c'), 'from c again')).data).toEqual({ addTask: { numUids: 1 } });
  });

  it('a running node whose next message was purged (stopped past its entry\'s max age, then resumed) stops with exit code 1 and, restarted, seeds itself and agrees', { timeout: 180_000 }, async () => {
    // c wrote the stream's newest message (the case before): writes through a and b would be forwarded to it,
    // stopped below. Restarted, it has a new node id: a finds no responder for the old one and proposes from then on.
    await stop('c');
    await start('c');
    expect((await add(url('a'), 'a proposes')).data).toEqual({ addTask: { numUids: 1 } });
    await synced('c');
    const c = nodes.c as ServerProcess;
    c.child.kill('SIGSTOP');
    try {
      // Past its consumer's pull (2 s): the writes below are not on their way to it when it stops.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      for (let i = 0; i < 3; i++) expect((await add(url(i % 2 === 0 ? 'a' : 'b'), `while c sleeps ${i}`)).data).toEqual({ addTask: { numUids: 1 } });
      const [atA, atB] = [await snapshot('a'), await snapshot('b')];
      // c's entry expires (it cannot refresh it) and the stream is purged past everything c applied.
      await until('c gone from the bucket', entries, (found) => !(id('c') in found), maxAgeMs * 3);
      await until('the purge past c', streamState, (s) => s.first === Math.min(atA, atB) + 1);
    } finally {
      c.child.kill('SIGCONT');
    }
    // It served stale reads for good before: now it stops (drained, exit 1) saying why and what to do.
    const exit = await Promise.race([c.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 30_000))]);
    expect(exit, c.output()).toEqual({ code: 1, signal: null });
    delete nodes.c;
    const lost = findLog(c.output(), 'this node no longer follows the cluster: stopping');
    expect(lost).toMatchObject({ level: 'error', stream, error: expect.stringMatching(/no longer holds sequence \d+/) });
    const restarted = await start('c');
    expect(findLog(restarted.output(), 'seeded from a peer')).toBeDefined();
    expect(await synced('c')).toEqual(await synced('a'));
    expect((await add(url('c'), 'from c once more')).data).toEqual({ addTask: { numUids: 1 } });
  });
});
