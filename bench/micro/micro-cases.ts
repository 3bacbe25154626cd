// The engine micro-benchmarks (no HTTP): every shape of the matrix, its answers to a sample of its
// varied requests checked against the scan first, then timed cycling through its variants.

import type { Engine } from '../../engine/index.js';
import { serializeResponse } from '../../engine/exec/serialize-response.js';
import type { Dataset } from '../data/dataset.js';
import { checkedVariants, idPool } from '../matrix/varied-shape.js';
import { buildScenarios, type ContenderIds } from '../scenarios.js';
import { run } from './engine-fixture.js';
import { timeAsync, timeSync, type Timing, type TimingOptions } from './timing.js';

export interface MicroResult {
  readonly name: string;
  readonly nodes: number;
  readonly usPerOp: number;
  readonly opsPerRound: number;
  readonly rounds: number;
}

/** The engine's ids of the id pool, by slug. */
export async function ids(engine: Engine, data: Dataset): Promise<ContenderIds> {
  const body = await run(engine, 'query ($s: [String]) { queryPost(filter: { slug: { in: $s } }) { id slug } }', { s: idPool(data) });
  const found = new Map((JSON.parse(body) as { data: { queryPost: { id: string; slug: string }[] } }).data.queryPost.map((p) => [p.slug, p.id]));
  return { idOf: (slug) => found.get(slug) ?? `no id for ${slug}` };
}

/** The names `scenarioCases` can run. */
export function scenarioNames(data: Dataset): string[] {
  return buildScenarios(data).map((s) => s.name);
}

/**
 * The shape requests through the facade, on an engine holding `data`; `checks` variants of each are
 * checked first (the scan over 1M posts is slow, so fewer there). Writes come last: they change data.
 */
export async function scenarioCases(engine: Engine, data: Dataset, options: TimingOptions, only: readonly string[] | null): Promise<MicroResult[]> {
  const contenderIds = await ids(engine, data);
  const checks = data.posts.length > 200_000 ? 3 : checkedVariants;
  const results: MicroResult[] = [];
  for (const scenario of buildScenarios(data)) {
    if (only !== null && !only.includes(scenario.name)) continue;
    const tag = `micro-${data.posts.length}`;
    for (let n = 0; n < (scenario.numbered !== undefined ? 1 : Math.min(checks, scenario.variants)); n++) {
      const body = await run(engine, scenario.document, scenario.variables(contenderIds, n, `${tag}-check`));
      const wrong = scenario.check((JSON.parse(body) as { data: unknown }).data, contenderIds, n, `${tag}-check`);
      if (wrong !== null) throw new Error(`micro ${scenario.name} at ${data.posts.length} posts answers request ${n} wrongly: ${wrong}`);
    }
    const timing = await timeAsync((i) => run(engine, scenario.document, scenario.variables(contenderIds, i, tag)), options);
    results.push(result(scenario.name, data, timing));
  }
  return results;
}

/** Size-independent costs: the document cache (hit vs. miss) and response serialization. */
export async function fixedCases(engine: Engine, data: Dataset, options: TimingOptions): Promise<MicroResult[]> {
  const scenarios = buildScenarios(data);
  const getById = scenarios.find((s) => s.name === 'get-by-id');
  const list = scenarios.find((s) => s.name === 'filtered-list');
  const hashEq = scenarios.find((s) => s.name === 'hash-eq');
  if (getById === undefined || list === undefined || hashEq === undefined) return [];
  const contenderIds = await ids(engine, data);
  const variables = getById.variables(contenderIds, 0, '');
  const hit = await timeAsync(() => run(engine, getById.document, variables), options);
  // A new alias makes a new document text each time: parse + validate + plan on every request.
  const miss = await timeAsync((i) => run(engine, getById.document.replace('getPost(', `p${i}: getPost(`), variables), options);
  // A client inlining its values: hash-eq's slug and a page size written in the text, new each time.
  const inline = (i: number): string => {
    const { slug } = hashEq.variables(contenderIds, i, '') as { slug: string };
    return `query { queryPost(filter: { slug: { eq: ${JSON.stringify(slug)} } }, first: ${i + 1}) { slug title score } }`;
  };
  const literalMiss = await timeAsync((i) => run(engine, inline(i), {}), options);
  const answer = list.sample(contenderIds);
  const writer = timeSync(() => serializeResponse({ data: answer }), options);
  const stringify = timeSync(() => JSON.stringify({ data: answer }), options);
  return [
    result('document cache hit (get by id, one body)', data, hit),
    result('document cache miss (new text each time)', data, miss),
    result('document cache miss (new literals each time)', data, literalMiss),
    result('serialize 10-item answer (general-path writer)', data, writer),
    result('serialize 10-item answer (JSON.stringify)', data, stringify),
  ];
}

function result(name: string, data: Dataset, timing: Timing): MicroResult {
  return { name, nodes: data.posts.length + data.authors.length, usPerOp: timing.usPerOp, opsPerRound: timing.opsPerRound, rounds: timing.rounds };
}
