// How long a snapshot stalls the event loop (and so every client): an engine of one build with a data
// directory, loaded with the generated data set, takes snapshots while a reader sends a small query
// every 2 ms. Per snapshot: wall time, process CPU (GC threads included), the event loop's longest
// delay (perf_hooks), the worst read latency, and the heap / RSS growth at its peak (the capture's copy).
// Run: taskset -c 0 node --expose-gc dist/bench/micro/snapshot-stall.js <dist> [--posts 100000] [--snapshots 3] [--baseline-ms 15000]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDurable } from './durable-fixture.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dist = argv[0];
if (dist === undefined) throw new Error('usage: snapshot-stall.js <dist> [--posts n] [--snapshots n]');
const posts = Number(flag('--posts') ?? 100_000);
const snapshots = Number(flag('--snapshots') ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'snapshot-stall-'));
const { engine, run, data } = await openDurable(resolve(dist), dir, posts, true);
const read = 'query ($slug: String!) { getPost(slug: $slug) { slug score } }';

/** `--baseline-ms n`: first, the same reader for n ms with no snapshot (what the heap's own GCs cost reads at this size). */
const baselineMs = Number(flag('--baseline-ms') ?? 0);

for (let s = baselineMs > 0 ? -1 : 0; s < snapshots; s++) {
  // One more mutation each time, so every snapshot has something new to write.
  await run('mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', { input: [{ handle: `stall-${s}`, name: 'x' }] });
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage();
  let peakHeap = heap0.heapUsed;
  let peakRss = heap0.rss;
  let worstRead = 0;
  let reads = 0;
  let done = false;
  const reader = (async () => {
    while (!done) {
      // Latency from when the client meant to send (2 ms after the previous answer): a stall that delays
      // the timer delays the read as much as one that delays its answer.
      const due = performance.now() + 2;
      await new Promise((r) => setTimeout(r, 2));
      await run(read, { slug: data.posts[reads % data.posts.length]?.slug ?? '' });
      worstRead = Math.max(worstRead, performance.now() - due);
      reads++;
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }
  })();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = s < 0 ? await new Promise<{ ok: true }>((r) => setTimeout(() => r({ ok: true }), baselineMs)) : await engine.snapshot();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  done = true;
  await reader;
  if (!result.ok) throw new Error(result.message);
  const mb = (bytes: number): string => (bytes / 1048576).toFixed(0);
  console.log(
    `posts ${posts} ${s < 0 ? 'no snapshot (baseline)' : `snapshot ${s}`}: wall ${wall.toFixed(0)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, loop stall max ${(delay.max / 1e6).toFixed(0)} ms, ` +
      `worst read ${worstRead.toFixed(0)} ms over ${reads} reads, heap +${mb(peakHeap - heap0.heapUsed)} MB, rss +${mb(peakRss - heap0.rss)} MB`,
  );
}
await engine.close();
rmSync(dir, { recursive: true, force: true });
