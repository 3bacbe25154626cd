// The load part of a run: for each contender, start it pinned, check a sample of every scenario's varied
// requests (and, for a scenario that calls the upstream, how many calls one request made), then warm up
// and time each scenario; CPU per request is read from /proc for the contender's process.

import type { Dataset } from '../data/dataset.js';
import type { ContenderIds, Scenario } from '../scenarios.js';
import type { LoadRecord, RunMode } from '../report/results.js';
import type { LoadGenerator } from './autocannon-run.js';
import { runLoadWith } from './load-runner.js';
import { ceilingIds } from '../matrix/varied-shape.js';
import { checkAnswer, requestBodies, resolveIds } from './check-answer.js';
import type { ContenderSpec, StartedContender } from './contenders.js';
import type { PinResult } from './pin.js';
import { cpuMicros, waitUntilIdle } from './proc-cpu.js';
import { lookupsBetween, readCacheLookups } from './cache-lookups.js';
import type { RunningUpstream } from '../upstream/upstream-client.js';

export interface SuiteContext {
  readonly pin: PinResult;
  readonly dataFile: string;
  readonly data: Dataset;
  readonly scenarios: readonly Scenario[];
  readonly durationS: number;
  readonly warmupS: number;
  readonly connections: number;
  readonly fixedRate: number;
  /** `--load`: autocannon, or wrk where it can (load-runner.ts). */
  readonly generator: LoadGenerator;
  /** The loopback upstream the custom field calls. */
  readonly upstream: RunningUpstream;
  /** Also run the fixed-rate and 1-connection latency runs (get by id) for this contender. */
  latencyRuns(contender: string): boolean;
  log(line: string): void;
}

interface RunSpec {
  readonly mode: RunMode;
  readonly connections: number;
  readonly overallRate: number | null;
}

export async function runContender(spec: ContenderSpec, ctx: SuiteContext): Promise<LoadRecord[]> {
  const started = Date.now();
  const contender = await spec.start(ctx.pin, ctx.dataFile, ctx.data, ctx.upstream.url);
  ctx.log(`${spec.name}: started and loaded in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${contender.pid})`);
  const records: LoadRecord[] = [];
  try {
    const ids = contender.graphqlUrl === null ? ceilingIds : await resolveIds(contender.graphqlUrl, ctx.data);
    let first = true;
    for (const scenario of ctx.scenarios) {
      // A peer runs only the shapes its GraphQL subset expresses (the others show "—").
      if (isPeer(spec.name) && !scenario.peers) continue;
      const wrong = contender.graphqlUrl === null ? null : await checkScenario(contender.graphqlUrl, scenario, ids, `${spec.name}-check`, ctx.upstream);
      if (wrong !== null) ctx.log(`${spec.name} ${scenario.name}: WRONG ANSWER, marked invalid: ${wrong}`);
      const runs: RunSpec[] = [{ mode: 'throughput', connections: ctx.connections, overallRate: null }];
      if (scenario.name === 'get-by-id' && ctx.latencyRuns(spec.name)) {
        runs.push({ mode: 'fixed-rate', connections: Math.min(ctx.connections, 10), overallRate: ctx.fixedRate });
        runs.push({ mode: 'one-connection', connections: 1, overallRate: null });
      }
      for (const run of runs) {
        // The first run of a contender warms its JIT (and the load generator's) for longer.
        if (first) await runLoadWith(ctx.generator, { url: contender.urlFor(scenario.name), connections: ctx.connections, body: requestBodies(scenario, ids, `${spec.name}-prewarm`), durationS: ctx.warmupS * 2 });
        first = false;
        const record = await timedRun(spec.name, contender, scenario, ids, run, wrong, ctx);
        records.push(record);
        ctx.log(`${spec.name.padEnd(9)} ${scenario.name.padEnd(13)} ${run.mode.padEnd(14)} ${record.rps.toFixed(0).padStart(7)} req/s  p50 ${record.p50Ms.toFixed(3)} ms  p99 ${record.p99Ms.toFixed(3)} ms  errors ${record.errors + record.non2xx}${record.cpuUsPerRequest === null ? '' : `  cpu ${record.cpuUsPerRequest.toFixed(1)} µs/req`}`);
      }
    }
  } finally {
    await contender.stop();
  }
  return records;
}

const isPeer = (name: string): boolean => name !== 'service' && name !== 'ceiling';

/** The answer check, plus the number of upstream calls the request made when the scenario expects some. */
async function checkScenario(graphqlUrl: string, scenario: Scenario, ids: ContenderIds, tag: string, upstream: RunningUpstream): Promise<string | null> {
  const expected = scenario.upstreamCallsPerRequest;
  if (expected !== undefined) await upstream.reset();
  const wrong = await checkAnswer(graphqlUrl, scenario, ids, tag);
  if (wrong !== null || expected === undefined) return wrong;
  const { calls } = await upstream.stats();
  return calls === expected ? null : `one request made ${calls} upstream calls, expected ${expected}`;
}

async function timedRun(
  name: string,
  contender: StartedContender,
  scenario: Scenario,
  ids: ContenderIds,
  run: RunSpec,
  wrong: string | null,
  ctx: SuiteContext,
): Promise<LoadRecord> {
  const url = contender.urlFor(scenario.name);
  const base = { url, connections: run.connections, ...(run.overallRate === null ? {} : { overallRate: run.overallRate }) };
  const tag = `${name}-${run.mode}`;
  await runLoadWith(ctx.generator, { ...base, body: requestBodies(scenario, ids, `${tag}-warm`), durationS: ctx.warmupS });
  const bodies = requestBodies(scenario, ids, tag);
  const countsCaches = name === 'service' && contender.graphqlUrl !== null;
  const cachesBefore = countsCaches ? await readCacheLookups(contender.graphqlUrl) : null;
  await waitUntilIdle(contender.pid);
  const cpuBefore = cpuMicros(contender.pid);
  const result = await runLoadWith(ctx.generator, { ...base, body: bodies, durationS: ctx.durationS });
  const cpuAfter = cpuMicros(contender.pid);
  const caches = cachesBefore === null || contender.graphqlUrl === null ? undefined : lookupsBetween(cachesBefore, await readCacheLookups(contender.graphqlUrl));
  const cpu = cpuBefore === null || cpuAfter === null || result.requests === 0 ? null : (cpuAfter - cpuBefore) / result.requests;
  return {
    contender: name,
    scenario: scenario.name,
    mode: run.mode,
    connections: run.connections,
    overallRate: run.overallRate,
    generator: result.generator,
    valid: wrong === null,
    invalidReason: wrong,
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.errors,
    non2xx: result.non2xx,
    requests: result.requests,
    cpuUsPerRequest: cpu,
    // A unique body per request (add) counts as one per request.
    distinctBodies: bodies.kind === 'list' ? new Set(bodies.bodies).size : result.requests,
    ...(caches === undefined ? {} : { caches }),
  };
}
