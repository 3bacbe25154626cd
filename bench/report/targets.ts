// The issue's targets, each PASS or MISS (or n/a when this run did not measure what it needs).

import type { LoadRecord, TargetResult } from './results.js';
import type { MicroReport } from '../micro/run-micro.js';
import type { MicroResult } from '../micro/micro-cases.js';
import { authRuleNames } from '../micro/auth-rule-cases.js';
import { requestFiguresNames } from '../micro/request-metrics-cost.js';

const find = (records: readonly LoadRecord[], contender: string, scenario: string, mode: LoadRecord['mode'] = 'throughput'): LoadRecord | undefined =>
  records.find((r) => r.contender === contender && r.scenario === scenario && r.mode === mode && r.valid);

/** `readShapes`: the matrix's read shapes over stored data (not batch-custom, which waits on an upstream). */
export function evaluateTargets(records: readonly LoadRecord[], readShapes: readonly string[] = [], micro: MicroReport | null = null): TargetResult[] {
  const targets: TargetResult[] = [...matrixTargets(records, readShapes)];
  const ratio = (name: string, scenario: string, peer: string, min: number): void => {
    const ours = find(records, 'service', scenario);
    const theirs = find(records, peer, scenario);
    const value = ours && theirs ? ours.rps / theirs.rps : null;
    targets.push({ name, target: `≥ ${min}${peer === 'ceiling' ? ' of ceiling' : `x ${peer}`}`, actual: value === null ? 'not measured' : value.toFixed(2), pass: value === null ? null : value >= min });
  };
  ratio('get by id vs ceiling', 'get-by-id', 'ceiling', 0.75);
  ratio('filtered list vs ceiling', 'filtered-list', 'ceiling', 0.6);
  for (const scenario of ['get-by-id', 'filtered-list']) {
    ratio(`${scenario} vs mercurius+jit`, scenario, 'mercurius', 2);
    ratio(`${scenario} vs Apollo`, scenario, 'apollo', 10);
  }
  const loaded = find(records, 'service', 'get-by-id');
  targets.push(limit('p50 at 50 connections (get by id)', loaded?.p50Ms, 1, 'ms'));
  targets.push(limit('p99 at 50 connections (get by id)', loaded?.p99Ms, 3, 'ms'));
  targets.push(limit('p99 with 1 connection (get by id)', find(records, 'service', 'get-by-id', 'one-connection')?.p99Ms, 0.5, 'ms'));
  targets.push(limit('CPU per request (get by id, 50 connections)', loaded?.cpuUsPerRequest ?? undefined, 20, 'µs'));
  targets.push(...authRuleTargets(micro));
  targets.push(requestFiguresTarget(micro?.results));
  return targets;
}

/** Issue #17: /metrics' request figures cost the hot path at most 0.5 µs per request (with minus without). */
function requestFiguresTarget(micro: readonly MicroResult[] | undefined): TargetResult {
  const usOf = (name: string): number | undefined => micro?.find((r) => r.name === name)?.usPerOp;
  const [on, off] = [usOf(requestFiguresNames[0]), usOf(requestFiguresNames[1])];
  return limit('/metrics request figures per request', on === undefined || off === undefined ? undefined : on - off, 0.5, 'µs');
}

/** Issue #14: a query under a graph-traversal `@auth` rule costs at most 2x the same query without it (engine micro-benchmark). */
function authRuleTargets(micro: MicroReport | null): TargetResult[] {
  const usOf = (name: string): number | undefined => micro?.results.find((r) => r.name === name)?.usPerOp;
  return [
    [authRuleNames[1], authRuleNames[0], 'graph @auth rule vs none, one token'],
    [authRuleNames[3], authRuleNames[2], 'graph @auth rule vs none, a new token each'],
  ].map(([ruled, free, name]) => {
    const [r, f] = [usOf(ruled as string), usOf(free as string)];
    const value = r === undefined || f === undefined ? undefined : r / f;
    return { name: name as string, target: '≤ 2x', actual: value === undefined ? 'not measured' : `${value.toFixed(2)}x`, pass: value === undefined ? null : value <= 2 };
  });
}

function limit(name: string, value: number | undefined, max: number, unit: string): TargetResult {
  return { name, target: `≤ ${max} ${unit}`, actual: value === undefined ? 'not measured' : `${value.toFixed(unit === 'ms' ? 3 : 1)} ${unit}`, pass: value === undefined ? null : value <= max };
}

/** Issue #20's shape-matrix targets: req/s of the service over the ceiling answering the same bytes. */
function matrixTargets(records: readonly LoadRecord[], readShapes: readonly string[]): TargetResult[] {
  const ratioOf = (scenario: string): number | null => {
    const ours = find(records, 'service', scenario);
    const ceiling = find(records, 'ceiling', scenario);
    return ours && ceiling ? ours.rps / ceiling.rps : null;
  };
  const measured = readShapes.map((name) => ({ name, ratio: ratioOf(name) })).filter((r): r is { name: string; ratio: number } => r.ratio !== null);
  const targets: TargetResult[] = [];
  if (measured.length > 0) {
    const below = measured.filter((r) => r.ratio < 0.5).sort((a, b) => a.ratio - b.ratio);
    const lowest = [...measured].sort((a, b) => a.ratio - b.ratio)[0];
    targets.push({
      name: `every read shape vs ceiling (${measured.length} shapes)`,
      target: '≥ 0.5 of ceiling each',
      actual: below.length === 0 ? `lowest ${lowest?.ratio.toFixed(2)} (${lowest?.name})` : `${below.length} below: ${below.map((r) => `${r.name} ${r.ratio.toFixed(2)}`).join(', ')}`,
      pass: below.length === 0,
    });
    const sorted = measured.map((r) => r.ratio).sort((a, b) => a - b);
    const mid = sorted.length / 2;
    const median = sorted.length % 2 === 1 ? (sorted[Math.floor(mid)] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
    targets.push({ name: 'median read shape vs ceiling', target: '≥ 0.6 of ceiling', actual: median.toFixed(2), pass: median >= 0.6 });
  }
  for (const [scenario, min] of [['get-by-id', 0.75], ['get-by-xid', 0.75], ['add', 0.35]] as const) {
    const value = ratioOf(scenario);
    targets.push({ name: `${scenario} vs ceiling (matrix)`, target: `≥ ${min} of ceiling`, actual: value === null ? 'not measured' : value.toFixed(2), pass: value === null ? null : value >= min });
  }
  return targets;
}
