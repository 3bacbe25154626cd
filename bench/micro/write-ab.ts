// The write shapes (add, update, delete) A against B in one process, durably: each build's engine has a
// data directory of its own (mutation log, fsync as configured, snapshots as the server takes them), so
// a mutation goes through the commit queue as it does behind the server (request-ab.ts's engines keep
// no log). `--group` requests are issued at once and the queue commits them as one group, as it does
// for the requests wrk's connections land in one turn (50 connections: groups of ~30). Rounds
// alternate between the builds; the figure is CPU time (process.cpuUsage: the log's write and fsync
// syscalls and V8's GC threads included) and wall time per request. Answers are checked equal first.
// Run: taskset -c 1 node dist/bench/micro/write-ab.js <distA> <distB> [--posts 10000] [--shapes add,delete] [--rounds 8] [--ops 2000] [--group 32]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as EngineModule from '../../engine/index.js';
import type * as DatasetModule from '../data/dataset.js';
import type * as SchemaModule from '../schema.js';
import type * as ScenariosModule from '../scenarios.js';
import type { Scenario, ContenderIds } from '../scenarios.js';

type Build = {
  readonly engine: EngineModule.Engine;
  readonly dir: string;
  readonly scenarios: readonly Scenario[];
};

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const [distA, distB] = argv;
if (distA === undefined || distB === undefined) throw new Error('usage: write-ab.js <distA> <distB> [--posts n] [--shapes a,b] [--rounds n] [--ops n] [--group n]');
const posts = Number(flag('--posts') ?? 10_000);
const shapes = (flag('--shapes') ?? 'add,update,delete').split(',');
const rounds = Number(flag('--rounds') ?? 8);
const opsPerRound = Number(flag('--ops') ?? 2_000);
const group = Number(flag('--group') ?? 32);
const noIds: ContenderIds = { idOf: (slug) => `no id for ${slug}` };

async function load(dist: string): Promise<Build> {
  const from = (path: string): string => resolve(dist, path);
  const { Engine } = (await import(from('engine/index.js'))) as typeof EngineModule;
  const { generateDataset } = (await import(from('bench/data/dataset.js'))) as typeof DatasetModule;
  const { buildScenarios } = (await import(from('bench/scenarios.js'))) as typeof ScenariosModule;
  const { serviceSdl } = (await import(from('bench/schema.js'))) as typeof SchemaModule;
  const data = generateDataset({ posts, authors: Math.max(100, posts / 10) });
  const dir = mkdtempSync(join(tmpdir(), 'write-ab-'));
  const engine = await Engine.open({ dataDir: dir, maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false, log: { info: () => undefined, warn: console.warn, error: console.error } });
  if (!(await engine.updateSchema(serviceSdl)).ok) throw new Error('schema rejected');
  const run = async (query: string, variables: Record<string, unknown>): Promise<void> => {
    const body = String((await engine.execute({ method: 'POST', query, variables, headers: {} })).body);
    if (body.includes('"errors"')) throw new Error(body.slice(0, 300));
  };
  await run('mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', { input: data.authors.map((a) => ({ handle: a.handle, name: a.name })) });
  for (let i = 0; i < data.posts.length; i += 1_000) {
    const input = data.posts.slice(i, i + 1_000).map((p) => ({ ...p, author: { handle: data.authors[p.author]?.handle ?? '' } }));
    await run('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
  }
  return { engine, dir, scenarios: buildScenarios(data).filter((s) => s.isMutation && shapes.includes(s.name)) };
}

/** Request `i` of a shape (each build numbers its own, so both send the same sequence); the answer without its request id. */
function requester(build: Build, scenario: Scenario): (i: number) => Promise<string> {
  return async (i) => {
    const request = { method: 'POST' as const, query: scenario.document, variables: scenario.variables(noIds, i, 'ab'), headers: {} };
    return String((await build.engine.execute(request)).body).replace(/"requestID":"[^"]*"/, '"requestID":""').replace(/"id":"0x[0-9a-f]+"/g, '"id":""');
  };
}

/** Requests from..from+n, `group` at a time. */
async function runGroups(op: (i: number) => Promise<string>, from: number, n: number): Promise<void> {
  for (let i = 0; i < n; i += group) {
    const batch: Promise<string>[] = [];
    for (let k = i; k < Math.min(n, i + group); k++) batch.push(op(from + k));
    await Promise.all(batch);
  }
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

const builds = [await load(distA), await load(distB)] as const;
console.log(`${posts} posts, durable (a data directory each), ${group} requests at once; µs per request: median of ${rounds} alternating rounds of ${opsPerRound}`);
let next = 0;
for (const scenario of builds[0].scenarios) {
  const other = builds[1].scenarios.find((s) => s.name === scenario.name);
  if (other === undefined) continue;
  const ops = [requester(builds[0], scenario), requester(builds[1], other)] as const;
  for (let i = 0; i < 50; i++, next++) {
    const [a, b] = [await ops[0](next), await ops[1](next)];
    if (a !== b) throw new Error(`${scenario.name}: the builds answer request ${next} differently:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
  }
  for (const op of ops) await runGroups(op, next, opsPerRound);
  next += opsPerRound;
  const cpu: [number[], number[]] = [[], []];
  const wall: [number[], number[]] = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const started = process.hrtime.bigint();
      const used = process.cpuUsage();
      await runGroups(ops[side], next, opsPerRound);
      const spent = process.cpuUsage(used);
      cpu[side].push((spent.user + spent.system) / opsPerRound);
      wall[side].push(Number(process.hrtime.bigint() - started) / 1e3 / opsPerRound);
    }
    next += opsPerRound;
  }
  const ratio = median(cpu[1].map((b, r) => b / (cpu[0][r] as number)));
  const f = (v: number[]): string => median(v).toFixed(1).padStart(7);
  console.log(`${scenario.name.padEnd(8)} cpu A ${f(cpu[0])}  B ${f(cpu[1])}  B/A ${ratio.toFixed(3)}   wall A ${f(wall[0])}  B ${f(wall[1])}`);
}
for (const build of builds) {
  await build.engine.close();
  rmSync(build.dir, { recursive: true, force: true });
}
