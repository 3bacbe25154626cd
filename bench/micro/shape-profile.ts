// Where a read shape's time goes at a scale (issue #20's attribution): an engine loaded as the micro
// loads it (engine-fixture.ts), each shape's answers checked against the naive scan, then `--seconds`
// of its varied requests (the micro's own parameters) timed, then as long again under the CPU profiler.
// Prints the CPU µs per request of the unprofiled loop (process.cpuUsage: time descheduled by other work
// left out) and the heaviest functions
// by self time; writes <dir>/<shape>-<posts>.cpuprofile. Each shape is first warmed by `--warm`
// requests (caches and bitsets the micro's rounds would build) so the loop shows the steady state.
// Run: taskset -c 0 node --expose-gc --max-old-space-size=12000 dist/bench/micro/shape-profile.js --shapes term-all-2,fulltext [--posts 100000] [--seconds 8] [--warm 2000] [--out <dir>]

import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDataset } from '../data/dataset.js';
import { buildScenarios } from '../scenarios.js';
import { loadedEngine, run } from './engine-fixture.js';
import { ids as contenderIds } from './micro-cases.js';
import { printSelfTimes, type CpuProfile } from './self-times.js';

const { values } = parseArgs({ options: { shapes: { type: 'string' }, posts: { type: 'string' }, seconds: { type: 'string' }, warm: { type: 'string' }, out: { type: 'string' } }, strict: true });
const posts = Number(values.posts ?? 100_000);
const seconds = Number(values.seconds ?? 8);
const warm = Number(values.warm ?? 2_000);
const out = values.out ?? 'shape-profiles';
const data = generateDataset({ posts, authors: Math.max(100, posts / 10) });
const scenarios = buildScenarios(data).filter((s) => (values.shapes ?? '').split(',').includes(s.name));
if (scenarios.length === 0) throw new Error(`--shapes names none of: ${buildScenarios(data).map((s) => s.name).join(', ')}`);
const engine = await loadedEngine(data);
const ids = await contenderIds(engine, data);
const tag = `micro-${posts}`;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
mkdirSync(out, { recursive: true });
for (const scenario of scenarios) {
  for (let n = 0; n < 3; n++) {
    const body = await run(engine, scenario.document, scenario.variables(ids, n, `${tag}-check`));
    const wrong = scenario.check((JSON.parse(body) as { data: unknown }).data, ids, n, `${tag}-check`);
    if (wrong !== null) throw new Error(`${scenario.name} answers request ${n} wrongly: ${wrong}`);
  }
  let i = 0;
  for (; i < warm; i++) await run(engine, scenario.document, scenario.variables(ids, i, tag));
  // The CPU figure comes from a loop without the profiler (its sampling counted in process.cpuUsage: 10-30 %, more
  // at 1M), after a full collection (what loading 1M posts left would otherwise be marked inside it).
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  let until = performance.now() + seconds * 1000;
  let ops = 0;
  for (; performance.now() < until; ops++) await run(engine, scenario.document, scenario.variables(ids, i++, tag));
  const used = process.cpuUsage(cpu);
  await session.post('Profiler.start');
  until = performance.now() + seconds * 1000;
  while (performance.now() < until) await run(engine, scenario.document, scenario.variables(ids, i++, tag));
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(out, `${scenario.name}-${posts}.cpuprofile`), JSON.stringify(profile));
  printSelfTimes(`${scenario.name} at ${posts} posts: ${((used.user + used.system) / ops).toFixed(1)} CPU µs per request over ${ops}`, profile as CpuProfile);
}
await engine.close();
