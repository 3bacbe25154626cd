// The load part of a run: for each group of contenders (the ceiling with the service, then each peer
// alone), start them pinned, check a sample of every scenario's varied requests (and, for a scenario that
// calls the upstream, how many calls one request made), then warm up and time each scenario; CPU per
// request is read from /proc for the contender's process.

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

interface Running {
  readonly spec: ContenderSpec;
  readonly contender: StartedContender;
  readonly ids: ContenderIds;
  /** The first timed run of a contender warms its JIT (and the load generator's) for longer. */
  warmed: boolean;
}

export interface GroupResult {
  readonly records: LoadRecord[];
  readonly failures: { contender: string; error: string }[];
}

/**
 * Runs a group of contenders started side by side (all pinned to the server core, only one under load
 * at a time). With the ceiling and one other contender in the group, each scenario's timed runs go
 * ceiling, other, ceiling and the ceiling's record is the two runs together: a change of the host's
 * speed during the run (seen as ±30% between ceiling runs minutes apart) then moves both sides of the
 * ratio alike. A contender that fails to start is reported and the others still run.
 */
export async function runGroup(specs: readonly ContenderSpec[], ctx: SuiteContext): Promise<GroupResult> {
  const records: LoadRecord[] = [];
  const failures: { contender: string; error: string }[] = [];
  const running: Running[] = [];
  try {
    for (const spec of specs) {
      try {
        running.push(await startOne(spec, ctx));
      } catch (error) {
        failures.push({ contender: spec.name, error: error instanceof Error ? error.message : String(error) });
      }
    }
    const pids = running.map((r) => r.contender.pid);
    for (const scenario of ctx.scenarios) {
      // A peer runs only the shapes its GraphQL subset expresses (the others show "—").
      const here = running.filter((r) => !isPeer(r.spec.name) || scenario.peers);
      const wrong = new Map<Running, string | null>();
      for (const r of here) {
        const found = r.contender.graphqlUrl === null ? null : await checkScenario(r.contender.graphqlUrl, scenario, r.ids, `${r.spec.name}-check`, ctx.upstream);
        if (found !== null) ctx.log(`${r.spec.name} ${scenario.name}: WRONG ANSWER, marked invalid: ${found}`);
        wrong.set(r, found);
      }
      const timed = async (r: Running, run: RunSpec): Promise<LoadRecord> => {
        if (!r.warmed) await runLoadWith(ctx.generator, { url: r.contender.urlFor(scenario.name), connections: ctx.connections, body: requestBodies(scenario, r.ids, `${r.spec.name}-prewarm`), durationS: ctx.warmupS * 2 });
        r.warmed = true;
        const record = await timedRun(r.spec.name, r.contender, scenario, r.ids, run, wrong.get(r) ?? null, ctx, pids);
        ctx.log(`${r.spec.name.padEnd(9)} ${scenario.name.padEnd(13)} ${run.mode.padEnd(14)} ${record.rps.toFixed(0).padStart(7)} req/s  p50 ${record.p50Ms.toFixed(3)} ms  p99 ${record.p99Ms.toFixed(3)} ms  errors ${record.errors + record.non2xx}${record.cpuUsPerRequest === null ? '' : `  cpu ${record.cpuUsPerRequest.toFixed(1)} µs/req`}`);
        return record;
      };
      const throughput: RunSpec = { mode: 'throughput', connections: ctx.connections, overallRate: null };
      const ceiling = here.find((r) => r.spec.name === 'ceiling');
      const other = here.filter((r) => r !== ceiling);
      if (ceiling !== undefined && other.length === 1 && other[0] !== undefined) {
        const before = await timed(ceiling, throughput);
        const ours = await timed(other[0], throughput);
        records.push(joinRuns(before, await timed(ceiling, throughput)), ours);
      } else {
        for (const r of here) records.push(await timed(r, throughput));
      }
      if (scenario.name !== 'get-by-id') continue;
      for (const r of here) {
        if (!ctx.latencyRuns(r.spec.name)) continue;
        records.push(await timed(r, { mode: 'fixed-rate', connections: Math.min(ctx.connections, 10), overallRate: ctx.fixedRate }));
        records.push(await timed(r, { mode: 'one-connection', connections: 1, overallRate: null }));
      }
    }
  } finally {
    for (const r of running) await r.contender.stop();
  }
  return { records, failures };
}

async function startOne(spec: ContenderSpec, ctx: SuiteContext): Promise<Running> {
  const started = Date.now();
  const contender = await spec.start(ctx.pin, ctx.dataFile, ctx.data, ctx.upstream.url);
  ctx.log(`${spec.name}: started and loaded in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${contender.pid})`);
  try {
    const ids = contender.graphqlUrl === null ? ceilingIds : await resolveIds(contender.graphqlUrl, ctx.data);
    return { spec, contender, ids, warmed: false };
  } catch (error) {
    await contender.stop();
    throw error;
  }
}

/** Two timed runs of one contender and scenario as one record: rates and latencies averaged, counts summed, CPU per request over both. */
function joinRuns(a: LoadRecord, b: LoadRecord): LoadRecord {
  const requests = a.requests + b.requests;
  const cpu = a.cpuUsPerRequest === null || b.cpuUsPerRequest === null || requests === 0 ? null : (a.cpuUsPerRequest * a.requests + b.cpuUsPerRequest * b.requests) / requests;
  return {
    ...a,
    valid: a.valid && b.valid,
    rps: (a.rps + b.rps) / 2,
    p50Ms: (a.p50Ms + b.p50Ms) / 2,
    p99Ms: (a.p99Ms + b.p99Ms) / 2,
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
    requests,
    cpuUsPerRequest: cpu,
  };
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
  /** Every process of the group: all share the server core, so all must be idle before a timed run. */
  pids: readonly number[],
): Promise<LoadRecord> {
  const url = contender.urlFor(scenario.name);
  const base = { url, connections: run.connections, ...(run.overallRate === null ? {} : { overallRate: run.overallRate }) };
  const tag = `${name}-${run.mode}`;
  await runLoadWith(ctx.generator, { ...base, body: requestBodies(scenario, ids, `${tag}-warm`), durationS: ctx.warmupS });
  const bodies = requestBodies(scenario, ids, tag);
  const countsCaches = name === 'service' && contender.graphqlUrl !== null;
  const cachesBefore = countsCaches ? await readCacheLookups(contender.graphqlUrl) : null;
  for (const pid of pids) await waitUntilIdle(pid);
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
