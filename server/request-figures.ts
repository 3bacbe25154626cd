// Per-request figures for GET /metrics: counts in one Float64Array indexed by route, operation type and
// outcome, and fixed-bucket latency tallies. Recording a request is a few adds: no label objects, no
// allocation (the bound is 0.5 µs per request); server/metrics.ts turns them into text when scraped.

import { LatencyTally, type EngineResponse } from '../engine/index.js';
import type { Route } from './routes/route.js';

/** Closed label sets: `operations[i]` is what `Engine.lastOperation` numbers i. */
export const operations = ['none', 'query', 'mutation', 'subscription'] as const;
/** ok; error: the answer carries GraphQL errors (any status); refused: other 4xx; failed: 5xx; aborted: the client left first. */
export const outcomes = ['ok', 'error', 'refused', 'failed', 'aborted'] as const;

function outcomeOf(status: number, graphqlErrors: boolean, aborted: boolean): number {
  if (aborted) return 4;
  if (status >= 500) return 3;
  if (graphqlErrors) return 1;
  return status < 400 ? 0 : 2;
}

const openBrace = 0x7b;
const quote = 0x22;
const letterE = 0x65;

/** Whether an engine answer has errors: they are written first (`{"errors":`), so the third character tells. */
export function hasGraphqlErrors(response: EngineResponse): boolean {
  if (response.kind !== 'ok') return true;
  const bytes = response.bytes;
  if (bytes !== undefined) return bytes[0] === openBrace && bytes[1] === quote && bytes[2] === letterE;
  return response.body.startsWith('{"e');
}

export class RequestFigures {
  /** Route labels, in index order; the last is `unknown` (404 and requests the transport could not copy). */
  readonly routeNames: readonly string[];
  readonly #routeIndex: ReadonlyMap<Route, number>;
  /** [route][operation][outcome] request counts. */
  readonly counts: Float64Array;
  /** HTTP request duration per route (from the router's first look to the reply handed to the transport). */
  readonly durations: readonly LatencyTally[];
  /** Engine execution (/graphql and /admin) per operation type. */
  readonly executions: readonly LatencyTally[] = operations.map(() => new LatencyTally());
  inFlight = 0;

  /** `routes`: [label, route] pairs; routes may share a label (GraphiQL's files). */
  constructor(
    routes: Iterable<readonly [string, Route]>,
    /** Off only to measure what recording costs (`--no-request-metrics`). */
    readonly enabled: boolean,
  ) {
    const names: string[] = [];
    const index = new Map<Route, number>();
    for (const [name, route] of routes) {
      const known = names.indexOf(name);
      index.set(route, known >= 0 ? known : names.push(name) - 1);
    }
    names.push('unknown');
    this.routeNames = names;
    this.#routeIndex = index;
    this.counts = new Float64Array(names.length * operations.length * outcomes.length);
    this.durations = names.map(() => new LatencyTally());
  }

  /** `ms`: the request's duration, read by the router once for this and its log lines (a clock read costs ~80 ns). */
  record(route: Route | undefined, operation: number, status: number, graphqlErrors: boolean, aborted: boolean, ms: number): void {
    const r = (route === undefined ? undefined : this.#routeIndex.get(route)) ?? this.routeNames.length - 1;
    (this.counts[(r * operations.length + operation) * outcomes.length + outcomeOf(status, graphqlErrors, aborted)] as number)++;
    (this.durations[r] as LatencyTally).observe(ms / 1000);
  }

  executed(operation: number, started: number): void {
    (this.executions[operation] as LatencyTally).observe((performance.now() - started) / 1000);
  }
}
