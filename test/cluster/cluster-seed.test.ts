// `--cluster-seed`: a new node with an empty data directory starts from a peer's newest snapshot
// (GET /admin/snapshot) and reads the stream only from that snapshot's stream sequence on, so it joins
// after the stream was purged up to that snapshot (without a seed it seeds itself from the peer whose
// entry in the retention bucket holds what was purged). A seed that
// cannot be reached, refuses, or sends a damaged file stops the start (exit code 1) saying so.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLog } from '../integration/helpers/log-records.js';
import { makeTempDir, runToExit, startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { JetStreamLog } from '../../server/cluster/jetstream-log.js';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { post, schema, state } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

const stream = 'seeds';
const add = (url: string, title: string): Promise<any> => post(url, `mutation { addTask(input: [{ title: "${title}" }]) { numUids } }`);

/** An HTTP server answering every request with `status`, `headers` and `body`. */
async function fakePeer(status: number, headers: Record<string, string>, body: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(status, headers).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!natsAvailable)('three nats-servers, two service nodes: a third seeded from a peer', () => {
  let nats: NatsCluster;
  const dirs = { c: makeTempDir('seed-c-'), d: makeTempDir('seed-d-'), bad: makeTempDir('seed-bad-') };
  const running = new Set<ServerProcess>();
  // One thread per node: these tests are about the nodes' shared log.
  const flags = (): string[] => ['--cluster', nats.urls.join(','), '--cluster-stream', stream, '--snapshot-interval', '0', '--threads', '1'];
  const inDir = (dir: string, ...extra: string[]): string[] => ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, ...flags(), ...extra];
  async function node(rawArgs?: string[]): Promise<ServerProcess> {
    const started = await startServer({ ...(rawArgs === undefined ? { args: flags() } : { rawArgs }), timeoutMs: 60_000 });
    running.add(started);
    return started;
  }
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    nats = await startNatsCluster();
    a = await node();
    expect(await uploadSchema(a.url, schema)).toEqual(uploadSucceeded);
    b = await node();
  });
  afterAll(async () => {
    await Promise.all([...running].map((server) => server.stop()));
    await nats?.stop();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  it('a node started empty with --cluster-seed takes the peer\'s snapshot, reads the stream after it, agrees and serves', { timeout: 180_000 }, async () => {
    for (let i = 0; i < 4; i++) await add(i % 2 === 0 ? a.url : b.url, `before ${i}`);
    const probe = await JetStreamLog.open({ servers: nats.urls, stream });
    const position = await probe.lastSequence();
    await probe.close();
    const snapshot = await send(`${a.url}/admin/snapshot`, { method: 'POST' });
    expect(snapshot.status).toBe(200);
    const downloaded = await send(`${a.url}/admin/snapshot`);
    expect(downloaded.headers['x-snapshot-stream-sequence']).toBe(String(position));
    for (let i = 0; i < 3; i++) await add(b.url, `after ${i}`);
    const c = await node(inDir(dirs.c, '--cluster-seed', a.url));
    expect(findLog(c.output(), 'seeded from a peer')).toMatchObject({ seed: `${a.url}/admin/snapshot`, streamSequence: position });
    // Only the three messages after the snapshot are read.
    const joined = findLog(c.output(), 'joined the cluster');
    expect([joined?.['snapshotSequence'], joined?.['from'], joined?.['sequence']]).toEqual([position, position + 1, position + 3]);
    const [stateA, stateC] = await Promise.all([state(a.url), state(c.url)]);
    expect(stateC).toEqual(stateA);
    expect((await add(c.url, 'from c')).data).toEqual({ addTask: { numUids: 1 } });
    const read = await post(a.url, '{ getTask(title: "from c") { title } }', { 'x-service-read-after': String((await state(c.url)).lsn) });
    expect(read.data).toEqual({ getTask: { title: 'from c' } });
    // A restart with the same flags is a restart: the data directory is its own now.
    const stopped = await c.stop();
    running.delete(c);
    expect(stopped).toEqual({ code: 0, signal: null });
    const again = await node(inDir(dirs.c, '--cluster-seed', a.url));
    expect(findLog(again.output(), 'seeded from a peer')).toBeUndefined();
    expect(await state(again.url)).toEqual(await state(a.url));
  });

  it('with the stream purged up to a peer\'s snapshot, a new node without a seed seeds itself from the peer the retention bucket names; with --cluster-seed it joins and agrees', { timeout: 180_000 }, async () => {
    await add(a.url, 'before the purge');
    expect((await send(`${a.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    const position = Number((await send(`${a.url}/admin/snapshot`)).headers['x-snapshot-stream-sequence']);
    const nc = await connect({ servers: [...nats.urls] });
    try {
      // Messages <= the snapshot's sequence go; the one after it is the stream's first.
      await (await jetstreamManager(nc)).streams.purge(stream, { seq: position + 1 });
    } finally {
      await nc.close();
    }
    await add(b.url, 'after the purge');
    // Only A's snapshot holds what was purged (B has none; C's is older): A is the one peer.
    const unseeded = await node();
    expect(findLog(unseeded.output(), 'the cluster stream no longer holds what this node needs: its files are set aside, seeding from a peer')).toEqual(expect.objectContaining({ files: 0, peers: a.url }));
    expect(findLog(unseeded.output(), /its files are set aside/)?.['aside']).toBeUndefined();
    expect(findLog(unseeded.output(), 'seeded from a peer')).toMatchObject({ seed: `${a.url}/admin/snapshot`, streamSequence: position });
    expect(findLog(unseeded.output(), 'joined the cluster')?.['from']).toBe(position + 1);
    expect(await state(unseeded.url)).toEqual(await state(a.url));
    const seeded = await node(inDir(dirs.d, '--cluster-seed', a.url));
    expect(findLog(seeded.output(), 'joined the cluster')?.['from']).toBe(position + 1);
    expect(await state(seeded.url)).toEqual(await state(a.url));
  });

  it('an unreachable seed, one that refuses, and a damaged download each stop the start with exit code 1, leaving nothing behind', { timeout: 120_000 }, async () => {
    const closed = await fakePeer(200, {}, Buffer.alloc(0));
    const closedUrl = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const unreachable = await runToExit({ rawArgs: inDir(dirs.bad, '--cluster-seed', closedUrl) }, 60_000);
    expect(unreachable.code).toBe(1);
    expect(findLog(unreachable.output, /^could not reach the seed/)?.msg).toMatch(new RegExp(`^could not reach the seed ${closedUrl}/admin/snapshot: fetch failed \\(.*ECONNREFUSED`));

    const real = await send(`${a.url}/admin/snapshot`);
    const [file, lsn] = [real.body, String(real.headers['x-snapshot-lsn'])];
    const refusing = await fakePeer(401, { 'content-type': 'application/json' }, Buffer.from('{"errors":[{"message":"Invalid X-Auth-Token"}]}'));
    const refused = await runToExit({ rawArgs: inDir(dirs.bad, '--cluster-seed', refusing.url) }, 60_000);
    refusing.server.close();
    expect(refused.code).toBe(1);
    expect(findLog(refused.output, /^the seed/)?.msg).toBe(`the seed ${refusing.url}/admin/snapshot answered 401: {"errors":[{"message":"Invalid X-Auth-Token"}]}`);

    const damaged = Buffer.from(file);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 10) ^ 0xff, damaged.length - 10);
    const damaging = await fakePeer(200, { 'x-snapshot-lsn': lsn }, damaged);
    const refusedDamage = await runToExit({ rawArgs: inDir(dirs.bad, '--cluster-seed', damaging.url) }, 60_000);
    damaging.server.close();
    expect(refusedDamage.code).toBe(1);
    expect(findLog(refusedDamage.output, /^the snapshot from the seed/)?.msg).toMatch(new RegExp(`^the snapshot from the seed ${damaging.url}/admin/snapshot is refused: .*body checksum mismatch`));
    // Nothing written: a later start with a good seed is still a first start.
    expect(readdirSync(dirs.bad).filter((name) => name.startsWith('snap-') || name.endsWith('.tmp'))).toEqual([]);
  });

  // Last: it purges the stream past every snapshot.
  it('a node whose only candidate peer in the retention bucket refuses to seed it exits 1 naming the refusal and the purge', { timeout: 120_000 }, async () => {
    const refusing = await fakePeer(403, { 'content-type': 'application/json' }, Buffer.from('{"errors":[{"message":"no"}]}'));
    const nc = await connect({ servers: [...nats.urls] });
    let last: number;
    try {
      const jsm = await jetstreamManager(nc);
      last = (await jsm.streams.info(stream)).state.last_seq;
      await jsm.streams.purge(stream, { seq: last + 1 });
      // A node whose snapshot would hold everything, at an address that refuses.
      const kv = await new Kvm(jetstream(nc)).open(`${stream}-nodes`);
      await kv.put('refusing-peer', JSON.stringify({ position: last, url: refusing.url }));
    } finally {
      await nc.close();
    }
    const refused = await runToExit({ args: flags() }, 60_000);
    refusing.server.close();
    expect(refused.code).toBe(1);
    expect(findLog(refused.output, /^no peer could seed this node/)?.msg).toBe(
      `no peer could seed this node: the seed ${refusing.url}/admin/snapshot answered 403: {"errors":[{"message":"no"}]}`,
    );
    expect(findLog(refused.output, /^could not check the local log/)?.msg).toBe(
      `could not check the local log against the shared log: cluster log: stream ${stream} no longer holds sequence 1 (it starts at ${last + 1}): this node cannot catch up from the stream; start it on an empty data directory with --cluster-seed http://peer:port (a peer's snapshot)`,
    );
  });
});
