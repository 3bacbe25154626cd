// The engine micro-benchmarks (no HTTP): each case checks its answer once, then is timed.

import type { Engine } from '../../engine/index.js';
import { serializeResponse } from '../../engine/exec/serialize-response.js';
import type { Dataset } from '../data/dataset.js';
import { buildScenarios, type ContenderIds, type Scenario } from '../scenarios.js';
import { run } from './engine-fixture.js';
import { timeAsync, timeSync, type Timing, type TimingOptions } from './timing.js';

export interface MicroResult {
  readonly name: string;
  readonly nodes: number;
  readonly usPerOp: number;
  readonly opsPerRound: number;
  readonly rounds: number;
}

const caseNames: Readonly<Record<string, string>> = {
  'get-by-id': 'get by id',
  'get-by-xid': 'get by @id',
  'filtered-list': 'term filter, first 10, nested',
  fulltext: 'fulltext filter, first 10',
  add: 'add mutation (1 post)',
};

async function ids(engine: Engine, data: Dataset, scenario: Scenario): Promise<ContenderIds> {
  const slug = (scenario.sample({ postId: '' }) as { getPost: { slug: string } }).getPost.slug;
  const body = await run(engine, 'query ($s: String!) { getPost(slug: $s) { id } }', { s: slug });
  const id = (JSON.parse(body) as { data: { getPost: { id: string } | null } }).data.getPost?.id;
  if (id === undefined) throw new Error(`post ${slug} not found among ${data.posts.length}`);
  return { postId: id };
}

/** The scenario requests through the facade, on an engine holding `data`. */
export async function scenarioCases(engine: Engine, data: Dataset, options: TimingOptions): Promise<MicroResult[]> {
  const scenarios = buildScenarios(data);
  const first = scenarios[0];
  if (first === undefined) return [];
  const contenderIds = await ids(engine, data, first);
  const results: MicroResult[] = [];
  for (const scenario of scenarios) {
    const tag = `micro-${data.posts.length}`;
    const body = await run(engine, scenario.document, scenario.variables(contenderIds, 0, tag));
    const wrong = scenario.check((JSON.parse(body) as { data: unknown }).data, contenderIds, 0, tag);
    if (wrong !== null) throw new Error(`micro ${scenario.name} at ${data.posts.length} nodes answers wrongly: ${wrong}`);
    const timing = await timeAsync((i) => run(engine, scenario.document, scenario.variables(contenderIds, i + 1, tag)), options);
    results.push(result(caseNames[scenario.name] ?? scenario.name, data, timing));
  }
  return results;
}

/** Size-independent costs: the document cache (hit vs. miss) and response serialization. */
export async function fixedCases(engine: Engine, data: Dataset, options: TimingOptions): Promise<MicroResult[]> {
  const scenarios = buildScenarios(data);
  const getById = scenarios.find((s) => s.name === 'get-by-id');
  const list = scenarios.find((s) => s.name === 'filtered-list');
  if (getById === undefined || list === undefined) return [];
  const contenderIds = await ids(engine, data, getById);
  const variables = getById.variables(contenderIds, 0, '');
  const hit = await timeAsync(() => run(engine, getById.document, variables), options);
  // A new alias makes a new document text each time: parse + validate + plan on every request.
  const miss = await timeAsync((i) => run(engine, getById.document.replace('getPost(', `p${i}: getPost(`), variables), options);
  const answer = list.sample(contenderIds);
  const writer = timeSync(() => serializeResponse({ data: answer }), options);
  const stringify = timeSync(() => JSON.stringify({ data: answer }), options);
  return [
    result('document cache hit (get by id)', data, hit),
    result('document cache miss (new text each time)', data, miss),
    result('serialize 10-item answer (general-path writer)', data, writer),
    result('serialize 10-item answer (JSON.stringify)', data, stringify),
  ];
}

function result(name: string, data: Dataset, timing: Timing): MicroResult {
  return { name, nodes: data.posts.length + data.authors.length, usPerOp: timing.usPerOp, opsPerRound: timing.opsPerRound, rounds: timing.rounds };
}
