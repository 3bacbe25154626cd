// Subscriptions fan-out (issue #15): the service pinned to the server core, 1,000 WebSocket clients
// (graphql-transport-ws over `ws`, in a worker thread: subscriptions-clients.ts) on the load core, 10 each.
//  1. Mutation latency (HTTP, one at a time): with no subscription, with 10,000 idle subscriptions on
//     another type, with 10,000 affected subscriptions sharing 10 documents (targets 1.2x and 3x).
//  2. Delivery: each mutation changes the answer of one document's 1,000 subscribers; the time from the
//     mutation's response to each changed answer (target p99 ≤ 100 ms); answers sent that did not change
//     (target 0); every expected answer must arrive, and with the right value.
//  3. Memory per idle subscription: the server's RSS with 10,000 idle subscriptions minus without.
// Run: npm run build && node dist/bench/subscriptions.js [--out results/subscriptions.json] [--mutations 200]
// [--dist <another build's dist directory>: its server measured by this bench, to compare builds]

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { pinSelf } from './load/pin.js';
import { spawnContender } from './load/spawn-contender.js';

const { values } = parseArgs({ options: { out: { type: 'string' }, mutations: { type: 'string' }, sockets: { type: 'string' }, dist: { type: 'string' } }, strict: true });
const mutations = Number(values.mutations ?? 200);
const socketCount = Number(values.sockets ?? 1000);
const perSocket = 10;
const documents = 10;

const schema = `type Item @withSubscription { id: ID! group: String! @search(by: [hash]) n: Int }
type Other @withSubscription { id: ID! label: String! @search(by: [hash]) }`;

const distRoot = values.dist === undefined ? resolve(import.meta.dirname, '..') : resolve(values.dist);
const pin = pinSelf();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-subscriptions-'));
const server = await spawnContender(pin, join(distRoot, 'server/main.js'), ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--ws-max-connections', String(socketCount + 10), '--threads', '1']);

async function post(body: unknown, path = '/graphql'): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

async function gql(query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await post({ query, variables });
  if (answer['errors'] !== undefined) throw new Error(`${query}: ${JSON.stringify(answer['errors'])}`);
  return answer;
}

const rssKb = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? NaN);
/** The server's CPU time so far (user + system, ms): its work, whatever else the machine runs. */
const cpuMs = (): number => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
};
const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

/** The subscribers live in a worker thread, so their message handling does not delay this thread's mutation timings. */
const clients = new Worker(new URL('./subscriptions-clients.js', import.meta.url), { workerData: { url: `${server.url.replace('http', 'ws')}/graphql`, perSocket } });
const replies: ((value: unknown) => void)[] = [];
clients.on('message', (value: unknown) => replies.shift()?.(value));
clients.on('error', (error) => {
  console.error(error);
  process.exit(1);
});
const ask = <T>(command: Record<string, unknown>): Promise<T> =>
  new Promise((resolveReply) => {
    replies.push(resolveReply as (value: unknown) => void);
    clients.postMessage(command);
  });
/** Per socket, per subscription id: arrival times (ms since the epoch) and the first item's `n` of its `next` messages; the clients' thread's busy share. */
type Received = { received: { at: number; n: unknown }[][][]; busy: number };

/** The server's own figures (GET /metrics): its fan-out time quantiles (ms) and its subscription evaluations so far. */
async function serverFigures(): Promise<{ fanOutMs: Record<string, number>; evaluations: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const fanOutMs: Record<string, number> = {};
  for (const [, q, v] of text.matchAll(/^graphdb_subscription_fanout_seconds\{quantile="([^"]+)"\} (\S+)$/gm)) fanOutMs[q as string] = Number(v) * 1000;
  return { fanOutMs, evaluations: Number(/^graphdb_subscription_evaluations_total (\S+)$/m.exec(text)?.[1] ?? NaN) };
}

/** `mutations` one-node updates, one at a time; their latencies (ms) and response times. */
async function timedUpdates(from: number): Promise<{ latencies: number[]; answeredAt: number[] }> {
  const latencies: number[] = [];
  const answeredAt: number[] = [];
  for (let i = 0; i < mutations; i++) {
    const n = from + i;
    const started = performance.now();
    await gql('mutation ($g: String!, $n: Int) { updateItem(input: { filter: { group: { eq: $g } }, set: { n: $n } }) { numUids } }', { g: `g${n % documents}`, n });
    const done = performance.now();
    latencies.push(done - started);
    answeredAt.push(performance.timeOrigin + done);
    await new Promise((r) => setTimeout(r, 5)); // let the pushes of one mutation go before the next
  }
  return { latencies, answeredAt };
}

{
  const response = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: schema });
  const text = await response.text();
  if (!text.includes('Success')) throw new Error(`schema upload: ${text}`);
}
await gql(`mutation { addItem(input: [${Array.from({ length: documents * 10 }, (_, i) => `{ group: "g${i % documents}", n: 0 }`).join(',')}]) { numUids } }`);
await gql(`mutation { addOther(input: [${Array.from({ length: documents }, (_, i) => `{ label: "l${i}" }`).join(',')}]) { numUids } }`);

// Warm-up, then the baseline without subscriptions.
await timedUpdates(0);
const none = await timedUpdates(1_000_000);
const rssBefore = rssKb();

// 10,000 idle subscriptions on Other (10 documents).
await ask({ open: socketCount, documents, kind: 'Other' });
await new Promise((r) => setTimeout(r, 500));
const rssIdle = rssKb();
const idleRun = await timedUpdates(2_000_000);
const idle = await ask<Received>({ close: true });
const idleSent = idle.received.reduce((sum, socket) => sum + socket.reduce((a, list) => a + list.length - 1, 0), 0);

// 10,000 affected subscriptions on Item (10 documents, one per group: each mutation changes 1,000 answers).
await ask({ open: socketCount, documents, kind: 'Item' });
const evaluationsBefore = (await serverFigures()).evaluations;
const cpuBefore = cpuMs();
const affectedRun = await timedUpdates(3_000_000);
await new Promise((r) => setTimeout(r, 500));
const serverCpuMs = cpuMs() - cpuBefore;
const afterAffected = await serverFigures();
const { received: affected, busy: clientsBusy } = await ask<Received>({ close: true });
await clients.terminate();
const delays: number[] = [];
let missing = 0;
let unchangedSent = 0;
let wrong = 0;
for (let s = 0; s < affected.length; s++) {
  for (let k = 0; k < perSocket; k++) {
    const group = (s + k) % documents;
    const pushes = (affected[s]?.[k] ?? []).slice(1); // after the first answer
    let at = 0;
    for (let i = 0; i < mutations; i++) {
      const n = 3_000_000 + i;
      if (n % documents !== group) continue;
      const push = pushes[at];
      if (push === undefined) {
        missing++;
        continue;
      }
      at++;
      if (push.n !== n) wrong++;
      delays.push(Math.max(0, push.at - (affectedRun.answeredAt[i] as number)));
    }
    unchangedSent += Math.max(0, pushes.length - at);
  }
}
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

const median = (values: readonly number[]): number => quantile(values, 0.5);
const result = {
  date: new Date().toISOString(),
  sockets: socketCount,
  subscriptions: socketCount * perSocket,
  documents,
  mutations,
  pin: pin.note,
  mutationLatencyMs: {
    none: { p50: median(none.latencies), p99: quantile(none.latencies, 0.99) },
    idle: { p50: median(idleRun.latencies), p99: quantile(idleRun.latencies, 0.99) },
    affected: { p50: median(affectedRun.latencies), p99: quantile(affectedRun.latencies, 0.99) },
  },
  idleRatio: median(idleRun.latencies) / median(none.latencies),
  affectedRatio: median(affectedRun.latencies) / median(none.latencies),
  deliveryMs: { p50: quantile(delays, 0.5), p99: quantile(delays, 0.99), max: quantile(delays, 1) },
  /** The server's share: from each commit to its changed answer handed to the last of its 1,000 subscribers' connections. */
  serverFanOutMs: { p50: afterAffected.fanOutMs['0.5'], p99: afterAffected.fanOutMs['0.99'], max: afterAffected.fanOutMs['1'] },
  /** The clients' thread's event loop utilization over the affected phase (near 1: the clients delay their own timestamps). */
  clientsBusy,
  /** The server's CPU time per mutation in the affected phase (the mutation, its evaluations and 1,000 sends). */
  serverCpuMsPerMutation: serverCpuMs / mutations,
  evaluationsPerMutation: (afterAffected.evaluations - evaluationsBefore) / mutations,
  delivered: delays.length,
  missing,
  wrong,
  unchangedSent: unchangedSent + idleSent,
  bytesPerIdleSubscription: Math.round(((rssIdle - rssBefore) * 1024) / (socketCount * perSocket)),
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `targets: idle ${result.idleRatio.toFixed(2)}x (≤ 1.2) ${result.idleRatio <= 1.2 ? 'PASS' : 'MISS'}; affected ${result.affectedRatio.toFixed(2)}x (≤ 3) ${result.affectedRatio <= 3 ? 'PASS' : 'MISS'}; ` +
    `delivery p99 ${result.deliveryMs.p99.toFixed(1)} ms (≤ 100) ${result.deliveryMs.p99 <= 100 ? 'PASS' : 'MISS'} (server fan-out p99 ${result.serverFanOutMs.p99?.toFixed(1)} ms, server CPU ${result.serverCpuMsPerMutation.toFixed(2)} ms per mutation, clients busy ${(clientsBusy * 100).toFixed(0)}%); unchanged sent ${result.unchangedSent} (0) ${result.unchangedSent === 0 ? 'PASS' : 'MISS'}; ` +
    `missing ${missing}, wrong ${wrong}; memory ${result.bytesPerIdleSubscription} B per idle subscription (≤ 2048) ${result.bytesPerIdleSubscription <= 2048 ? 'PASS' : 'MISS'}`,
);
if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
if (missing > 0 || wrong > 0) process.exitCode = 1;
