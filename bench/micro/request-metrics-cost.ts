// The per-request cost of /metrics' request figures (issue #17's bound: ≤ 0.5 µs per request): what the
// server adds per /graphql request when they are on (router.ts, routes/graphql-route.ts), in a loop:
// the router's start time, the engine's start time, `executed`, `hasGraphqlErrors` and `record` (each
// with its own performance.now()). Minus an empty loop of the same shape. Median of 15 rounds.
// Part of `npm run bench`'s micro-benchmarks (run-micro.ts, target in report/targets.ts); alone:
// npm run build && taskset -c 1 node dist/bench/micro/request-metrics-cost.js

import { pathToFileURL } from 'node:url';
import type { EngineResponse } from '../../engine/index.js';
import { hasGraphqlErrors } from '../../server/request-figures.js';
import { createRequestFigures } from '../../server/router.js';
import { graphqlRoute } from '../../server/routes/graphql-route.js';
import type { MicroResult } from './micro-cases.js';

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

/** The two loops' medians as micro results (µs per request): the figures' cost is their difference. */
export const requestFiguresNames = ['request figures: on', 'request figures: off'] as const;

export function requestFiguresCases(): MicroResult[] {
  const withFigures: number[] = [];
  const without: number[] = [];
  const countedBefore = figures.counts.reduce((sum, n) => sum + n, 0);
  for (let round = 0; round < 17; round++) {
    const a = nsPerOp(instrumented);
    const b = nsPerOp(bare);
    if (round < 2) continue; // warm-up
    withFigures.push(a);
    without.push(b);
  }
  const counted = figures.counts.reduce((sum, n) => sum + n, 0) - countedBefore;
  if (counted !== 17 * ops) throw new Error(`counted ${counted} requests, expected ${17 * ops}`);
  return [
    { name: requestFiguresNames[0], nodes: 0, usPerOp: median(withFigures) / 1000, opsPerRound: ops, rounds: withFigures.length },
    { name: requestFiguresNames[1], nodes: 0, usPerOp: median(without) / 1000, opsPerRound: ops, rounds: without.length },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [on, off] = requestFiguresCases().map((r) => r.usPerOp * 1000) as [number, number];
  console.log(`request figures: ${on.toFixed(1)} ns/request, bare loop ${off.toFixed(1)} ns: cost ${(on - off).toFixed(1)} ns per request (bound 500 ns)`);
}
