// `--cluster` with three service nodes on three real nats-servers: a node's place in the stream across
// restarts and crashes. A node that died between its local append and its proposal (the test-only entry's
// SERVICE_TEST_CRASH_BEFORE_PROPOSE) holds a record nobody acknowledged: on restart it cuts it off and
// takes the stream's record at that LSN instead. A snapshot records the stream sequence it holds: a
// restarted node reads the stream from there. A node killed while clients write to it catches up.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLog, findLogs } from '../integration/helpers/log-records.js';
import { faultsEntry, makeTempDir, runToExit, startServer, type ServerProcess, type StartOptions } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { JetStreamLog } from '../../server/cluster/jetstream-log.js';
import { post, schema, state } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

const stream = 'restarts';
const add = (url: string, title: string): Promise<any> => post(url, `mutation { addTask(input: [{ title: "${title}" }]) { numUids } }`);
/** Every title on the node once it applied `lsn`, sorted. */
async function titles(url: string, lsn: number): Promise<string[]> {
  const read = await post(url, '{ queryTask(order: { asc: title }) { title } }', { 'x-service-read-after': String(lsn) });
  return read.data.queryTask.map((task: { title: string }) => task.title);
}

describe.skipIf(!natsAvailable)('three service nodes: restarts, crashes, the stream position', () => {
  let nats: NatsCluster;
  const dirs = { b: makeTempDir('cluster-b-'), c: makeTempDir('cluster-c-') };
  const running = new Set<ServerProcess>();
  // One thread per node: these tests are about the nodes' shared log (threads.test.ts has the threads).
  const flags = (): string[] => ['--cluster', nats.urls.join(','), '--cluster-stream', stream, '--snapshot-interval', '0', '--threads', '1'];
  async function node(dataDir?: string, extra: Partial<StartOptions> = {}): Promise<ServerProcess> {
    const args = dataDir === undefined ? { args: flags() } : { rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...flags()] };
    const started = await startServer({ ...args, timeoutMs: 60_000, ...extra });
    running.add(started);
    return started;
  }
  async function kill(server: ServerProcess): Promise<void> {
    server.child.kill('SIGKILL');
    await server.exited;
    running.delete(server);
  }
  /**
   * Starts a node that dies (SIGKILL) at its first proposal, and makes it propose a schema with type
   * `name` (a schema upload runs on the node that takes it; a mutation would go to the last proposer).
   */
  async function crashBeforeProposing(dataDir: string, name: string): Promise<void> {
    const doomed = await node(dataDir, { entry: faultsEntry, env: { SERVICE_TEST_CRASH_BEFORE_PROPOSE: '1' } });
    await expect(uploadSchema(doomed.url, `${schema}type ${name} {\n  note: String\n}\n`)).rejects.toThrow();
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    running.delete(doomed);
  }
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;
  beforeAll(async () => {
    nats = await startNatsCluster();
    a = await node();
    expect(await uploadSchema(a.url, schema)).toEqual(uploadSucceeded);
  });
  afterAll(async () => {
    await Promise.all([...running].map((server) => server.stop()));
    await nats?.stop();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  it('a node that crashed between its local append and the proposal drops that record on restart and takes the stream\'s', { timeout: 180_000 }, async () => {
    const first = await add(a.url, 'acked 1');
    expect(first.data).toEqual({ addTask: { numUids: 1 } });
    const at = first.extensions.lsn as number;
    // B's record at LSN at+1 reaches its own log only; A's "acked 2" then takes that LSN in the stream.
    await crashBeforeProposing(dirs.b, 'NeverAcknowledged');
    const second = await add(a.url, 'acked 2');
    expect(second.extensions.lsn).toBe(at + 1);
    b = await node(dirs.b);
    expect(await titles(b.url, at + 1)).toEqual(['acked 1', 'acked 2']);
    expect(await state(b.url)).toEqual(await state(a.url));
    expect(findLogs(b.output(), /never took/).map(({ level, lsns }) => [level, lsns])).toEqual([['warn', `${at + 1}`]]);

    // Crashed again with nothing written after: the stream ends before the record; B's next write takes its LSN.
    await kill(b);
    await crashBeforeProposing(dirs.b, 'NeverAcknowledgedEither');
    b = await node(dirs.b);
    expect(findLogs(b.output(), /never took/).map(({ level, lsns }) => [level, lsns])).toEqual([['warn', `${at + 2}`]]);
    const fromB = await add(b.url, 'acked 3');
    expect(fromB.extensions.lsn).toBe(at + 2);
    const fromA = await add(a.url, 'acked 4');
    expect(fromA.extensions.lsn).toBe(at + 3);
    c = await node(dirs.c);
    for (const server of [a, b, c]) expect(await titles(server.url, at + 3)).toEqual(['acked 1', 'acked 2', 'acked 3', 'acked 4']);
    const states = await Promise.all([a, b, c].map((server) => state(server.url)));
    expect(states[1]).toEqual(states[0]);
    expect(states[2]).toEqual(states[0]);
  });

  it('a snapshot records the stream sequence it holds: a restarted node reads the stream from the one after it', { timeout: 120_000 }, async () => {
    let lsn = 0;
    for (let i = 0; i < 3; i++) lsn = (await add(a.url, `before snapshot ${i}`)).extensions.lsn;
    await titles(c.url, lsn);
    const probe = await JetStreamLog.open({ servers: nats.urls, stream });
    const position = await probe.lastSequence();
    await probe.close();
    expect((await send(`${c.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    for (let i = 0; i < 2; i++) await add(a.url, `after snapshot ${i}`);
    await titles(c.url, lsn + 2); // C holds both before it dies, so its check reads both and agrees on both
    await kill(c);
    c = await node(dirs.c);
    // The two messages after the snapshot are read to check the local log; nothing before them is read.
    expect(findLog(c.output(), 'restored')?.['snapshotLsn']).toBe(lsn);
    const joined = findLog(c.output(), 'joined the cluster');
    expect([joined?.['snapshotSequence'], joined?.['checked'], joined?.['from'], joined?.['sequence']]).toEqual([position, 2, position + 3, position + 2]);
    const [stateA, stateC] = await Promise.all([state(a.url), state(c.url)]);
    expect(stateC).toEqual(stateA);
    expect(stateA.lsn).toBe(lsn + 2);
  });

  it('a node SIGKILLed while clients write to every node restarts, catches up and agrees; every acknowledged write is on every node', { timeout: 180_000 }, async () => {
    const acknowledged: { title: string; lsn: number }[] = [];
    let writing = true;
    const writer = async (server: ServerProcess, name: string): Promise<void> => {
      for (let i = 0; writing; i++) {
        const title = `${name} ${i}`;
        let answer: any;
        try {
          answer = await add(server.url, title);
        } catch {
          return; // the node died: this write's outcome is unknown
        }
        expect(answer.data).toEqual({ addTask: { numUids: 1 } });
        acknowledged.push({ title, lsn: answer.extensions.lsn });
      }
    };
    const writers = [writer(a, 'to a'), writer(b, 'to b'), writer(c, 'to c')];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const beforeKill = acknowledged.filter(({ title }) => title.startsWith('to b')).length;
    await kill(b);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    writing = false;
    await Promise.all(writers);
    expect(beforeKill).toBeGreaterThan(0);
    b = await node(dirs.b);
    const last = (await state(a.url)).lsn;
    expect(Math.max(...acknowledged.map(({ lsn }) => lsn))).toBeLessThanOrEqual(last);
    const [onA, onB, onC] = await Promise.all([a, b, c].map((server) => titles(server.url, last)));
    expect(onB).toEqual(onA);
    expect(onC).toEqual(onA);
    expect(onA).toEqual(expect.arrayContaining(acknowledged.map(({ title }) => title)));
    // Only B's last write may be there unacknowledged (its outcome was unknown when B died).
    expect((onA ?? []).filter((title) => title.startsWith('to ')).length - acknowledged.length).toBeLessThanOrEqual(1);
    const states = await Promise.all([a, b, c].map((server) => state(server.url)));
    expect(states[1]).toEqual(states[0]);
    expect(states[2]).toEqual(states[0]);
  });

  // Last: it purges the stream (by hand, past every node's snapshot: no peer can seed it). A node that needs a purged message must say so, not loop.
  it('a new node that needs messages purged from the stream, with no peer whose snapshot holds them, exits 1 saying which sequence is gone', { timeout: 120_000 }, async () => {
    const nc = await connect({ servers: [...nats.urls] });
    let last: number;
    try {
      const jsm = await jetstreamManager(nc);
      last = (await jsm.streams.info(stream)).state.last_seq;
      await jsm.streams.purge(stream, { seq: last + 1 });
    } finally {
      await nc.close();
    }
    const refused = await runToExit({ args: flags() }, 60_000);
    expect(refused.code).toBe(1);
    expect(findLog(refused.output, /^could not check the local log/)?.msg).toBe(
      `could not check the local log against the shared log: cluster log: stream ${stream} no longer holds sequence 1 (it starts at ${last + 1}): this node cannot catch up from the stream; start it on an empty data directory with --cluster-seed http://peer:port (a peer's snapshot)`,
    );
    // The nodes that hold everything go on.
    expect((await add(a.url, 'after the purge')).data).toEqual({ addTask: { numUids: 1 } });
  });

  it('a node whose snapshot is past the stream\'s last sequence (the stream was deleted and made again) exits 1 saying so', { timeout: 120_000 }, async () => {
    // A clean stop writes a snapshot holding the stream's last sequence.
    const stopped = await c.stop();
    running.delete(c);
    expect(stopped).toEqual({ code: 0, signal: null });
    const nc = await connect({ servers: [...nats.urls] });
    let position: number;
    try {
      const jsm = await jetstreamManager(nc);
      position = (await jsm.streams.info(stream)).state.last_seq;
      await jsm.streams.delete(stream);
    } finally {
      await nc.close();
    }
    const refused = await runToExit({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dirs.c, ...flags()] }, 60_000);
    expect(refused.code).toBe(1);
    expect(findLog(refused.output, /^could not check the local log/)?.msg).toBe(
      `could not check the local log against the shared log: this node's snapshot holds stream ${stream} up to sequence ${position}, but the stream ends at sequence 0: it is not the stream this data directory followed`,
    );
  });
});
