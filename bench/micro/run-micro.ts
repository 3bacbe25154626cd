// Engine micro-benchmarks at several data sizes, one case per matrix shape.
// Run: node dist/bench/micro/run-micro.js [--quick] [--out <file>] [--scenario <a,b>] [--scales <n,n>]
// Prints a table; with --out also writes the results as JSON (the suite runs this pinned to one core).

import { writeFileSync } from 'node:fs';
import { generateDataset } from '../data/dataset.js';
import { loadedEngine } from './engine-fixture.js';
import { fixedCases, scenarioCases, type MicroResult } from './micro-cases.js';

export interface MicroReport {
  readonly scales: readonly number[];
  readonly results: readonly MicroResult[];
  readonly loadSeconds: Readonly<Record<string, number>>;
}

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const outIndex = argv.indexOf('--out');
const out = outIndex >= 0 ? argv[outIndex + 1] : undefined;
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = flag('--scenario')?.split(',') ?? null;
const scales = flag('--scales')?.split(',').map(Number) ?? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]);
const options = quick ? { rounds: 5, roundMs: 60 } : { rounds: 9, roundMs: 200 };

const results: MicroResult[] = [];
const loadSeconds: Record<string, number> = {};
for (const posts of scales) {
  const data = generateDataset({ posts, authors: Math.max(100, posts / 10) });
  const started = process.hrtime.bigint();
  const engine = await loadedEngine(data);
  loadSeconds[String(posts)] = Number(process.hrtime.bigint() - started) / 1e9;
  results.push(...(await scenarioCases(engine, data, options, only)));
  if (posts === scales[0]) results.push(...(await fixedCases(engine, data, options)));
  await engine.close();
  console.error(`micro: ${posts} posts done (load ${loadSeconds[String(posts)]?.toFixed(1)} s)`);
}

const report: MicroReport = { scales, results, loadSeconds };
if (out !== undefined) writeFileSync(out, JSON.stringify(report));
else for (const r of results) console.log(`${r.name.padEnd(45)} ${String(r.nodes).padStart(8)} nodes ${r.usPerOp.toFixed(2).padStart(10)} µs/op`);
