// The engine's per-request work for small answers, A against B in one process: two builds (their
// dist/ folders) each load the same data set, and each shape's requests run as the server runs them
// (the JSON body parsed by parseRequestJson, then Engine.execute), in alternating rounds, so both
// builds see the same machine noise. Both answer the same bodies (checked first). With --server the
// requests go through the whole HTTP request path instead (server/: headers, body, router, answer
// bytes) over a stand-in for uWS's native binding, so only the native calls and the kernel are left out.
// On a busy host `--cpu` times each round by the process's CPU time (user + system) instead of the wall
// clock: time spent descheduled by other processes is left out.
// `--layers` (one build: distA, distB ignored) splits a request's cost in one process instead: alternating
// rounds of the engine alone (the variables as objects, as the micro sends them), the body parsed then
// the engine, and the whole request path; each layer's cost is its difference from the one below.
// Run: taskset -c 1 node dist/bench/micro/request-ab.js <distA> <distB> [--posts 10000] [--shapes a,b] [--rounds 16] [--ops 5000] [--server] [--cpu] [--b-flag <server flag for B>] [--layers] [--bodies 500]

import { resolve } from 'node:path';
import type { Engine, GraphQLRequest } from '../../engine/index.js';
import type * as EngineModule from '../../engine/index.js';
import type * as DatasetModule from '../data/dataset.js';
import type * as VariedShapeModule from '../matrix/varied-shape.js';
import type * as ScenariosModule from '../scenarios.js';
import type { Scenario, ContenderIds } from '../scenarios.js';
import type * as FixtureModule from './engine-fixture.js';
import type * as TransportModule from '../../server/uws-transport.js';
import type * as HttpServerModule from '../../server/http-server.js';
import type * as ConfigModule from '../../server/config.js';
import type * as LogModule from '../../server/log.js';
import { fakeUws, type FakeUws } from './fake-uws.js';

type Build = {
  readonly engine: Engine;
  readonly parse: (text: string) => unknown;
  readonly scenarios: readonly Scenario[];
  readonly ids: ContenderIds;
  /** With --server: the request path over a stand-in binding. */
  readonly http?: FakeUws;
};

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const [distA, distB] = argv;
if (distA === undefined || distB === undefined) throw new Error('usage: request-ab.js <distA> <distB> [--posts n] [--shapes a,b] [--rounds n] [--ops n]');
const posts = Number(flag('--posts') ?? 10_000);
const shapes = (flag('--shapes') ?? 'get-by-id,get-by-xid,filtered-list,nested-edge,hash-eq,count').split(',');
const rounds = Number(flag('--rounds') ?? 16);
const opsPerRound = Number(flag('--ops') ?? 5_000);
/** Distinct bodies each shape cycles through (wrk's runs cycle through 1,000 variants). */
const bodyCount = Number(flag('--bodies') ?? 500);
const layers = argv.includes('--layers');
const throughServer = layers || argv.includes('--server');
const cpuClock = argv.includes('--cpu');
/** Microseconds: the wall clock, or with --cpu this process's CPU time. */
const clock = (): number => {
  if (!cpuClock) return Number(process.hrtime.bigint()) / 1e3;
  const { user, system } = process.cpuUsage();
  return user + system;
};
/** Extra server flags for build B only (e.g. `--b-flag --no-request-metrics`: one build, metrics on vs off). */
const bFlags = flag('--b-flag');

async function load(dist: string, extraFlags: readonly string[] = []): Promise<Build> {
  const from = (path: string): string => resolve(dist, path);
  const { loadedEngine, run } = (await import(from('bench/micro/engine-fixture.js'))) as typeof FixtureModule;
  const { generateDataset } = (await import(from('bench/data/dataset.js'))) as typeof DatasetModule;
  const { buildScenarios } = (await import(from('bench/scenarios.js'))) as typeof ScenariosModule;
  const { idPool } = (await import(from('bench/matrix/varied-shape.js'))) as typeof VariedShapeModule;
  const { parseRequestJson } = (await import(from('engine/index.js'))) as typeof EngineModule;
  const data = generateDataset({ posts, authors: Math.max(100, posts / 10) });
  const engine = await loadedEngine(data);
  const body = await run(engine, 'query ($s: [String]) { queryPost(filter: { slug: { in: $s } }) { id slug } }', { s: idPool(data) });
  const found = new Map((JSON.parse(body) as { data: { queryPost: { id: string; slug: string }[] } }).data.queryPost.map((p) => [p.slug, p.id]));
  const scenarios = buildScenarios(data).filter((s) => shapes.includes(s.name));
  const ids: ContenderIds = { idOf: (slug) => found.get(slug) ?? `no id for ${slug}` };
  if (!throughServer) return { engine, parse: parseRequestJson, scenarios, ids };
  const { loadTransport } = (await import(from('server/uws-transport.js'))) as typeof TransportModule;
  const { startServer } = (await import(from('server/http-server.js'))) as typeof HttpServerModule;
  const { loadConfig } = (await import(from('server/config.js'))) as typeof ConfigModule;
  const { createLogger } = (await import(from('server/log.js'))) as typeof LogModule;
  const loaded = loadConfig(['--port', '0', '--log-level', 'error', ...extraFlags], {});
  if (loaded.kind !== 'config') throw new Error(`config: ${JSON.stringify(loaded)}`);
  const http = fakeUws();
  await startServer(loadTransport(http.binding), engine, loaded.config, createLogger('error'), () => undefined);
  return { engine, parse: parseRequestJson, scenarios, ids, http };
}

/** How much of the request path a requester runs: the engine alone, body parsing + engine, or the whole path. */
type Layer = 'engine' | 'parse' | 'server';

/** One request as the server makes it from a POST body (or only its lower layers). */
function requester(build: Build, scenario: Scenario, layer: Layer = build.http === undefined ? 'parse' : 'server'): (i: number) => Promise<string> {
  const bodies = Array.from({ length: bodyCount }, (_, i) => JSON.stringify({ query: scenario.document, variables: scenario.variables(build.ids, i, 'ab') }));
  // Shapes needing a unique value per request (add) number their bodies in request order (each build
  // counts its own, so both send the same sequence); the others cycle through --bodies bodies.
  let sent = 0;
  const bodyOf = (i: number): string =>
    scenario.numbered === undefined ? (bodies[i % bodies.length] as string) : JSON.stringify({ query: scenario.document, variables: scenario.variables(build.ids, sent++, 'ab') });
  const http = build.http;
  if (layer === 'engine') {
    const variables = Array.from({ length: bodies.length }, (_, i) => scenario.variables(build.ids, i, 'ab'));
    return async (i) => String((await build.engine.execute({ method: 'POST', query: scenario.document, variables: variables[i % variables.length], headers: {} })).body);
  }
  if (http !== undefined && layer === 'server') return async (i) => (await http.post('/graphql', bodyOf(i))).replace(/"requestID":"[^"]*"/, '"requestID":""');
  return async (i) => {
    const raw = build.parse(bodyOf(i)) as Record<string, unknown>;
    const request: GraphQLRequest = { method: 'POST', query: raw['query'] as string, variables: raw['variables'], headers: {} };
    // Mutation answers carry a request id of their own.
    return String((await build.engine.execute(request)).body).replace(/"requestID":"[^"]*"/, '"requestID":""');
  };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

if (layers) {
  await splitLayers(await load(distA));
  process.exit(0);
}

/** --layers: each shape's engine, parse and request-path costs in alternating rounds of one build. */
async function splitLayers(build: Build): Promise<void> {
  const names: readonly Layer[] = ['engine', 'parse', 'server'];
  console.log(`${posts} posts; ${cpuClock ? 'CPU ' : ''}us per request (median of ${rounds} rounds of ${opsPerRound}, layers alternating): engine alone, + body parse, + request path`);
  for (const scenario of build.scenarios) {
    if (scenario.numbered !== undefined) continue; // a write's requests cannot repeat across layers
    const ops = names.map((layer) => requester(build, scenario, layer));
    for (const op of ops) for (let i = 0; i < opsPerRound; i++) await op(i);
    const times: number[][] = names.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < ops.length; k++) {
        const side = (k + r) % ops.length;
        const op = ops[side] as (i: number) => Promise<string>;
        const started = clock();
        for (let j = 0; j < opsPerRound; j++) await op(r * opsPerRound + j);
        (times[side] as number[]).push((clock() - started) / opsPerRound);
      }
    }
    const [engine, parse, server] = times.map(median) as [number, number, number];
    console.log(`${scenario.name.padEnd(18)} engine ${engine.toFixed(2).padStart(7)}  parse +${(parse - engine).toFixed(2).padStart(6)}  path +${(server - parse).toFixed(2).padStart(6)}  total ${server.toFixed(2).padStart(7)}`);
  }
  await build.engine.close();
}

const builds = [await load(distA), await load(distB, bFlags === undefined ? [] : [bFlags])] as const;
console.log(`${throughServer ? 'through the request path; ' : ''}${posts} posts; ${cpuClock ? 'CPU ' : ''}us per request (median of ${rounds} alternating rounds of ${opsPerRound}), B/A the median of the rounds' ratios`);
for (const scenario of builds[0].scenarios) {
  const other = builds[1].scenarios.find((s) => s.name === scenario.name);
  if (other === undefined) continue;
  const ops = [requester(builds[0], scenario), requester(builds[1], other)] as const;
  for (let i = 0; i < 50; i++) {
    const [a, b] = [await ops[0](i), await ops[1](i)];
    if (a !== b) throw new Error(`${scenario.name}: the builds answer request ${i} differently:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
  }
  for (const op of ops) for (let i = 0; i < opsPerRound; i++) await op(i);
  const times: [number[], number[]] = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const started = clock();
      for (let k = 0; k < opsPerRound; k++) await ops[side](r * opsPerRound + k);
      times[side].push((clock() - started) / opsPerRound);
    }
  }
  const ratio = median(times[1].map((b, r) => b / (times[0][r] as number)));
  console.log(`${scenario.name.padEnd(18)} A ${median(times[0]).toFixed(2).padStart(7)}  B ${median(times[1]).toFixed(2).padStart(7)}  B/A ${ratio.toFixed(3)}`);
}
for (const build of builds) await build.engine.close();
