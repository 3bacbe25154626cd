// The issue's targets, each PASS or MISS (or n/a when this run did not measure what it needs).

import type { LoadRecord, TargetResult } from './results.js';

const find = (records: readonly LoadRecord[], contender: string, scenario: string, mode: LoadRecord['mode'] = 'throughput'): LoadRecord | undefined =>
  records.find((r) => r.contender === contender && r.scenario === scenario && r.mode === mode && r.valid);

export function evaluateTargets(records: readonly LoadRecord[]): TargetResult[] {
  const targets: TargetResult[] = [];
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
  return targets;
}

function limit(name: string, value: number | undefined, max: number, unit: string): TargetResult {
  return { name, target: `≤ ${max} ${unit}`, actual: value === undefined ? 'not measured' : `${value.toFixed(unit === 'ms' ? 3 : 1)} ${unit}`, pass: value === undefined ? null : value <= max };
}
