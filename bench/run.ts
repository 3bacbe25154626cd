// The benchmark suite: `npm run bench [-- --quick]`. Generates the data set, runs every contender
// pinned to core 0 with the load generator (this process) on core 1, checks answers before timing,
// then runs the engine micro-benchmarks, prints the tables and writes results/latest.json and README.md.
// The upstream that batch-custom's field calls runs in its own process on core 1 with the load
// generator, so the contender's core does only the contender's work.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseOptions, type SuiteOptions } from './cli-options.js';
import { generateDataset, writeDataset } from './data/dataset.js';
import { contenders } from './load/contenders.js';
import { runGroup } from './load/load-suite.js';
import { wrkAvailable } from './load/wrk-run.js';
import { loadCore, pinnedCommand, pinSelf, type PinResult } from './load/pin.js';
import { startUpstream } from './upstream/upstream-client.js';
import type { MicroReport } from './micro/run-micro.js';
import { formatReport } from './report/format-report.js';
import { machineInfo } from './report/machine-info.js';
import type { LoadRecord, RunReport } from './report/results.js';
import { evaluateTargets } from './report/targets.js';
import { writeResultsIntoReadme } from './report/write-readme.js';
import { buildLoadScenarios, pendingScenarios, readScenarios } from './scenarios.js';

const distBench = import.meta.dirname;
const projectRoot = resolve(distBench, '../..');
const log = (line: string): void => console.error(`[bench] ${line}`);

/** Read from the service's GET /metrics before and after each timed run (load/cache-lookups.ts). */
const cacheNote = 'the "cache hits" column: hits / lookups of every cache the service consulted during the timed run (graphdb_cache_lookups_total from GET /metrics before and after it): document = parsed document by query text, document_shape = validated shape of a document that differs only in string/number literals (on a document miss), plan = query/get/edge-filter plan per field occurrence and argument shape, admission = cost admission of a document with literal page sizes, arguments = coerced arguments within a request, order_prefix = first k of a posting in one order';

async function main(options: SuiteOptions): Promise<void> {
  const began = Date.now();
  if (options.load === 'wrk' && !(await wrkAvailable())) throw new Error('--load wrk: no wrk on the PATH (Debian: apt-get install wrk)');
  const pin = pinSelf();
  log(pin.note);
  const workDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  try {
    const data = generateDataset({ posts: options.posts, authors: options.authors });
    const dataFile = join(workDir, 'dataset.json');
    writeDataset(dataFile, data);
    const scenarios = buildLoadScenarios(data).filter((s) => options.scenarios === null || options.scenarios.includes(s.name));
    const readShapes = readScenarios(data).map((s) => s.name);
    const chosen = contenders.filter((c) => options.contenders === null || options.contenders.includes(c.name));
    const records: LoadRecord[] = [];
    const failures: { contender: string; error: string }[] = [];
    const upstream = await startUpstream({ pin, core: loadCore, delayMs: 0 });
    log(`upstream for batch-custom at ${upstream.url} (pid ${upstream.pid}, core ${loadCore})`);
    const ctx = {
      pin, dataFile, data, scenarios, log, upstream,
      durationS: options.durationS, warmupS: options.warmupS, connections: options.connections, fixedRate: options.fixedRate,
      generator: options.load,
      latencyRuns: (name: string) => !options.quick || name === 'service',
    };
    try {
      // The ceiling and the service side by side (their runs of each shape interleaved), then each peer alone.
      const paired = chosen.filter((c) => c.name === 'ceiling' || c.name === 'service');
      const groups = [...(paired.length > 0 ? [paired] : []), ...chosen.filter((c) => !paired.includes(c)).map((c) => [c])];
      for (const group of groups) {
        try {
          const result = await runGroup(group, ctx);
          records.push(...result.records);
          failures.push(...result.failures);
          for (const f of result.failures) log(`${f.contender} FAILED: ${f.error}`);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          for (const spec of group) failures.push({ contender: spec.name, error: message });
          log(`${group.map((s) => s.name).join(' + ')} FAILED: ${message}`);
        }
      }
    } finally {
      await upstream.stop();
    }
    const micro = options.micro ? await runMicro(pin, options.quick, workDir) : null;
    if (options.subscriptions) await runSubscriptions(options.quick);
    const report: RunReport = {
      machine: machineInfo(pin.note),
      settings: { quick: options.quick, durationS: options.durationS, warmupS: options.warmupS, connections: options.connections, posts: options.posts, authors: options.authors, load: options.load },
      records,
      failures,
      pending: pendingScenarios.map((p) => ({ name: p.name, reason: p.reason })),
      targets: evaluateTargets(records, readShapes, micro),
      micro,
      readShapes,
      caches: cacheNote,
    };
    publish(report, options);
    log(`done in ${((Date.now() - began) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The micro-benchmarks run in their own process on the server core (the load core stays idle). */
async function runMicro(pin: PinResult, quick: boolean, workDir: string): Promise<MicroReport | null> {
  const out = join(workDir, 'micro.json');
  const { command, args } = pinnedCommand(pin, process.execPath, [join(distBench, 'micro/run-micro.js'), ...(quick ? ['--quick'] : []), '--out', out]);
  try {
    const child = promisify(execFile)(command, args, { maxBuffer: 1 << 24 });
    child.child.stderr?.on('data', (chunk: Buffer | string) => log(String(chunk).trim()));
    await child;
    return JSON.parse(readFileSync(out, 'utf8')) as MicroReport;
  } catch (error) {
    log(`micro-benchmarks FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** The subscriptions fan-out (subscriptions.ts pins itself and its server): bench/results/subscriptions.json, its targets line logged. */
async function runSubscriptions(quick: boolean): Promise<void> {
  const out = join(projectRoot, 'bench/results/subscriptions.json');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(distBench, 'subscriptions.js'), '--out', out, '--mutations', quick ? '50' : '200'], { maxBuffer: 1 << 24 });
    log(stdout.trim().split('\n').at(-1) ?? '');
  } catch (error) {
    log(`subscriptions benchmark FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function publish(report: RunReport, options: SuiteOptions): void {
  const markdown = formatReport(report);
  console.log(markdown);
  for (const t of report.targets) console.log(`${t.pass === null ? 'N/A ' : t.pass ? 'PASS' : 'MISS'}  ${t.name}: ${t.actual} (target ${t.target})`);
  const resultsDir = join(projectRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(resultsDir, 'latest.json'), json);
  // Per load generator and length, so a wrk run and an autocannon run can both be kept (and committed).
  const name = `${options.load}${options.quick ? '-quick' : ''}${options.scenarios === null && options.contenders === null ? '' : '-partial'}`;
  writeFileSync(join(resultsDir, `${name}.json`), json);
  writeFileSync(join(resultsDir, `${name}.md`), `${markdown}\n`);
  log(`results in bench/results/latest.json, ${name}.json and ${name}.md`);
  if (options.writeReadme && writeResultsIntoReadme(join(projectRoot, 'bench/README.md'), markdown)) log('figures written into bench/README.md');
  else log('bench/README.md left as it was (partial run, --no-readme, or no markers)');
}

try {
  await main(parseOptions(process.argv.slice(2)));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
