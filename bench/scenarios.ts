// The load scenarios (the shape matrix, matrix/): one document text for every contender, the variables
// of each request, and the expected answer computed from the generated data set (a plain linear scan,
// independent of every contender's code).

import type { Dataset, PostRecord } from './data/dataset.js';
import { filterShapes } from './matrix/filter-shapes.js';
import { graphShapes } from './matrix/graph-shapes.js';
import { writeShapes } from './matrix/write-shapes.js';
import { compare } from './matrix/json-diff.js';

export { compare };

/** Ids differ per contender; the runner looks up those of the id pool (matrix/varied-shape.ts) by @id. */
export interface ContenderIds {
  /** The contender's id of a post of the id pool, by slug. */
  idOf(slug: string): string;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly document: string;
  readonly isMutation: boolean;
  /** Whether the peers' GraphQL subset expresses the shape with Dgraph's answer (else they skip it: "—"). */
  readonly peers: boolean;
  /** Distinct request bodies: request n uses variant n % variants. */
  readonly variants: number;
  /**
   * For shapes whose every request needs a unique value (add): the variables of variant `variant`
   * numbered `number`; `variables(ids, n)` is then `numbered(ids, n % variants, n + 1)`. The load
   * generator puts its request counter where `uniqueNumber` (matrix/write-shapes.ts) is.
   */
  numbered?(ids: ContenderIds, variant: number, number: number, runTag: string): Record<string, unknown>;
  /** The variables of request number `n`. */
  variables(ids: ContenderIds, n: number, runTag: string): Record<string, unknown>;
  /** `null` if `data` is the right answer to request `n`, else what is wrong. */
  check(data: unknown, ids: ContenderIds, n: number, runTag: string): string | null;
  /** A representative answer, for the ceiling's fixed body. */
  sample(ids: ContenderIds): unknown;
  /** Outgoing upstream calls one request must make (checked before timing); absent = none expected. */
  readonly upstreamCallsPerRequest?: number;
}

/** Scenarios the suite cannot run yet, listed in the report (none at the moment). */
export const pendingScenarios: readonly { readonly name: string; readonly reason: string }[] = [];

/** Posts in the batch-custom page. */
export const customPageSize = 20;

/** What the upstream computes for `Post.ref` (bench/upstream/mock-upstream.ts: values in key order). */
export const expectedRef = (p: PostRecord): string => `up:${p.score}:${p.slug}`;

/**
 * batch-custom: a page of posts with `ref`, a field answered by the loopback upstream in one BATCH call
 * per request (the service's `@custom(http: {mode: BATCH})`, the peers' per-request batch loader).
 */
export function batchCustomScenario(data: Dataset): Scenario {
  const answer = {
    queryPost: topByScore(data, () => true, customPageSize).map((p) => ({ slug: p.slug, score: p.score, ref: expectedRef(p) })),
  };
  return {
    name: 'batch-custom',
    description: `queryPost(order desc score, first ${customPageSize}) { slug score ref }, ref from one BATCH upstream call`,
    document: 'query BatchCustom($first: Int) { queryPost(order: { desc: score }, first: $first) { slug score ref } }',
    isMutation: false,
    peers: true,
    variants: 1,
    variables: () => ({ first: customPageSize }),
    check: (got) => compare(got, answer),
    sample: () => answer,
    upstreamCallsPerRequest: 1,
  };
}

/** Every scenario of a load run: the matrix's reads, batch-custom (which needs the upstream), then the writes. */
export function buildLoadScenarios(data: Dataset): Scenario[] {
  return [...readScenarios(data), batchCustomScenario(data), ...writeShapes(data)];
}

/** The shape matrix's reads over stored data (also the engine micro-benchmarks' cases). */
export function readScenarios(data: Dataset): Scenario[] {
  const graph = graphShapes(data);
  return [...graph.slice(0, 4), ...filterShapes(data), ...graph.slice(4)];
}

/** Reads and writes over stored data, without batch-custom. */
export function buildScenarios(data: Dataset): Scenario[] {
  return [...readScenarios(data), ...writeShapes(data)];
}

function topByScore(data: Dataset, matches: (p: PostRecord) => boolean, first: number): PostRecord[] {
  return data.posts.filter(matches).sort((a, b) => b.score - a.score).slice(0, first);
}
