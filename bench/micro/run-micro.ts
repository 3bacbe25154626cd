// Engine micro-benchmarks at several data sizes, one case per matrix shape.
// Run: node dist/bench/micro/run-micro.js [--quick] [--out <file>] [--scenario <a,b>] [--scales <n,n>]
// Prints a table; with --out also writes the results as JSON (the suite runs this pinned to one core).

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateDataset } from '../data/dataset.js';
import { loadedEngine } from './engine-fixture.js';
import { fixedCases, scenarioCases, scenarioNames, type MicroResult } from './micro-cases.js';
import { authRuleCases } from './auth-rule-cases.js';
import { requestFiguresCases } from './request-metrics-cost.js';

export interface MicroReport {
  readonly scales: readonly number[];
  readonly results: readonly MicroResult[];
  readonly loadSeconds: Readonly<Record<string, number>>;
}

const usage = 'usage: node dist/bench/micro/run-micro.js [--quick] [--out <file>] [--scenario <a,b>] [--scales <n,n>]';
// Strict: a mistyped flag (or --help) must not silently start a run of every case at every scale.
let parsed;
try {
  parsed = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' }, scenario: { type: 'string' }, scales: { type: 'string' }, help: { type: 'boolean' } }, strict: true });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (parsed.values.help === true) {
  console.log(usage);
  process.exit(0);
}
const quick = parsed.values.quick === true;
const out = parsed.values.out;
const only = parsed.values.scenario?.split(',') ?? null;
const scales = parsed.values.scales?.split(',').map(Number) ?? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]);
if (scales.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error(`--scales takes positive integers\n${usage}`);
  process.exit(2);
}
const known = scenarioNames(generateDataset({ posts: 100, authors: 100 }));
const unknown = only?.filter((name) => !known.includes(name)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}
const options = quick ? { rounds: 5, roundMs: 60 } : { rounds: 9, roundMs: 200 };

const results: MicroResult[] = [];
const loadSeconds: Record<string, number> = {};
for (const posts of scales) {
  const data = generateDataset({ posts, authors: Math.max(100, posts / 10) });
  const started = process.hrtime.bigint();
  const engine = await loadedEngine(data);
  loadSeconds[String(posts)] = Number(process.hrtime.bigint() - started) / 1e9;
  results.push(...(await scenarioCases(engine, data, options, only)));
  if (posts === scales[0]) results.push(...(await fixedCases(engine, data, options)), ...(only === null ? [...(await authRuleCases(posts, options.rounds)), ...requestFiguresCases()] : []));
  await engine.close();
  console.error(`micro: ${posts} posts done (load ${loadSeconds[String(posts)]?.toFixed(1)} s)`);
}

const report: MicroReport = { scales, results, loadSeconds };
if (out !== undefined) writeFileSync(out, JSON.stringify(report));
else for (const r of results) console.log(`${r.name.padEnd(45)} ${String(r.nodes).padStart(8)} nodes ${r.usPerOp.toFixed(2).padStart(10)} µs/op`);
