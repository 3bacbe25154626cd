// Issue #16's CPU per read with two threads, without HTTP, the kernel or wrk: two worker threads each
// load the same engine (as two replicas do) and run the same shape's requests (Engine.execute on the
// same 500 bodies, parameters varying), either one worker alone or both at once, alternating. The
// process's CPU time over the ops run is the CPU per op; with both at once the only difference is two
// busy cores sharing the machine's caches, memory and (on a VM) the host's cores. Both idle between phases.
// Run: npm run build && node dist/bench/micro/threads-contention.js [--posts 10000] [--shapes term-any,filtered-list,get-by-id] [--rounds 6] [--ops 20000]

import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { generateDataset } from '../data/dataset.js';
import { idPool } from '../matrix/varied-shape.js';
import { buildScenarios } from '../scenarios.js';
import { loadedEngine, run } from './engine-fixture.js';

type Order = { readonly shape: string; readonly ops: number };

if (isMainThread) {
  const { values } = parseArgs({ options: { posts: { type: 'string' }, shapes: { type: 'string' }, rounds: { type: 'string' }, ops: { type: 'string' } }, strict: true });
  const posts = Number(values.posts ?? 10_000);
  const shapes = (values.shapes ?? 'term-any,filtered-list,get-by-id').split(',');
  const rounds = Number(values.rounds ?? 6);
  const ops = Number(values.ops ?? 20_000);
  const workers = [0, 1].map(() => new Worker(new URL(import.meta.url), { workerData: { posts, shapes } }));
  const replies = workers.map((w) => {
    let waiting: ((value: unknown) => void) | undefined;
    w.on('message', (m) => waiting?.(m));
    w.on('error', (e) => {
      console.error(e);
      process.exit(1);
    });
    return (order: Order | 'ready'): Promise<unknown> =>
      new Promise((resolve) => {
        waiting = resolve;
        if (order !== 'ready') w.postMessage(order);
      });
  });
  await Promise.all(replies.map((ask) => ask('ready')));
  const cpu = (): number => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const median = (list: readonly number[]): number => [...list].sort((a, b) => a - b)[list.length >> 1] ?? NaN;
  console.log(`${posts} posts; CPU µs per op (the process's user + system over the ops), median of ${rounds} rounds of ${ops} ops per busy worker, one worker alone and both at once alternating`);
  for (const shape of shapes) {
    await Promise.all(replies.map((ask) => ask({ shape, ops })));
    const alone: number[] = [];
    const both: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const pair of r % 2 === 0 ? [false, true] : [true, false]) {
        const started = cpu();
        await Promise.all((pair ? replies : replies.slice(r % 2, r % 2 + 1)).map((ask) => ask({ shape, ops })));
        (pair ? both : alone).push((cpu() - started) / (pair ? 2 * ops : ops));
      }
    }
    const ratios = both.map((b, i) => b / (alone[i] as number));
    console.log(`${shape.padEnd(16)} alone ${median(alone).toFixed(2).padStart(7)}  both ${median(both).toFixed(2).padStart(7)}  both/alone ${median(ratios).toFixed(3)} (rounds: ${ratios.map((x) => x.toFixed(2)).join(' ')})`);
  }
  await Promise.all(workers.map((w) => w.terminate()));
} else {
  const { posts, shapes } = workerData as { posts: number; shapes: readonly string[] };
  const data = generateDataset({ posts, authors: Math.max(100, posts / 10) });
  const engine = await loadedEngine(data);
  const body = await run(engine, 'query ($s: [String]) { queryPost(filter: { slug: { in: $s } }) { id slug } }', { s: idPool(data) });
  const found = new Map((JSON.parse(body) as { data: { queryPost: { id: string; slug: string }[] } }).data.queryPost.map((p) => [p.slug, p.id]));
  const ids = { idOf: (slug: string): string => found.get(slug) ?? `no id for ${slug}` };
  const scenarios = buildScenarios(data).filter((s) => shapes.includes(s.name) && s.numbered === undefined);
  const requests = new Map(scenarios.map((s) => [s.name, Array.from({ length: 500 }, (_, i) => ({ query: s.document, variables: s.variables(ids, i, 'contention') }))]));
  const port = parentPort;
  if (port === null) throw new Error('no parent port');
  port.on('message', (order: Order) => {
    void (async () => {
      const list = requests.get(order.shape) ?? [];
      for (let i = 0; i < order.ops; i++) {
        const request = list[i % list.length];
        if (request !== undefined) await engine.execute({ method: 'POST', query: request.query, variables: request.variables, headers: {} });
      }
      port.postMessage('done');
    })();
  });
  port.postMessage('ready');
}
