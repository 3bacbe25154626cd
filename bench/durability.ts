// Durability costs, in-process over the engine facade (checks its answers before timing):
//  1. mutation throughput with the log at fsync=everysec vs. no data directory (target ≥ 0.8);
//  2. with N nodes (default 1,000,000; 3 indexes): snapshot write time and time from open to serving.
// Run: npx tsc -p tsconfig.json && node dist/bench/durability.js [nodes]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type EngineOptions } from '../engine/index.js';

const schema = `type Item { key: String! @id @search(by: [hash]) n: Int @search label: String @search(by: [term]) }`;
const quiet = { info: () => undefined, warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) };

function options(dataDir: string, extra: Partial<EngineOptions> = {}): EngineOptions {
  return { dataDir, maxQueryTokens: 1_000_000, maxQueryDepth: 100, debug: false, fsync: 'everysec', snapshotEveryMutations: 0, snapshotIntervalSeconds: 0, log: quiet, ...extra };
}

async function add(engine: Engine, from: number, count: number): Promise<void> {
  const input = Array.from({ length: count }, (_, i) => ({ key: `k${from + i}`, n: from + i, label: `item number ${from + i}` }));
  const response = await engine.execute({ method: 'POST', headers: {}, query: 'mutation ($input: [AddItemInput!]!) { addItem(input: $input) { numUids } }', variables: { input } });
  if (!response.body.includes(`"numUids":${count}`)) throw new Error(`add failed: ${response.body.slice(0, 300)}`);
}

async function throughput(dataDir: string, ops: number): Promise<number> {
  const engine = await Engine.open(options(dataDir));
  await engine.updateSchema(schema);
  for (let i = 0; i < 2000; i++) await add(engine, i, 1); // warm-up
  const started = performance.now();
  const batch: Promise<void>[] = [];
  for (let i = 0; i < ops; i++) {
    batch.push(add(engine, 10_000 + i, 1));
    if (batch.length === 64) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  const perSecond = ops / ((performance.now() - started) / 1000);
  await engine.close();
  return perSecond;
}

async function main(): Promise<void> {
  const nodes = Number(process.argv[2] ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-durability-'));
  try {
    const ops = 30_000;
    const base = await throughput('', ops);
    const logged = await throughput(join(dir, 'tput'), ops);
    console.log(`throughput: no log ${Math.round(base)}/s, log everysec ${Math.round(logged)}/s, ratio ${(logged / base).toFixed(2)} (target ≥ 0.80)`);

    const data = join(dir, 'big');
    const engine = await Engine.open(options(data));
    await engine.updateSchema(schema);
    for (let i = 0; i < nodes; i += 5000) await add(engine, i, Math.min(5000, nodes - i));
    let t = performance.now();
    const snap = await engine.snapshot();
    if (!snap.ok) throw new Error(snap.message);
    console.log(`snapshot of ${nodes} nodes: ${Math.round(performance.now() - t)} ms, ${(snap.bytes / 1e6).toFixed(1)} MB (target < 10000 ms)`);
    await engine.close();
    t = performance.now();
    const reopened = await Engine.open(options(data));
    const check = await reopened.execute({ method: 'POST', headers: {}, query: `{ getItem(key: "k${nodes - 1}") { n } q: queryItem(filter: { label: { anyofterms: "number" } }, first: 1) { key } }` });
    const ms = Math.round(performance.now() - t);
    if (!check.body.includes(`"n":${nodes - 1}`)) throw new Error(`restore check failed: ${check.body}`);
    console.log(`restart to first answered query with ${nodes} nodes: ${ms} ms (target < 10000 ms)`);
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
