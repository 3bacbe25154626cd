// Issue #16's thread scaling: the service with `--threads 1` and `--threads 2` side by side, neither
// pinned (wrk shares the two cores with them), each shape timed alternately 1, 2, 1, 2 so a change of
// the host's speed moves both; requests/s, the service's CPU time per request (all its threads), and
// resident memory after loading.
// Run: npm run build && node dist/bench/threads.js [--posts 10000] [--duration 5] [--shapes get-by-id,filtered-list] [--threads 2]
// Writes bench/results/threads.json and threads.md.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDataset } from './data/dataset.js';
import { checkAnswer, requestBodies, resolveIds } from './load/check-answer.js';
import { loadService } from './load/load-service.js';
import { lookupsBetween, readCacheLookups } from './load/cache-lookups.js';
import { contextSwitches, cpuMicros, threadCpu, waitUntilIdle, type CpuSplit } from './load/proc-cpu.js';
import { spawnContender, type RunningContender } from './load/spawn-contender.js';
import { runWrk, wrkAvailable } from './load/wrk-run.js';
import { buildScenarios, type ContenderIds, type Scenario } from './scenarios.js';

const { values } = parseArgs({ options: { posts: { type: 'string' }, duration: { type: 'string' }, shapes: { type: 'string' }, threads: { type: 'string' } }, strict: true });
const posts = Number(values.posts ?? 10_000);
const durationS = Number(values.duration ?? 5);
const many = Number(values.threads ?? 2);
const shapeNames = (values.shapes ?? 'get-by-id,get-by-xid,filtered-list,hash-eq,term-any,nested-edge,aggregate,add').split(',');
const connections = 50;
const projectRoot = resolve(import.meta.dirname, '../..');
const unpinned = { pinned: false, note: 'not pinned: the service threads and wrk share every core' };

if (!(await wrkAvailable())) {
  console.error('wrk is not installed (apt-get install -y wrk)');
  process.exit(1);
}

interface Started {
  readonly threads: number;
  readonly server: RunningContender;
  readonly url: string;
  readonly ids: ContenderIds;
  readonly dataDir: string;
  readonly rssMb: number;
}

const data = generateDataset({ posts, authors: Math.max(10, Math.round(posts / 100)) });
const scenarios = buildScenarios(data).filter((s) => shapeNames.includes(s.name));

async function start(threads: number): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-threads-${threads}-`));
  const server = await spawnContender(unpinned, join(projectRoot, 'dist/server/main.js'), ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--threads', String(threads), '--log-requests', 'none']);
  await loadService(server.url, data, 'http://127.0.0.1:9/');
  const url = `${server.url}/graphql`;
  const ids = await resolveIds(url, data);
  await waitUntilIdle(server.pid);
  return { threads, server, url, ids, dataDir, rssMb: rssMb(server.pid) };
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? '';
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

interface Run {
  readonly rps: number;
  readonly cpuUsPerReq: number;
  readonly p99Ms: number;
  /** Where the CPU went, µs per request: system time, and user + system of the main thread, the busiest other thread (a replica with 2 threads), the rest (V8's GC and compiler workers, libuv). */
  readonly systemUsPerReq: number;
  /** Context switches of all the service's threads per request (thread wake-ups: messages, sockets). */
  readonly switchesPerReq: number;
  readonly byThread: Readonly<Record<string, number>>;
  /** Cache misses (every thread: /metrics) per 1,000 requests, by cache. */
  readonly missesPerK: Readonly<Record<string, number>>;
}

async function timed(s: Started, scenario: Scenario, tag: string): Promise<Run> {
  await waitUntilIdle(s.server.pid);
  const lookupsBefore = await readCacheLookups(s.url);
  const threadsBefore = threadCpu(s.server.pid);
  const before = cpuMicros(s.server.pid) ?? 0;
  const switchesBefore = contextSwitches(s.server.pid);
  const result = await runWrk({ url: s.url, connections, body: requestBodies(scenario, s.ids, tag), durationS });
  const cpu = (cpuMicros(s.server.pid) ?? 0) - before;
  const switches = contextSwitches(s.server.pid) - switchesBefore;
  const threadsAfter = threadCpu(s.server.pid);
  const lookups = lookupsBetween(lookupsBefore, await readCacheLookups(s.url));
  const requests = Math.max(1, result.requests);
  let system = 0;
  let main = 0;
  const others: number[] = [];
  for (const [tid, now] of threadsAfter) {
    const was: CpuSplit = threadsBefore.get(tid) ?? { user: 0, system: 0 };
    system += now.system - was.system;
    const used = now.user + now.system - was.user - was.system;
    if (tid === String(s.server.pid)) main = used;
    else others.push(used);
  }
  others.sort((a, b) => b - a);
  const rest = others.slice(1).reduce((sum, us) => sum + us, 0);
  const byThread = { main: main / requests, busiest: (others[0] ?? 0) / requests, rest: rest / requests };
  const missesPerK: Record<string, number> = {};
  for (const [cache, l] of Object.entries(lookups)) if (l.misses > 0) missesPerK[cache] = (1000 * l.misses) / requests;
  return { rps: result.rps, cpuUsPerReq: cpu / requests, p99Ms: result.p99Ms, systemUsPerReq: system / requests, switchesPerReq: switches / requests, byThread, missesPerK };
}

const one = await start(1);
const two = await start(many);
const rows: { shape: string; rps1: number; rpsN: number; ratio: number; cpu1: number; cpuN: number; cpuRatio: number; p99N: number; split: Record<number, Split> }[] = [];
/** A thread count's runs of one shape: system µs/req, µs/req by thread name, cache misses per 1,000 requests (means). */
type Split = { readonly system: number; readonly switches: number; readonly byThread: Readonly<Record<string, number>>; readonly missesPerK: Readonly<Record<string, number>> };
try {
  for (const scenario of scenarios) {
    for (const s of [one, two]) {
      const wrong = await checkAnswer(s.url, scenario, s.ids, `check-${s.threads}`);
      if (wrong !== null) throw new Error(`${scenario.name} with --threads ${s.threads}: ${wrong}`);
      await runWrk({ url: s.url, connections, body: requestBodies(scenario, s.ids, `warm-${s.threads}`), durationS: 2 });
    }
    const runs: Record<number, Run[]> = { 1: [], [many]: [] };
    for (let round = 0; round < 2; round++) {
      for (const s of round === 0 ? [one, two] : [two, one]) runs[s.threads]?.push(await timed(s, scenario, `r${round}-${s.threads}`));
    }
    const mean = (list: readonly Run[], pick: (r: Run) => number): number => list.reduce((sum, r) => sum + pick(r), 0) / list.length;
    const r1 = runs[1] ?? [];
    const rN = runs[many] ?? [];
    const row = {
      shape: scenario.name,
      rps1: Math.round(mean(r1, (r) => r.rps)),
      rpsN: Math.round(mean(rN, (r) => r.rps)),
      ratio: Number((mean(rN, (r) => r.rps) / mean(r1, (r) => r.rps)).toFixed(2)),
      cpu1: Number(mean(r1, (r) => r.cpuUsPerReq).toFixed(1)),
      cpuN: Number(mean(rN, (r) => r.cpuUsPerReq).toFixed(1)),
      cpuRatio: Number((mean(rN, (r) => r.cpuUsPerReq) / mean(r1, (r) => r.cpuUsPerReq)).toFixed(2)),
      p99N: Number(mean(rN, (r) => r.p99Ms).toFixed(2)),
      split: { 1: splitOf(r1), [many]: splitOf(rN) },
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  for (const s of [one, two]) {
    await s.server.stop();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}

function splitOf(list: readonly Run[]): Split {
  const means = (pick: (r: Run) => Readonly<Record<string, number>>): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const run of list) for (const [name, value] of Object.entries(pick(run))) out[name] = (out[name] ?? 0) + value / list.length;
    for (const name of Object.keys(out)) out[name] = Number((out[name] as number).toFixed(1));
    return out;
  };
  const system = Number((list.reduce((sum, r) => sum + r.systemUsPerReq, 0) / Math.max(1, list.length)).toFixed(2));
  const switches = Number((list.reduce((sum, r) => sum + r.switchesPerReq, 0) / Math.max(1, list.length)).toFixed(2));
  return { system, switches, byThread: means((r) => r.byThread), missesPerK: means((r) => r.missesPerK) };
}

const listed = (values: Readonly<Record<string, number>>): string =>
  Object.entries(values)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ') || 'none';
const splitText = (s: Split | undefined): string => (s === undefined ? '' : `${s.system} | ${s.switches} | ${listed(s.byThread)} | ${listed(s.missesPerK)}`);

const report = { posts, durationS, connections, threads: many, rssMb: { 1: one.rssMb, [many]: two.rssMb }, rows };
const table = [
  `| shape | req/s --threads 1 | req/s --threads ${many} | ratio | CPU µs/req 1 | CPU µs/req ${many} | CPU ratio | p99 ms ${many} |`,
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.shape} | ${r.rps1} | ${r.rpsN} | ${r.ratio} | ${r.cpu1} | ${r.cpuN} | ${r.cpuRatio} | ${r.p99N} |`),
  '',
  `Where the CPU went (µs per request from /proc/<pid>/task: the main thread, the busiest other (the replica with ${many} threads), the rest (V8's GC and compiler workers, libuv); cache misses per 1,000 requests by cache, /metrics):`,
  '',
  `| shape | threads | system µs/req | context switches / req | µs/req by thread | cache misses / 1k req |`,
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.flatMap((r) => [1, many].map((t) => `| ${r.shape} | ${t} | ${splitText(r.split[t])} |`)),
  '',
  `Resident memory after loading ${posts} posts: ${one.rssMb} MB with --threads 1, ${two.rssMb} MB with --threads ${many}.`,
].join('\n');
console.log(table);
const dir = join(projectRoot, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'threads.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(dir, 'threads.md'), `${table}\n`);
