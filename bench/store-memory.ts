// Memory and load throughput of the graph store: 1M nodes × (4 scalars, 2 edges), 3 indexes.
// Run: node --expose-gc --import tsx bench/store-memory.ts [nodes]

import { GraphStore } from '../engine/store/graph-store.js';
import type { HashIndex } from '../engine/indexes/hash-index.js';
import type { OrderedIndex } from '../engine/indexes/ordered-index.js';

const N = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;

function heapMB(): { heap: number; rss: number; ext: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 2 ** 20, rss: m.rss / 2 ** 20, ext: m.external / 2 ** 20 };
}

let seed = 12345;
/** mulberry32 */
function rnd(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) % n);
}

const before = heapMB();
const store = new GraphStore();
const name = store.scalar('Person.name');
const age = store.scalar('Person.age');
const score = store.scalar('Person.score');
const born = store.scalar('Person.born');
const hash = name.ensureIndex('hash') as HashIndex;
const ageIdx = age.ensureIndex('int') as OrderedIndex;
born.ensureIndex('year');
const friend = store.edges('Person.friend');
const owner = store.edges('Person.owner');

const names: string[] = [];
const dates: string[] = [];
for (let i = 0; i < N; i++) {
  names.push('person-' + i.toString(36));
  dates.push(`19${10 + rnd(89)}-0${1 + rnd(9)}-1${rnd(9)}T10:00:00Z`);
}
const base = heapMB();
console.log(`input strings alone: ${(base.heap - before.heap).toFixed(1)} MB`);
const t0 = performance.now();
let mark = base;
function phase(label: string): void {
  const m = heapMB();
  console.log(`  ${label}: ${(((m.heap + m.ext - mark.heap - mark.ext) * 2 ** 20) / N).toFixed(1)} B/node`);
  mark = m;
}
for (let i = 0; i < N; i++) store.addType(store.createNode(), 'Person');
phase('nodes + type');
for (let id = 1; id <= N; id++) name.set(id, names[id - 1] as string);
phase('name (string, shared) + hash index');
for (let id = 1; id <= N; id++) age.set(id, rnd(100));
phase('age (int) + int index');
for (let id = 1; id <= N; id++) score.set(id, rnd(1_000_000) / 7);
phase('score (float), no index');
for (let id = 1; id <= N; id++) born.set(id, dates[id - 1] as string);
phase('born (DateTime string, shared) + year index');
for (let id = 1; id <= N; id++) friend.add(id, 1 + rnd(N));
phase('friend edge (random target, both directions)');
for (let id = 1; id <= N; id++) owner.add(id, 1 + rnd(N));
phase('owner edge (random target, both directions)');
const t1 = performance.now();
const after = heapMB();
const perNode = ((after.heap + after.ext - base.heap - base.ext) * 2 ** 20) / N;
console.log(`load ${N} nodes: ${(t1 - t0).toFixed(0)} ms = ${Math.round(N / ((t1 - t0) / 1000))} nodes/s`);
console.log(
  `store heap+ext ${(after.heap + after.ext - base.heap - base.ext).toFixed(1)} MB, rss ${after.rss.toFixed(1)} MB, ${perNode.toFixed(0)} B/node (excluding the input strings)`,
);
console.log(store.stats());

// lookups
const probe = 'person-' + (12345).toString(36);
let sink = 0;
const reps = 100_000;
let t = performance.now();
for (let i = 0; i < reps; i++) sink += hash.eq(probe).length;
console.log(`hash eq: ${(((performance.now() - t) * 1000) / reps).toFixed(3)} µs`);
t = performance.now();
for (let i = 0; i < reps; i++) {
  const id = 1 + rnd(N);
  sink += (name.get(id) as string).length + (age.get(id) as number) + friend.out(id).length;
}
console.log(`get by id (2 scalars + out edges): ${(((performance.now() - t) * 1000) / reps).toFixed(3)} µs`);
t = performance.now();
for (let i = 0; i < 10_000; i++) sink += ageIdx.range({ lower: { value: 42, inclusive: true }, upper: { value: 42, inclusive: true } }).length;
console.log(`int range (1 key, ~${ageIdx.eq(42).length} ids): ${(((performance.now() - t) * 1000) / 10_000).toFixed(1)} µs`);
t = performance.now();
for (let i = 0; i < 1000; i++) {
  let k = 0;
  for (const _id of ageIdx.ordered('desc')) if (++k >= 10) break;
}
console.log(`ordered first 10: ${(performance.now() - t).toFixed(1)} µs`);
t = performance.now();
sink += store.nodesOfType('Person').length;
console.log(`nodesOfType: ${(performance.now() - t).toFixed(2)} ms`);
if (sink === 0) console.log('');
