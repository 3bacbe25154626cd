// Where a write shape's cost comes from (issue #20's add and delete): the matrix's add and delete and
// the two halves of delete — deleting one generated post by its slug (one the matrix's delete never
// names, in a shuffled order), and adding a whole generated post (every field, every index) — in one engine with a data directory (durable-fixture.ts: log
// written, fsync off), in alternating rounds of `--group` requests at once, so all shapes see the same
// noise. The figure is CPU time per request (process.cpuUsage): the median and the least round.
// `--profile <dir>`: a CPU profile of each shape's rounds alone, written as <dir>/<shape>.cpuprofile.
// `--shapes add,delete`: only those (a profile of many more requests of one shape: --ops is per round).
// Run: taskset -c 1 node dist/bench/micro/write-split.js <abs dist> [--posts 10000] [--rounds 10] [--ops 200] [--group 20] [--shapes a,b] [--profile <dir>]

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PostRecord } from '../data/dataset.js';
import type * as ScenariosModule from '../scenarios.js';
import type * as FixtureModule from './durable-fixture.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const [dist] = argv;
if (dist === undefined) throw new Error('usage: write-split.js <abs dist> [--posts n] [--rounds n] [--ops n] [--group n] [--profile dir]');
const posts = Number(flag('--posts') ?? 10_000);
const rounds = Number(flag('--rounds') ?? 10);
const opsPerRound = Number(flag('--ops') ?? 200);
const group = Number(flag('--group') ?? 20);
const profileDir = flag('--profile');
const only = flag('--shapes')?.split(',');

const { openDurable } = (await import(resolve(dist, 'bench/micro/durable-fixture.js'))) as typeof FixtureModule;
const { buildScenarios } = (await import(resolve(dist, 'bench/scenarios.js'))) as typeof ScenariosModule;
const dir = mkdtempSync(join(tmpdir(), 'write-split-'));
const { engine, data } = await openDurable(dist, dir, posts, true);

type Shape = { readonly document: string; readonly variables: (n: number) => Record<string, unknown> };
const scenarios = buildScenarios(data);
const scenario = (name: string): (typeof scenarios)[number] => {
  const found = scenarios.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no ${name} shape in this build`);
  return found;
};
const matrix = (name: string): Shape => {
  const s = scenario(name);
  return { document: s.document, variables: (n) => s.variables({ idOf: () => 'unused' }, n, 'split') };
};
const matrixVariants = (name: string): number => scenario(name).variants;
/** A fixed permutation (a seeded Fisher-Yates), the same in every run. */
function shuffled<T>(items: T[]): T[] {
  let seed = 20;
  for (let i = items.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    const j = seed % (i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
const postInput = (n: number, slug: string): Record<string, unknown> => {
  const post = data.posts[n % data.posts.length] as PostRecord;
  return { ...post, slug, author: { handle: data.authors[post.author]?.handle ?? '' } };
};
const deleteShape = matrix('delete');
// delete-only takes generated posts the matrix's delete never names (it would then delete nothing, and
// add back a post that was gone), in a fixed shuffled order: old posts from anywhere in the lists, as
// the matrix's delete takes them (the newest ids sit at the lists' ends, where a removal is a pop).
const named = new Set(Array.from({ length: matrixVariants('delete') }, (_, n) => deleteShape.variables(n)['slug']));
const victims = shuffled(data.posts.map((p) => p.slug).filter((slug) => !named.has(slug)));
if ((only === undefined || only.includes('delete-only')) && rounds * opsPerRound > victims.length) throw new Error(`delete-only would run out of posts (${victims.length}): fewer rounds or ops, or more posts`);
const shapes: Readonly<Record<string, Shape>> = {
  add: matrix('add'),
  'add-whole-post': { document: 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', variables: (n) => ({ input: [postInput(n, `whole-${n}`)] }) },
  'delete-only': { document: 'mutation ($slug: String!) { deletePost(filter: { slug: { eq: $slug } }) { numUids } }', variables: (n) => ({ slug: victims[n] }) },
  delete: deleteShape,
};

const run = async (shape: Shape, n: number): Promise<void> => {
  const body = String((await engine.execute({ method: 'POST', query: shape.document, variables: shape.variables(n), headers: {} })).body);
  if (body.includes('"errors"') || !body.includes('"numUids":1')) throw new Error(body.slice(0, 300));
};

const names = Object.keys(shapes).filter((name) => only === undefined || only.includes(name));
if (names.length === 0) throw new Error(`--shapes names none of ${Object.keys(shapes).join(', ')}`);
const next = new Map(names.map((name) => [name, 0]));
const cpu = new Map(names.map((name) => [name, [] as number[]]));
/** One round of `name`: CPU µs per request. */
async function round(name: string): Promise<number> {
  const shape = shapes[name] as Shape;
  const used = process.cpuUsage();
  for (let i = 0; i < opsPerRound; i += group) {
    const batch: Promise<void>[] = [];
    for (let k = i; k < Math.min(opsPerRound, i + group); k++) {
      const n = next.get(name) as number;
      next.set(name, n + 1);
      batch.push(run(shape, n));
    }
    await Promise.all(batch);
  }
  const spent = process.cpuUsage(used);
  return (spent.user + spent.system) / opsPerRound;
}

const session = new Session();
session.connect();
const profiles = new Map<string, object>();
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 === 0 ? names : [...names].reverse()) {
    // The profiled shape's rounds are profiled one at a time (the profiler's overhead stays out of the others).
    if (profileDir !== undefined && r === rounds - 1) {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      await round(name);
      profiles.set(name, (await session.post('Profiler.stop')).profile);
    } else (cpu.get(name) as number[]).push(await round(name));
  }
}
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
console.log(`${posts} posts, a data directory (fsync off), ${group} requests at once; CPU µs per request over ${cpu.get(names[0] as string)?.length ?? 0} alternating rounds of ${opsPerRound}`);
for (const name of names) {
  const values = cpu.get(name) as number[];
  console.log(`${name.padEnd(15)} median ${median(values).toFixed(1).padStart(7)}   least ${Math.min(...values).toFixed(1).padStart(7)}`);
}
if (profileDir !== undefined) {
  mkdirSync(profileDir, { recursive: true });
  for (const [name, profile] of profiles) writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
  console.log(`CPU profiles of the last round: ${profileDir}/<shape>.cpuprofile`);
}
session.disconnect();
await engine.close();
rmSync(dir, { recursive: true, force: true });
