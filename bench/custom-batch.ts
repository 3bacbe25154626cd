// Custom-logic second stage (issue #6): a query selecting a @custom field over 1,000 stored parents,
// against the real server process and a loopback upstream (its own process) with a fixed delay.
// Checks before timing: BATCH makes exactly 1 outgoing call, SINGLE makes 1,000 with at most the
// configured concurrency. Then reports: the service's own time beyond the upstream's for BATCH (against
// the upstream's round trip timed by this client the same way as the query, and against the time spent
// inside the upstream), server CPU per query, and the p99 latency of other requests while such queries run.
// Run: `npm run build && node dist/bench/custom-batch.js [--delay-ms 20] [--rounds 30] [--modes inline,workers,default]`.
// Profile the server: `BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" node dist/bench/custom-batch.js --modes default`.

import { startLine } from './load/spawn-contender.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { cpuMicros } from './load/proc-cpu.js';
import { startUpstream, type RunningUpstream } from './upstream/upstream-client.js';

const { values: flags } = parseArgs({
  options: { 'delay-ms': { type: 'string' }, rounds: { type: 'string' }, parents: { type: 'string' }, modes: { type: 'string' } },
});
const delayMs = Number(flags['delay-ms'] ?? 20);
const rounds = Number(flags.rounds ?? 30);
const parents = Number(flags.parents ?? 1000);
const concurrency = 32;

interface Service {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Extra node flags for the server, e.g. `BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof"` to profile it. */
const nodeFlags = (process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== '');

async function startService(args: readonly string[]): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'custom-bench-'));
  const entry = join(import.meta.dirname, '../server/main.js');
  const child = spawn(process.execPath, [...nodeFlags, entry, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = startLine.exec(output);
      if (match !== null) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  readonly data?: Record<string, unknown> & { code?: string; queryParent?: { id: string; [k: string]: unknown }[] };
  readonly errors?: unknown;
}

async function post(url: string, body: string, contentType = 'application/json'): Promise<Answer> {
  const response = await request(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return JSON.parse(await response.body.text()) as Answer;
}

const gql = (service: Service, query: string): Promise<Answer> => post(`${service.url}/graphql`, JSON.stringify({ query }));

async function prepare(service: Service, upstream: RunningUpstream): Promise<void> {
  const sdl = `type Parent {
  id: ID!
  n: Int @search
  batched: String @custom(http: { url: "${upstream.url}/batch", method: "POST", body: "{ id: $id }", mode: BATCH })
  single: String @custom(http: { url: "${upstream.url}/single", method: "POST", body: "{ id: $id }", mode: SINGLE })
}`;
  const uploaded = await post(`${service.url}/admin/schema`, sdl, 'application/octet-stream');
  if (uploaded.data?.code !== 'Success') throw new Error(`upload failed: ${JSON.stringify(uploaded)}`);
  for (let i = 0; i < parents; i += 250) {
    const input = Array.from({ length: Math.min(250, parents - i) }, (_, k) => `{ n: ${i + k} }`).join(', ');
    await gql(service, `mutation { addParent(input: [${input}]) { numUids } }`);
  }
}

function check(answer: Answer, field: string): void {
  const list = answer.data?.queryParent;
  if (answer.errors !== undefined || list?.length !== parents) throw new Error(`bad answer: ${JSON.stringify(answer).slice(0, 300)}`);
  for (const p of list) if (p[field] !== `up:${p.id}`) throw new Error(`wrong ${field} for ${p.id}: ${String(p[field])}`);
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const median = (xs: readonly number[]): number => percentile([...xs].sort((a, b) => a - b), 50);

async function timeCalls(call: () => Promise<unknown>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

const timeQuery = (service: Service, query: string, n: number): Promise<number[]> => timeCalls(() => gql(service, query), n);

/** Median ms and server CPU ms per query. */
async function timeWithCpu(service: Service, query: string, n: number): Promise<{ ms: number; cpuMs: number }> {
  const pid = service.child.pid ?? 0;
  const before = cpuMicros(pid) ?? NaN;
  const ms = median(await timeQuery(service, query, n));
  return { ms, cpuMs: ((cpuMicros(pid) ?? NaN) - before) / n / 1000 };
}

/** p99 of a small query from 4 concurrent clients for `ms`, optionally while `background` runs in a loop. */
async function otherP99(service: Service, ms: number, background?: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  let stop = false;
  const loop = async (): Promise<void> => {
    while (!stop) {
      const started = performance.now();
      await gql(service, 'query { queryParent(first: 1, filter: { n: { eq: 7 } }) { id n } }');
      times.push(performance.now() - started);
    }
  };
  const bg = async (): Promise<void> => {
    while (!stop && background !== undefined) await background();
  };
  const timer = setTimeout(() => (stop = true), ms);
  await Promise.all([loop(), loop(), loop(), loop(), bg()]);
  clearTimeout(timer);
  return percentile(times.sort((a, b) => a - b), 99);
}

async function run(label: string, args: readonly string[]): Promise<Record<string, number | string>> {
  const upstream = await startUpstream({ pin: { pinned: false, note: '' }, core: 0, delayMs });
  const service = await startService([...args, '--custom-max-concurrency', String(concurrency)]);
  try {
    await prepare(service, upstream);
    // Verify before timing.
    await upstream.reset();
    check(await gql(service, 'query { queryParent { id batched } }'), 'batched');
    const batchCalls = (await upstream.stats()).calls;
    if (batchCalls !== 1) throw new Error(`BATCH made ${batchCalls} calls`);
    await upstream.reset();
    check(await gql(service, 'query { queryParent { id single } }'), 'single');
    const singleStats = await upstream.stats();
    if (singleStats.calls !== parents) throw new Error(`SINGLE made ${singleStats.calls} calls`);
    if (singleStats.peak > concurrency) throw new Error(`SINGLE peak concurrency ${singleStats.peak} > ${concurrency}`);

    await timeQuery(service, 'query { queryParent { id batched } }', 5);
    const plain = await timeWithCpu(service, 'query { queryParent { id } }', rounds);
    await upstream.reset();
    const batch = await timeWithCpu(service, 'query { queryParent { id batched } }', rounds);
    const stats = await upstream.stats();
    const inUpstreamMs = median(stats.spentMs);
    // The upstream's round trip for the same body, timed by this client the way the query is timed.
    const batchBody = stats.lastListBody ?? '[]';
    const roundTripMs = median(await timeCalls(() => post(`${upstream.url}/batch`, batchBody), rounds));
    const single = median(await timeQuery(service, 'query { queryParent { id single } }', Math.max(3, Math.floor(rounds / 5))));
    const p99Idle = await otherP99(service, 2_000);
    const p99Batch = await otherP99(service, 2_000, () => gql(service, 'query { queryParent { id batched } }'));
    const p99Single = await otherP99(service, 2_000, () => gql(service, 'query { queryParent { id single } }'));
    const overhead = batch.ms - roundTripMs;
    const overheadInside = batch.ms - inUpstreamMs;
    return {
      mode: label,
      plainMs: +plain.ms.toFixed(2),
      plainCpuMs: +plain.cpuMs.toFixed(2),
      batchMs: +batch.ms.toFixed(2),
      batchCpuMs: +batch.cpuMs.toFixed(2),
      upstreamRoundTripMs: +roundTripMs.toFixed(2),
      batchOverheadMs: +overhead.toFixed(2),
      batchOverheadPct: +((100 * overhead) / roundTripMs).toFixed(1),
      inUpstreamMs: +inUpstreamMs.toFixed(2),
      overheadVsInUpstreamMs: +overheadInside.toFixed(2),
      overheadVsInUpstreamPct: +((100 * overheadInside) / inUpstreamMs).toFixed(1),
      singleMs: +single.toFixed(1),
      singlePeakConcurrency: singleStats.peak,
      otherP99IdleMs: +p99Idle.toFixed(2),
      otherP99DuringBatchMs: +p99Batch.toFixed(2),
      otherP99DuringSingleMs: +p99Single.toFixed(2),
    };
  } finally {
    await service.stop();
    await upstream.stop();
  }
}

const modes: Record<string, readonly [string, readonly string[]]> = {
  inline: ['inline (no worker)', ['--custom-workers', '0']],
  workers: ['worker threads', ['--custom-workers', '2', '--custom-inline-max', '0']],
  default: ['default', []],
};
const results: Record<string, number | string>[] = [];
for (const name of (flags.modes ?? 'inline,workers,default').split(',')) {
  const mode = modes[name];
  if (mode === undefined) throw new Error(`unknown mode ${name} (inline, workers, default)`);
  results.push(await run(...mode));
}
for (const r of results) console.log(JSON.stringify(r));
console.table(results);
console.log(`upstream delay ${delayMs} ms, ${parents} parents, ${rounds} rounds, concurrency cap ${concurrency}`);
