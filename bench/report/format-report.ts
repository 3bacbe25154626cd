// Renders a run as Markdown tables: printed to stdout and written into bench/README.md.

import type { MicroReport } from '../micro/run-micro.js';
import type { LoadRecord, RunReport } from './results.js';
import type { CacheLookups } from '../load/cache-lookups.js';

const peers = ['ceiling', 'mercurius', 'apollo', 'yoga'] as const;
const contenderOrder = ['ceiling', 'service', 'mercurius', 'apollo', 'yoga'];

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const num = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');

/** "—": the contender did not run the shape (a peer whose GraphQL subset cannot express it). */
function cell(record: LoadRecord | undefined, show: (r: LoadRecord) => string): string {
  if (record === undefined) return '—';
  return record.valid ? show(record) : `INVALID (${show(record)})`;
}

function throughputTable(records: readonly LoadRecord[], scenarios: readonly string[], contenders: readonly string[]): string {
  const get = (c: string, s: string): LoadRecord | undefined => records.find((r) => r.contender === c && r.scenario === s && r.mode === 'throughput');
  const rows = scenarios.map((s) => {
    const ours = get('service', s);
    const ratios = peers.map((p) => {
      const theirs = get(p, s);
      return ours?.valid && theirs?.valid ? num(ours.rps / theirs.rps, 2) : '–';
    });
    return [s, ...contenders.map((c) => cell(get(c, s), (r) => num(r.rps))), ...ratios];
  });
  return table(['scenario (req/s)', ...contenders, ...peers.map((p) => `service/${p}`)], rows);
}

function latencyTable(records: readonly LoadRecord[], scenarios: readonly string[], contenders: readonly string[]): string {
  const get = (c: string, s: string): LoadRecord | undefined => records.find((r) => r.contender === c && r.scenario === s && r.mode === 'throughput');
  const rows = scenarios.map((s) => [s, ...contenders.map((c) => cell(get(c, s), (r) => `${num(r.p50Ms, 3)} / ${num(r.p99Ms, 3)}`))]);
  return table(['scenario (p50 / p99 ms)', ...contenders], rows);
}

/** CPU per request is far less sensitive to a shared machine than req/s. */
function cpuTable(records: readonly LoadRecord[], scenarios: readonly string[], contenders: readonly string[]): string {
  const get = (c: string, s: string): LoadRecord | undefined => records.find((r) => r.contender === c && r.scenario === s && r.mode === 'throughput');
  const rows = scenarios.map((s) => {
    const ours = get('service', s)?.cpuUsPerRequest ?? null;
    const ratios = peers.map((p) => {
      const theirs = get(p, s)?.cpuUsPerRequest ?? null;
      return ours !== null && theirs !== null && get(p, s)?.valid && get('service', s)?.valid ? num(theirs / ours, 2) : '–';
    });
    return [s, ...contenders.map((c) => cell(get(c, s), (r) => (r.cpuUsPerRequest === null ? '–' : num(r.cpuUsPerRequest, 1)))), ...ratios];
  });
  return table(['scenario (CPU µs/req)', ...contenders, ...peers.map((p) => `${p}/service`)], rows);
}

/** Issue #20's table: per shape the service against the ceiling answering the same bytes, and the peers' req/s. */
function matrixTable(records: readonly LoadRecord[], scenarios: readonly string[], contenders: readonly string[]): string {
  const get = (c: string, s: string): LoadRecord | undefined => records.find((r) => r.contender === c && r.scenario === s && r.mode === 'throughput');
  const others = peers.filter((p) => p !== 'ceiling' && contenders.includes(p));
  const rows = scenarios.map((s) => {
    const ours = get('service', s);
    const ceiling = get('ceiling', s);
    return [
      s,
      ours?.distinctBodies === undefined ? '—' : num(ours.distinctBodies),
      cell(ceiling, (r) => num(r.rps)),
      cell(ours, (r) => num(r.rps)),
      ours?.valid && ceiling?.valid ? num(ours.rps / ceiling.rps, 2) : '—',
      cell(ours, (r) => `${num(r.p50Ms, 3)} / ${num(r.p99Ms, 3)}`),
      cell(ours, (r) => (r.cpuUsPerRequest === null ? '—' : num(r.cpuUsPerRequest, 1))),
      cell(ceiling, (r) => (r.cpuUsPerRequest === null ? '—' : num(r.cpuUsPerRequest, 1))),
      ours?.caches === undefined ? '—' : hitRates(ours.caches),
      ...others.map((p) => cell(get(p, s), (r) => num(r.rps))),
    ];
  });
  return table(['shape', 'bodies', 'ceiling req/s', 'service req/s', 'service/ceiling', 'service p50 / p99 ms', 'service CPU µs/req', 'ceiling CPU µs/req', 'cache hits', ...others.map((p) => `${p} req/s`)], rows);
}

/** `document 100%, plan 99.9%`: hits per lookup of each cache consulted. */
function hitRates(caches: CacheLookups): string {
  const rates = Object.entries(caches).map(([name, c]) => `${name} ${num((100 * c.hits) / (c.hits + c.misses), c.hits === c.hits + c.misses || c.hits === 0 ? 0 : 1)}%`);
  return rates.length === 0 ? 'none consulted' : rates.join(', ');
}

function detailTable(records: readonly LoadRecord[]): string {
  const rows = [...records]
    .sort((a, b) => contenderOrder.indexOf(a.contender) - contenderOrder.indexOf(b.contender))
    .map((r) => [
      r.contender,
      r.scenario,
      `${r.mode === 'fixed-rate' ? `fixed ${r.overallRate ?? 0} req/s` : r.mode}, ${r.connections} conn, ${r.generator ?? 'autocannon'}`,
      r.valid ? 'yes' : `NO: ${(r.invalidReason ?? '').slice(0, 80)}`,
      num(r.rps),
      num(r.p50Ms, 3),
      num(r.p99Ms, 3),
      `${r.errors} / ${r.non2xx}`,
      r.cpuUsPerRequest === null ? '–' : num(r.cpuUsPerRequest, 1),
    ]);
  return table(['contender', 'scenario', 'run', 'answer ok', 'req/s', 'p50 ms', 'p99 ms', 'errors / non-2xx', 'CPU µs/req'], rows);
}

function microTable(micro: MicroReport): string {
  const names = [...new Set(micro.results.map((r) => r.name))];
  const sizes = [...new Set(micro.results.map((r) => r.nodes))].sort((a, b) => a - b);
  const rows = names.map((n) => [n, ...sizes.map((size) => {
    const found = micro.results.find((r) => r.name === n && r.nodes === size);
    return found === undefined ? '–' : num(found.usPerOp, 2);
  })]);
  return table(['engine op (µs/op, median round)', ...sizes.map((s) => `${num(s)} nodes`)], rows);
}

export function formatReport(report: RunReport): string {
  const scenarios = [...new Set(report.records.map((r) => r.scenario))];
  const contenders = contenderOrder.filter((c) => report.records.some((r) => r.contender === c));
  const m = report.machine;
  const s = report.settings;
  const parts = [
    `Machine: ${m.cpus} cores, ${m.cpuModel}; Node ${m.node}; ${m.date}; commit ${m.commit}.`,
    `Command: \`${m.command}\`; ${s.durationS} s timed after ${s.warmupS} s warm-up per run; ${s.connections} connections; ${num(s.posts)} posts, ${num(s.authors)} authors; ${m.pinning}.`,
    '',
    `**Shape matrix** (${s.load ?? 'autocannon'}; "bodies": distinct request bodies the run cycled through; "—": not run, the peers' subset cannot express the shape)`,
    '',
    matrixTable(report.records, scenarios, contenders),
    '',
    `Cache hit rates: ${report.caches ?? 'not recorded'}.`,
    '',
    '**Throughput** (ratios > 1: the service is faster)',
    '',
    throughputTable(report.records, scenarios, contenders),
    '',
    `**Latency at ${s.connections} connections**`,
    '',
    latencyTable(report.records, scenarios, contenders),
    '',
    '**CPU per request** (server process utime + stime / requests; ratios > 1: the service uses less)',
    '',
    cpuTable(report.records, scenarios, contenders),
    '',
    '**Targets**',
    '',
    table(['target', 'goal', 'measured', 'result'], report.targets.map((t) => [t.name, t.target, t.actual, t.pass === null ? 'n/a' : t.pass ? 'PASS' : 'MISS'])),
    '',
    '**All runs**',
    '',
    detailTable(report.records),
  ];
  if (report.micro !== null) parts.push('', '**Engine micro-benchmarks** (in process, no HTTP)', '', microTable(report.micro));
  for (const f of report.failures) parts.push('', `- ${f.contender} could not run: ${f.error.split('\n')[0] ?? ''}`);
  for (const p of report.pending) parts.push('', `- scenario ${p.name}: pending, ${p.reason}`);
  return parts.join('\n');
}
