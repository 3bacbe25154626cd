// Issue #16's cluster mode on loopback: three nats-servers (the R3 stream) and three service nodes against
// one node alone with `--fsync always`, in one run. Mutations (the matrix's `add`, a unique node per
// request): one client at a time (p50/p99 of the write path itself), then 16 connections on one node, then
// 16 on each of the three nodes at once (their proposals race for the stream: the losers run again).
// Reads: the read shapes on a cluster node and on the single node, alternated. Nothing is pinned: the
// servers, the service nodes and wrk share the machine's cores, so the figures are for comparing the two
// set-ups side by side, not absolute.
// Run: npm run build && node dist/bench/cluster.js [--posts 2000] [--duration 5] [--shapes get-by-id,filtered-list,term-any] [--pipeline 4]
// Writes bench/results/cluster.json and cluster.md.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { natsAvailable, natsSkipMessage, startNatsCluster } from '../test/cluster/nats-cluster.js';
import { generateDataset } from './data/dataset.js';
import type { LoadResult } from './load/autocannon-run.js';
import { checkAnswer, requestBodies, resolveIds } from './load/check-answer.js';
import { dataOf, postJson } from './load/graphql-client.js';
import { loadService } from './load/load-service.js';
import { cpuMicros } from './load/proc-cpu.js';
import { spawnContender, type RunningContender } from './load/spawn-contender.js';
import { runWrk, wrkAvailable } from './load/wrk-run.js';
import { buildScenarios, type ContenderIds, type Scenario } from './scenarios.js';

const { values } = parseArgs({ options: { posts: { type: 'string' }, duration: { type: 'string' }, shapes: { type: 'string' }, pipeline: { type: 'string' } }, strict: true });
// `--pipeline N`: the cluster nodes' --cluster-pipeline (groups of writes in flight at once on the proposing node).
const pipeline = values.pipeline === undefined ? [] : ['--cluster-pipeline', values.pipeline];
const posts = Number(values.posts ?? 2_000);
const durationS = Number(values.duration ?? 5);
const readShapes = (values.shapes ?? 'get-by-id,filtered-list,term-any').split(',');
const projectRoot = resolve(import.meta.dirname, '../..');
const unpinned = { pinned: false, note: 'not pinned: nats-servers, service nodes and wrk share every core' };
const writeConnections = 16;
const readConnections = 50;

if (!(await wrkAvailable())) {
  console.error('wrk is not installed (apt-get install -y wrk)');
  process.exit(1);
}
if (!natsAvailable) {
  console.error(natsSkipMessage);
  process.exit(1);
}

interface Node {
  readonly name: string;
  readonly server: RunningContender;
  readonly url: string;
  readonly dataDir: string;
  ids?: ContenderIds;
}

const data = generateDataset({ posts, authors: Math.max(10, Math.round(posts / 100)) });
const scenarios = buildScenarios(data);
const scenario = (name: string): Scenario => {
  const found = scenarios.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no scenario ${name}`);
  return found;
};
const add = scenario('add');

async function startNode(name: string, args: readonly string[]): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-cluster-${name}-`));
  const server = await spawnContender(unpinned, join(projectRoot, 'dist/server/main.js'), ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--threads', '1', '--log-requests', 'none', ...args], 60_000);
  return { name, server, url: `${server.url}/graphql`, dataDir };
}

interface Figures {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU of the service processes per answered request (the nats-servers not counted). */
  readonly cpuUsPerReq: number;
  /** The same, each process alone (the cluster: node a, b, c). */
  readonly cpuUsPerNode: readonly number[];
  /** Answers counted (every wrk of the run). */
  readonly requests: number;
}

/** One wrk per node at once; requests/s summed, latencies the worst node's. */
async function timed(nodes: readonly Node[], connections: number, pick: Scenario, tag: string, all: readonly Node[]): Promise<Figures> {
  const before = all.map((n) => cpuMicros(n.server.pid) ?? 0);
  const results: LoadResult[] = await Promise.all(
    nodes.map((node) => {
      if (node.ids === undefined) throw new Error(`${node.name}: ids not resolved`);
      return runWrk({ url: node.url, connections, body: requestBodies(pick, node.ids, `${tag}-${node.name}`), durationS });
    }),
  );
  const used = all.map((n, i) => (cpuMicros(n.server.pid) ?? 0) - (before[i] ?? 0));
  for (const [i, r] of results.entries()) if (r.non2xx > 0 || r.errors > 0) throw new Error(`${tag} on ${nodes[i]?.name}: ${r.non2xx} bad statuses, ${r.errors} socket errors`);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    rps: Math.round(results.reduce((sum, r) => sum + r.rps, 0)),
    p50Ms: Number(Math.max(...results.map((r) => r.p50Ms)).toFixed(2)),
    p99Ms: Number(Math.max(...results.map((r) => r.p99Ms)).toFixed(2)),
    cpuUsPerReq: Number((used.reduce((sum, c) => sum + c, 0) / Math.max(1, requests)).toFixed(1)),
    cpuUsPerNode: used.map((c) => Number((c / Math.max(1, requests)).toFixed(1))),
    requests,
  };
}

/** Posts stored, read on `node` after it applied the whole stream (in cluster mode). */
async function storedPosts(node: Node): Promise<number> {
  const reply = await postJson(node.url, { query: '{ aggregatePost { count } }' }, node.name === 'single' ? {} : { 'x-service-consistency': 'linearizable' });
  return (dataOf(reply) as { aggregatePost: { count: number } }).aggregatePost.count;
}

async function state(node: Node): Promise<{ digest: string; lsn: number }> {
  const reply = await postJson(node.url.replace(/\/graphql$/, '/admin'), { query: '{ state { digest lsn } }' });
  return (JSON.parse(reply.text) as { data: { state: { digest: string; lsn: number } } }).data.state;
}

const nats = await startNatsCluster();
const started: Node[] = [];
const rows: { what: string; single: Figures; cluster: Figures }[] = [];
let agreement = '';
try {
  const single = await startNode('single', ['--fsync', 'always']);
  started.push(single);
  const cluster: Node[] = [];
  for (const name of ['a', 'b', 'c']) {
    const node = await startNode(name, ['--cluster', nats.urls.join(','), '--cluster-stream', 'bench', ...pipeline]);
    started.push(node);
    cluster.push(node);
  }
  const [a] = cluster;
  if (a === undefined) throw new Error('no cluster node');
  const loadStarted = performance.now();
  await loadService(single.server.url, data, 'http://127.0.0.1:9/');
  const singleLoadS = (performance.now() - loadStarted) / 1000;
  const clusterStarted = performance.now();
  await loadService(a.server.url, data, 'http://127.0.0.1:9/');
  const clusterLoadS = (performance.now() - clusterStarted) / 1000;
  console.log(JSON.stringify({ loaded: posts, singleLoadS, clusterLoadS }));
  for (const node of started) node.ids = await resolveIdsWhenLoaded(node);

  const measure = async (what: string, singleNodes: readonly Node[], clusterNodes: readonly Node[], connections: number, pick: Scenario): Promise<void> => {
    for (const target of [single, a]) {
      const wrong = await checkAnswer(target.url, pick, target.ids ?? fail(target), `check-${rows.length}-${target.name}`);
      if (wrong !== null) throw new Error(`${pick.name} on ${target.name}: ${wrong}`);
    }
    const before = pick.isMutation ? [await storedPosts(single), await storedPosts(a)] : [];
    const runs: { single: Figures[]; cluster: Figures[] } = { single: [], cluster: [] };
    for (let round = 0; round < 2; round++) {
      const order = round === 0 ? (['single', 'cluster'] as const) : (['cluster', 'single'] as const);
      for (const side of order) {
        runs[side].push(await timed(side === 'single' ? singleNodes : clusterNodes, connections, pick, `${what}-${round}-${side}`, side === 'single' ? [single] : cluster));
      }
    }
    const mean = (list: readonly Figures[]): Figures => ({
      rps: Math.round(list.reduce((s, f) => s + f.rps, 0) / list.length),
      p50Ms: Number((list.reduce((s, f) => s + f.p50Ms, 0) / list.length).toFixed(2)),
      p99Ms: Number((list.reduce((s, f) => s + f.p99Ms, 0) / list.length).toFixed(2)),
      cpuUsPerReq: Number((list.reduce((s, f) => s + f.cpuUsPerReq, 0) / list.length).toFixed(1)),
      cpuUsPerNode: (list[0]?.cpuUsPerNode ?? []).map((_, i) => Number((list.reduce((s, f) => s + (f.cpuUsPerNode[i] ?? 0), 0) / list.length).toFixed(1))),
      requests: list.reduce((s, f) => s + f.requests, 0),
    });
    const row = { what, single: mean(runs.single), cluster: mean(runs.cluster) };
    if (pick.isMutation) {
      // A write answered with an error still answers 200: every answered add must be stored (a few more may
      // be, those in flight when wrk stopped counting).
      for (const [i, side] of [single, a].entries()) {
        const answered = (i === 0 ? row.single : row.cluster).requests;
        const stored = (await storedPosts(side)) - (before[i] ?? 0);
        const inFlight = connections * (i === 0 ? singleNodes.length : clusterNodes.length) * 2;
        if (stored < answered || stored > answered + inFlight) throw new Error(`${what} on ${side.name}: ${answered} adds answered, ${stored} stored`);
      }
    }
    rows.push(row);
    console.log(JSON.stringify(row));
  };

  await measure('add, 1 connection', [single], [a], 1, add);
  await measure(`add, ${writeConnections} connections, one node`, [single], [a], writeConnections, add);
  await measure(`add, ${writeConnections} connections on each of 3 nodes`, [single], cluster, writeConnections, add);
  for (const name of readShapes) await measure(`${name} (read), ${readConnections} connections`, [single], [a], readConnections, scenario(name));

  // Every node applied the same stream: wait until their LSNs meet, then compare digests.
  const deadline = Date.now() + 30_000;
  let states = await Promise.all(cluster.map(state));
  while (new Set(states.map((s) => s.lsn)).size > 1 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    states = await Promise.all(cluster.map(state));
  }
  agreement = new Set(states.map((s) => `${s.lsn}/${s.digest}`)).size === 1 ? `the three nodes agree: LSN ${states[0]?.lsn}, digest ${states[0]?.digest}` : `the nodes DISAGREE: ${JSON.stringify(states)}`;
  console.log(agreement);

  const report = { posts, durationS, writeConnections, readConnections, load: { singleS: Number(singleLoadS.toFixed(1)), clusterS: Number(clusterLoadS.toFixed(1)) }, rows, agreement };
  const cell = (f: Figures): string => `${f.rps} | ${f.p50Ms} / ${f.p99Ms} | ${f.cpuUsPerNode.length > 1 ? `${f.cpuUsPerReq} (${f.cpuUsPerNode.join(' + ')})` : f.cpuUsPerReq}`;
  const table = [
    '| run | single req/s | single p50 / p99 ms | single CPU µs/req | cluster req/s | cluster p50 / p99 ms | cluster CPU µs/req (nodes a + b + c) | cluster / single req/s |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.what} | ${cell(r.single)} | ${cell(r.cluster)} | ${(r.cluster.rps / Math.max(1, r.single.rps)).toFixed(2)} |`),
    '',
    `Loading ${posts} posts (batches of 1,000): ${report.load.singleS} s on the single node, ${report.load.clusterS} s through node A. After the run ${agreement}.`,
  ].join('\n');
  console.log(table);
  const dir = join(projectRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cluster.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, 'cluster.md'), `${table}\n`);
} finally {
  for (const node of started) {
    await node.server.stop();
    rmSync(node.dataDir, { recursive: true, force: true });
  }
  await nats.stop();
}

function fail(node: Node): never {
  throw new Error(`${node.name}: ids not resolved`);
}

/** A node other than the loading one has the data once it applied the stream: retried until it answers. */
async function resolveIdsWhenLoaded(node: Node): Promise<ContenderIds> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await resolveIds(node.url, data);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
