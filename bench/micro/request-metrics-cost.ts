// The per-request cost of /metrics' request figures (issue #17's bound: ≤ 0.5 µs per request): what the
// server adds per /graphql request when they are on (router.ts, routes/graphql-route.ts), in a loop:
// the router's start time, the engine's start time, `executed`, `hasGraphqlErrors` and `record` (each
// with its own performance.now()). Minus an empty loop of the same shape. Median of 15 rounds.
// Run: npm run build && taskset -c 1 node dist/bench/micro/request-metrics-cost.js

import type { EngineResponse } from '../../engine/index.js';
import { hasGraphqlErrors } from '../../server/request-figures.js';
import { createRequestFigures } from '../../server/router.js';
import { graphqlRoute } from '../../server/routes/graphql-route.js';

const figures = createRequestFigures(true);
const answers: EngineResponse[] = [
  { kind: 'ok', body: '', bytes: Buffer.from('{"data":{"getPost":{"id":"0x1"}}}') },
  { kind: 'ok', body: '{"errors":[{"message":"x"}],"data":null}' },
];
const exchange = { operation: 0, graphqlErrors: false, aborted: false };
const ops = 1_000_000;

function instrumented(): void {
  for (let i = 0; i < ops; i++) {
    const started = figures.enabled ? performance.now() : 0; // router
    const engineStarted = figures.enabled ? performance.now() : 0; // graphql-route
    exchange.operation = 1 + (i & 1);
    if (engineStarted !== 0) {
      figures.executed(exchange.operation, engineStarted);
      exchange.graphqlErrors = hasGraphqlErrors(answers[i & 1] as EngineResponse);
    }
    if (started !== 0) figures.record(graphqlRoute, exchange.operation, 200, exchange.graphqlErrors, exchange.aborted, performance.now() - started);
  }
}

function bare(): void {
  for (let i = 0; i < ops; i++) {
    exchange.operation = 1 + (i & 1);
    exchange.graphqlErrors = (answers[i & 1] as EngineResponse).kind !== 'ok';
  }
}

function nsPerOp(run: () => void): number {
  const started = performance.now();
  run();
  return ((performance.now() - started) * 1e6) / ops;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const withFigures: number[] = [];
const without: number[] = [];
for (let round = 0; round < 17; round++) {
  const a = nsPerOp(instrumented);
  const b = nsPerOp(bare);
  if (round < 2) continue; // warm-up
  withFigures.push(a);
  without.push(b);
}
const counted = figures.counts.reduce((sum, n) => sum + n, 0);
if (counted !== 17 * ops) throw new Error(`counted ${counted} requests, expected ${17 * ops}`);
console.log(`request figures: ${median(withFigures).toFixed(1)} ns/request, bare loop ${median(without).toFixed(1)} ns: cost ${(median(withFigures) - median(without)).toFixed(1)} ns per request (bound 500 ns)`);
