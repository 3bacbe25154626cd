// Issue #16 "Cost per replica" at 1M nodes: (a) the memory of one service process holding the data set with
// --threads 1 and --threads 2 (the second thread is a replica: its cost is the difference), and the restart to
// the first answer; (b) the time to bring a NEW cluster node up: three nats-servers, node A in cluster mode on
// the data set, node B on an empty directory with --cluster-seed http://A until it answers a read (wall and CPU,
// split into download, restore phases and stream catch-up, from B's log lines), B's memory, digests equal.
// The data directory is made once (the generated data set through the facade, ~250 s at 1M) and kept; every
// run works on copies. A's directory is the kept snapshot with `sharedLogPosition` = its LSN stamped into the
// header, and the stream made to start after that position (purged up to it): what a cluster that imported the
// data set through one node (one stream message per record) and purged the stream below its snapshots holds.
// A then writes a snapshot of this build (B downloads what this build writes) and takes `--catch-up` more
// writes after it, which B reads from the stream.
// Run: npm run build && node dist/bench/bringup.js --dir <kept dir> [--posts 1000000] [--part memory|bringup|all] [--catch-up 10000]
// [--server <another build's dist>] [--out <file>]
// Memory: at most two 1M engines at once (--threads 2, or A and B). Writes bench/results/bringup.json (or --out).

import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { JetStreamLog } from '../server/cluster/jetstream-log.js';
import { natsAvailable, natsSkipMessage, startNatsCluster } from '../test/cluster/nats-cluster.js';
import { readSnapshotHeader, snapshotHead } from '../engine/persist/snapshot-file.js';
import { snapshotFileName } from '../engine/persist/data-dir.js';
import { dataOf, postJson } from './load/graphql-client.js';
import { cpuMicros } from './load/proc-cpu.js';
import { startLine } from './load/spawn-contender.js';
import { keptDataDir } from './micro/durable-fixture.js';

const { values } = parseArgs({ options: { dir: { type: 'string' }, posts: { type: 'string' }, part: { type: 'string' }, 'catch-up': { type: 'string' }, server: { type: 'string' }, out: { type: 'string' } }, strict: true });
if (values.dir === undefined) throw new Error('usage: bringup.js --dir <kept data dir> [--posts 1000000] [--part memory|bringup|all] [--catch-up 10000] [--server <another build\'s dist>] [--out <file>]');
const keptDir = resolve(values.dir);
const posts = Number(values.posts ?? 1_000_000);
const part = values.part ?? 'all';
const catchUp = Number(values['catch-up'] ?? 10_000);
const dist = resolve(import.meta.dirname, '..');
const projectRoot = resolve(dist, '..');
/** The build whose server runs (`--server`: another build's dist/, e.g. to compare two in the memory part). */
const serverDist = values.server === undefined ? dist : resolve(values.server);
const outFile = values.out === undefined ? join(projectRoot, 'bench/results/bringup.json') : resolve(values.out);
/** Big enough for a 1M restore's peak whatever the host's default. */
const heapFlag = '--max-old-space-size=8000';
const startTimeoutMs = 30 * 60_000;

const lsn = await keptDataDir(dist, keptDir, posts);
const loadBefore = loadavg();

/** One line of a service's log (pino JSON), with the process's CPU (µs) when it was read. */
interface LogLine {
  readonly msg: string;
  readonly time: number;
  /** NaN when the line was read well after its time (written during a synchronous stretch: the restore). */
  readonly cpuUs: number;
  readonly fields: Record<string, unknown>;
}

/** V8's heap after the last GC of one isolate (a JavaScript thread), from --trace-gc: used and committed MB. */
type Heaps = Map<string, { used: number; committed: number }>;

interface Service {
  readonly name: string;
  readonly pid: number;
  readonly started: number;
  readonly lines: LogLine[];
  readonly heaps: Heaps;
  url: string;
  /** Resolves with the first line whose message matches. */
  line(pattern: RegExp): Promise<LogLine>;
  kill(): Promise<void>;
  output(): string;
}

function startService(name: string, dataDir: string, args: readonly string[]): Service {
  const started = Date.now();
  const child = spawn(process.execPath, [heapFlag, '--trace-gc', join(serverDist, 'server/main.js'), '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--log-requests', 'none', '--log-format', 'json', '--snapshot-interval', '0', '--snapshot-every', '0', ...args], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid ?? 0;
  const lines: LogLine[] = [];
  const heaps: Heaps = new Map();
  const waiting: { pattern: RegExp; resolve: (line: LogLine) => void; reject: (error: Error) => void }[] = [];
  let text = '';
  let pending = '';
  const onText = (chunk: string): void => {
    text += chunk.length < 4096 ? chunk : '';
    pending += chunk;
    const cut = pending.lastIndexOf('\n');
    if (cut < 0) return;
    const cpuUs = cpuMicros(pid) ?? 0;
    for (const raw of pending.slice(0, cut).split('\n')) {
      const gc = /^\[\d+:(0x[0-9a-f]+)\].*?-> ([\d.]+) \(([\d.]+)\) MB/.exec(raw);
      if (gc !== null) {
        heaps.set(gc[1] as string, { used: Number(gc[2]), committed: Number(gc[3]) });
        continue;
      }
      if (!raw.startsWith('{')) continue;
      const fields = JSON.parse(raw) as Record<string, unknown>;
      const time = Number(fields['time']);
      const line = { msg: String(fields['msg']), time, cpuUs: Date.now() - time > 250 ? Number.NaN : cpuUs, fields };
      lines.push(line);
      if (line.msg.length < 300) text += `${raw}\n`;
      for (const w of [...waiting]) {
        if (!w.pattern.test(line.msg)) continue;
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
    pending = pending.slice(cut + 1);
  };
  child.stdout.setEncoding('utf8').on('data', onText);
  child.stderr.setEncoding('utf8').on('data', onText);
  const exited = new Promise<void>((done) =>
    child.once('exit', (code) => {
      for (const w of waiting.splice(0)) w.reject(new Error(`${name} exited with ${code}:\n${text.slice(-3000)}`));
      done();
    }),
  );
  const service: Service = {
    name,
    pid,
    started,
    lines,
    heaps,
    url: '',
    line(pattern) {
      const seen = lines.find((l) => pattern.test(l.msg));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no line ${pattern} within ${startTimeoutMs} ms:\n${text.slice(-3000)}`)), startTimeoutMs);
        waiting.push({ pattern, resolve: (l) => (clearTimeout(timer), resolveLine(l)), reject: (e) => (clearTimeout(timer), reject(e)) });
      });
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
    output: () => text,
  };
  return service;
}

/** Waits for the start-up line; the service's URL. */
async function listening(service: Service): Promise<string> {
  const line = await service.line(startLine);
  service.url = startLine.exec(line.msg)?.[1] ?? '';
  return service.url;
}

async function graphql(service: Service, query: string, path = '/graphql', headers: Record<string, string> = {}): Promise<unknown> {
  return dataOf(await postJson(`${service.url}${path}`, { query }, headers));
}

const postCount = async (service: Service): Promise<number> => ((await graphql(service, '{ aggregatePost { count } }')) as { aggregatePost: { count: number } }).aggregatePost.count;
const state = async (service: Service): Promise<{ digest: string; lsn: number }> => ((await graphql(service, '{ state { digest lsn } }', '/admin')) as { state: { digest: string; lsn: number } }).state;

/** How long a process is left idle before its memory is read: V8's memory reducer runs a major GC once it is idle. */
const settleMs = 30_000;

/** Resident memory now and at its peak (MB), from /proc. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** A working copy of a data directory holding `snapshot` (bytes) as its snapshot `lsn`, and the kept log files. */
function workingCopy(tag: string, snapshot?: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), `bringup-${tag}-`));
  for (const name of readdirSync(keptDir).filter((n) => /^wal-\d+\.log$/.test(n))) copyFileSync(join(keptDir, name), join(dir, name));
  if (snapshot === undefined) copyFileSync(join(keptDir, snapshotFileName(lsn)), join(dir, snapshotFileName(lsn)));
  else writeFileSync(join(dir, snapshotFileName(lsn)), snapshot);
  return dir;
}

const sec = (ms: number): number => Number((ms / 1000).toFixed(1));
const heapList = (heaps: Heaps): string => [...heaps.values()].map((h) => `${h.used.toFixed(0)} (${h.committed.toFixed(0)})`).join(' + ');
const results: Record<string, unknown> = { posts, lsn, keptDir };

if (part === 'memory' || part === 'all') {
  const rows: Record<string, unknown>[] = [];
  for (const threads of [1, 2]) {
    const dir = workingCopy(`threads${threads}`);
    const service = startService(`threads${threads}`, dir, ['--threads', String(threads)]);
    try {
      await listening(service);
      const listeningS = sec(Date.now() - service.started);
      // The replica thread restores the same files itself (beside the writer's restore since session 14).
      if (threads === 2) await service.line(/^replica thread serving/);
      const count = await postCount(service);
      const answeredMs = Date.now() - service.started;
      const cpuS = (cpuMicros(service.pid) ?? 0) / 1e6;
      if (count !== posts) throw new Error(`threads ${threads}: ${count} posts, expected ${posts}`);
      await new Promise((r) => setTimeout(r, settleMs));
      const mem = memory(service.pid);
      const row = { threads, listeningS, firstAnswerS: sec(answeredMs), cpuS: Number(cpuS.toFixed(1)), rssMB: mem.rss, peakRssMB: mem.peak, heapsMB: heapList(service.heaps) };
      console.log(JSON.stringify(row));
      rows.push(row);
    } finally {
      await service.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  results['memory'] = rows;
}

if (part === 'bringup' || part === 'all') {
  if (!natsAvailable) throw new Error(natsSkipMessage);
  const stream = 'bringup';
  const nats = await startNatsCluster();
  const dirs: string[] = [];
  const services: Service[] = [];
  try {
    const probe = await JetStreamLog.open({ servers: nats.urls, stream });
    const nc = await connect({ servers: [...nats.urls] });
    try {
      // The import's messages (one per record, never read: the snapshot holds them), then purged, so the
      // stream's next message is the one after the snapshot's position. A purge past the last sequence
      // alone is not enough: nats-server 2.9.10 then checks Nats-Expected-Last-Sequence against 0.
      const js = jetstream(nc);
      for (let seq = 1; seq <= lsn; seq += 100) {
        await Promise.all(Array.from({ length: Math.min(100, lsn - seq + 1) }, () => js.publish(`${stream}.log`, new Uint8Array(0))));
      }
      await (await jetstreamManager(nc)).streams.purge(stream, { seq: lsn + 1 });
    } finally {
      await nc.close();
    }
    const last = await probe.lastSequence();
    await probe.close();
    if (last !== lsn) throw new Error(`the stream ends at ${last} after the purge, not at ${lsn}`);
    const bytes = readFileSync(join(keptDir, snapshotFileName(lsn)));
    const { header, bodyOffset } = readSnapshotHeader(bytes, snapshotFileName(lsn));
    const aDir = workingCopy('a', Buffer.concat([snapshotHead({ ...header, sharedLogPosition: lsn }), bytes.subarray(bodyOffset)]));
    dirs.push(aDir);
    const cluster = ['--cluster', nats.urls.join(','), '--cluster-stream', stream, '--threads', '1'];
    const a = startService('a', aDir, cluster);
    services.push(a);
    await listening(a);
    const aStart = { firstAnswerS: sec(Date.now() - a.started), cpuS: Number(((cpuMicros(a.pid) ?? 0) / 1e6).toFixed(1)), posts: await postCount(a) };
    console.log('A', JSON.stringify(aStart));
    // This build's snapshot is what B downloads.
    const snapped = await fetch(`${a.url}/admin/snapshot`, { method: 'POST' });
    if (snapped.status !== 200) throw new Error(`POST /admin/snapshot: ${snapped.status} ${await snapped.text()}`);
    for (let i = 0; i < catchUp; i += 1_000) {
      const input = Array.from({ length: Math.min(1_000, catchUp - i) }, (_, k) => ({ handle: `bringup-${i + k}`, name: `Bring-up ${i + k}` }));
      const added = await fetch(`${a.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', variables: { input } }),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await added.text();
      if (added.status !== 200 || text.includes('"errors"')) throw new Error(`addAuthor on A: ${added.status} ${text.slice(0, 300)}`);
    }
    const aState = await state(a);
    const aCpu0 = cpuMicros(a.pid) ?? 0;
    const bDir = mkdtempSync(join(tmpdir(), 'bringup-b-'));
    dirs.push(bDir);
    const b = startService('b', bDir, [...cluster, '--cluster-seed', a.url]);
    services.push(b);
    await listening(b);
    const lastAdded = `bringup-${catchUp - 1}`;
    const read = (await graphql(b, `{ getAuthor(handle: "${lastAdded}") { handle } }`)) as { getAuthor: { handle: string } | null };
    const answered = { time: Date.now(), cpuUs: cpuMicros(b.pid) ?? 0 };
    if (catchUp > 0 && read.getAuthor?.handle !== lastAdded) throw new Error(`B does not hold ${lastAdded}`);
    const bState = await state(b);
    if (bState.digest !== aState.digest || bState.lsn !== aState.lsn) throw new Error(`B ${JSON.stringify(bState)} differs from A ${JSON.stringify(aState)}`);
    const aServed = ((cpuMicros(a.pid) ?? 0) - aCpu0) / 1e6;
    await new Promise((r) => setTimeout(r, settleMs));
    const bMem = memory(b.pid);
    // Phases: from one log line of B to the next (wall from the lines' times, CPU read as each arrived).
    const marks: [string, { time: number; cpuUs: number }][] = [['spawned', { time: b.started, cpuUs: 0 }]];
    const mark = (label: string, pattern: RegExp, field?: string): void => {
      const line = b.lines.find((l) => pattern.test(l.msg) && (field === undefined || String(l.fields['done']).startsWith(field)));
      if (line !== undefined) marks.push([label, line]);
    };
    mark('start-up to the download\'s end (seeded from a peer)', /^seeded from a peer/);
    mark('read + checksum + decode (files read and checked)', /^restoring/, 'files read and checked');
    // The store's import builds each column's indexes as it goes (GraphStore.importSnapshot): a line per column.
    const known = ['files read and checked', 'snapshot loaded', 'schema and indexes built'];
    for (const line of b.lines) {
      const done = line.fields['done'];
      if (/^restoring/.test(line.msg) && typeof done === 'string' && !known.includes(done) && !/log records replayed$/.test(done)) marks.push([`import ${done}`, line]);
    }
    mark('import the edges (snapshot loaded)', /^restoring/, 'snapshot loaded');
    mark('schema deploy (schema and indexes built)', /^restoring/, 'schema and indexes built');
    mark('to the restored line', /^restored/);
    mark('stream catch-up (joined the cluster)', /^joined the cluster/);
    mark('to listening', startLine);
    marks.push(['first answered read', answered]);
    const phases = marks.slice(1).map(([label, at], i) => {
      const before = (marks[i] as [string, { time: number; cpuUs: number }])[1];
      const cpu = (at.cpuUs - before.cpuUs) / 1e6;
      return { phase: label, wallS: sec(at.time - before.time), cpuS: Number.isNaN(cpu) ? null : Number(cpu.toFixed(1)) };
    });
    // The lines of the synchronous restore arrive together after it: its CPU as one figure, between the timely lines around it.
    const timely = marks.filter(([, at]) => !Number.isNaN(at.cpuUs));
    const decoded = timely.findIndex(([label]) => label.startsWith('read + checksum'));
    const restoreCpuS = decoded < 0 ? null : Number((((timely[decoded + 1]?.[1].cpuUs ?? 0) - (timely[decoded]?.[1].cpuUs ?? 0)) / 1e6).toFixed(1));
    const restoreUntil = decoded < 0 ? '' : timely[decoded + 1]?.[0];
    const joined = b.lines.find((l) => /^joined the cluster/.test(l.msg))?.fields;
    const bringup = {
      aStart,
      totalWallS: sec(answered.time - b.started),
      totalCpuS: Number((answered.cpuUs / 1e6).toFixed(1)),
      phases,
      restoreCpuS,
      restoreUntil,
      joined: { from: joined?.['from'], sequence: joined?.['sequence'] },
      bRssMB: bMem.rss,
      bPeakRssMB: bMem.peak,
      bHeapsMB: heapList(b.heaps),
      aCpuServingS: Number(aServed.toFixed(1)),
      snapshotBytes: readdirSync(bDir).filter((n) => n.startsWith('snap-')).map((n) => readFileSync(join(bDir, n)).length),
      digest: bState.digest,
    };
    console.log(JSON.stringify(bringup, null, 1));
    results['bringup'] = bringup;
  } catch (error) {
    for (const service of services) console.error(`--- ${service.name}:\n${service.output().slice(-4000)}`);
    throw error;
  } finally {
    for (const service of services) await service.kill();
    await nats.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

results['load'] = { before: loadBefore.map((l) => l.toFixed(1)), after: loadavg().map((l) => l.toFixed(1)) };
console.log('load average before / after:', results['load']);
mkdirSync(join(projectRoot, 'bench/results'), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(results, null, 1)}\n`);
