// Custom-logic second stage (issue #6): a query selecting a @custom field over 1,000 stored parents,
// against the real server process and a loopback upstream with a fixed delay.
// Checks before timing: BATCH makes exactly 1 outgoing call, SINGLE makes 1,000 with at most the
// configured concurrency. Then reports: the service's own time beyond the upstream's for BATCH, worker vs
// inline sending, and the p99 latency of other requests while such queries run.
// Run: `npm run build && node dist/bench/custom-batch.js [--delay-ms 20] [--rounds 30]`.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';

const { values: flags } = parseArgs({ options: { 'delay-ms': { type: 'string' }, rounds: { type: 'string' }, parents: { type: 'string' } } });
const delayMs = Number(flags['delay-ms'] ?? 20);
const rounds = Number(flags.rounds ?? 30);
const parents = Number(flags.parents ?? 1000);
const concurrency = 32;

interface Upstream {
  readonly url: string;
  calls: number;
  inFlight: number;
  peak: number;
  /** Time spent inside the upstream (arrival to answer) per call, ms. */
  readonly spent: number[];
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const up: Upstream = { url: '', calls: 0, inFlight: 0, peak: 0, spent: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const arrived = performance.now();
    up.calls++;
    up.inFlight++;
    up.peak = Math.max(up.peak, up.inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string } | { id: string }[];
      const answer = Array.isArray(body) ? body.map((p) => `name-${p.id}`) : `name-${body.id}`;
      setTimeout(() => {
        up.inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        up.spent.push(performance.now() - arrived);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return Object.assign(up, {
    url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

interface Service {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

async function startService(args: readonly string[]): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'custom-bench-'));
  const entry = join(import.meta.dirname, '../server/main.js');
  const child = spawn(process.execPath, [entry, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
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

async function post(url: string, path: string, body: string, contentType = 'application/json'): Promise<Answer> {
  const response = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return JSON.parse(await response.body.text()) as Answer;
}

const gql = (service: Service, query: string): Promise<Answer> => post(service.url, '/graphql', JSON.stringify({ query }));

async function prepare(service: Service, upstream: Upstream): Promise<void> {
  const sdl = `type Parent {
  id: ID!
  n: Int @search
  batched: String @custom(http: { url: "${upstream.url}/batch", method: "POST", body: "{ id: $id }", mode: BATCH })
  single: String @custom(http: { url: "${upstream.url}/single", method: "POST", body: "{ id: $id }", mode: SINGLE })
}`;
  const uploaded = await post(service.url, '/admin/schema', sdl, 'application/octet-stream');
  if (uploaded.data?.code !== 'Success') throw new Error(`upload failed: ${JSON.stringify(uploaded)}`);
  for (let i = 0; i < parents; i += 250) {
    const input = Array.from({ length: Math.min(250, parents - i) }, (_, k) => `{ n: ${i + k} }`).join(', ');
    await gql(service, `mutation { addParent(input: [${input}]) { numUids } }`);
  }
}

function check(answer: Answer, field: string): void {
  const list = answer.data?.queryParent;
  if (answer.errors !== undefined || list?.length !== parents) throw new Error(`bad answer: ${JSON.stringify(answer).slice(0, 300)}`);
  for (const p of list) if (p[field] !== `name-${p.id}`) throw new Error(`wrong ${field} for ${p.id}: ${String(p[field])}`);
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const median = (xs: readonly number[]): number => percentile([...xs].sort((a, b) => a - b), 50);

async function timeQuery(service: Service, query: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await gql(service, query);
    times.push(performance.now() - started);
  }
  return times;
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
  const upstream = await startUpstream();
  const service = await startService([...args, '--custom-max-concurrency', String(concurrency)]);
  try {
    await prepare(service, upstream);
    // Verify before timing.
    upstream.calls = 0;
    check(await gql(service, 'query { queryParent { id batched } }'), 'batched');
    if (upstream.calls !== 1) throw new Error(`BATCH made ${upstream.calls} calls`);
    upstream.calls = 0;
    upstream.peak = 0;
    check(await gql(service, 'query { queryParent { id single } }'), 'single');
    if (upstream.calls !== parents) throw new Error(`SINGLE made ${upstream.calls} calls`);
    if (upstream.peak > concurrency) throw new Error(`SINGLE peak concurrency ${upstream.peak} > ${concurrency}`);
    const singlePeak = upstream.peak;

    await timeQuery(service, 'query { queryParent { id batched } }', 5);
    const plain = median(await timeQuery(service, 'query { queryParent { id } }', rounds));
    upstream.spent.length = 0;
    const batch = median(await timeQuery(service, 'query { queryParent { id batched } }', rounds));
    const upstreamMs = median(upstream.spent);
    const single = median(await timeQuery(service, 'query { queryParent { id single } }', Math.max(3, Math.floor(rounds / 5))));
    const p99Idle = await otherP99(service, 2_000);
    const p99Batch = await otherP99(service, 2_000, () => gql(service, 'query { queryParent { id batched } }'));
    const p99Single = await otherP99(service, 2_000, () => gql(service, 'query { queryParent { id single } }'));
    const overhead = batch - upstreamMs;
    return {
      mode: label,
      plainMs: +plain.toFixed(2),
      batchMs: +batch.toFixed(2),
      upstreamMs: +upstreamMs.toFixed(2),
      batchOverheadMs: +overhead.toFixed(2),
      batchOverheadPct: +((100 * overhead) / upstreamMs).toFixed(1),
      singleMs: +single.toFixed(1),
      singlePeakConcurrency: singlePeak,
      otherP99IdleMs: +p99Idle.toFixed(2),
      otherP99DuringBatchMs: +p99Batch.toFixed(2),
      otherP99DuringSingleMs: +p99Single.toFixed(2),
    };
  } finally {
    await service.stop();
    await upstream.close();
  }
}

const results = [
  await run('inline (no worker)', ['--custom-workers', '0']),
  await run('worker threads', ['--custom-workers', '2', '--custom-inline-max', '0']),
  await run('default (inline ≤ 8 calls)', []),
];
for (const r of results) console.log(JSON.stringify(r));
console.table(results);
console.log(`upstream delay ${delayMs} ms, ${parents} parents, ${rounds} rounds, concurrency cap ${concurrency}`);
