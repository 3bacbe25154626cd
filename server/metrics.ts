// GET /metrics: Prometheus text from prom-client. Figures are read when scraped (collect), so the
// request path pays nothing for them.

import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricType, type MetricValueWithName } from 'prom-client';
import { cacheStats, customCallFigures, latencyBuckets, persistFigures, type Engine, type LatencyTally, type StoreFigures } from '../engine/index.js';
import { socketFigures } from './sockets/graphql-sockets.js';
import { operations, outcomes, type RequestFigures } from './request-figures.js';

export const metricsContentType = Registry.PROMETHEUS_CONTENT_TYPE;

const fanOutQuantiles = [0.5, 0.9, 0.99, 1] as const;

/**
 * A histogram over LatencyTally counts (plain numbers bumped on hot paths), registered as a prom-client
 * metric object (its type is a declared enum with no runtime value, hence the cast): prom-client's own Histogram hashes a label object per observation.
 */
function tallyHistogram(registry: Registry, name: string, help: string, tallies: () => readonly (readonly [Record<string, string>, LatencyTally])[]): void {
  const get = (): Promise<Omit<MetricObjectWithValues<MetricValueWithName<string>>, 'collect'>> => {
    const values: MetricValueWithName<string>[] = [];
    for (const [labels, tally] of tallies()) {
      let cumulative = 0;
      latencyBuckets.forEach((le, i) => {
        cumulative += tally.counts[i] as number;
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: tally.count });
      values.push({ metricName: `${name}_sum`, labels, value: tally.sum });
      values.push({ metricName: `${name}_count`, labels, value: tally.count });
    }
    return Promise.resolve({ name, help, type: 'histogram' as unknown as MetricType, aggregator: 'sum', values });
  };
  registry.registerMetric({ name, get } as never);
}

function counter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function gauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/**
 * `processWide`: also what the whole process has once (Node's process figures, the store's sizes, the
 * log and snapshots). A replica thread's registry (`--threads`) has only its own traffic, summed with
 * the writer's by `mergedMetricsText`.
 */
export function createMetrics(engine: Engine, figures: RequestFigures, processWide = true): Registry {
  const registry = new Registry();
  if (processWide) collectDefaultMetrics({ register: registry });
  new Counter({
    name: 'graphdb_requests_total',
    help: 'HTTP requests by route, GraphQL operation type and outcome (ok: status below 400; error: the answer carries GraphQL errors, whatever its status; refused: other 4xx; failed: 5xx; aborted: the client left)',
    labelNames: ['route', 'operation', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const counts = figures.counts;
      for (let i = 0; i < counts.length; i++) {
        const n = counts[i] as number;
        if (n === 0) continue;
        const outcome = i % outcomes.length;
        const operation = Math.floor(i / outcomes.length) % operations.length;
        const route = Math.floor(i / (outcomes.length * operations.length));
        this.inc({ route: figures.routeNames[route] as string, operation: operations[operation] as string, outcome: outcomes[outcome] as string }, n);
      }
    },
  });
  tallyHistogram(registry, 'graphdb_http_request_duration_seconds', 'HTTP request duration by route, from the first look at the request to the reply handed to the socket', () =>
    figures.durations.flatMap((tally, i) => (tally.count === 0 ? [] : [[{ route: figures.routeNames[i] as string }, tally] as const])),
  );
  tallyHistogram(registry, 'graphdb_engine_execution_seconds', 'Engine execution of /graphql and /admin requests by operation type (parsed request to answer)', () =>
    figures.executions.map((tally, i) => [{ operation: operations[i] as string }, tally] as const),
  );
  gauge(registry, 'graphdb_requests_in_flight', 'HTTP requests received and not yet answered', () => figures.inFlight);
  tallyHistogram(registry, 'graphdb_custom_call_duration_seconds', 'Batches of @custom HTTP / @lambda calls (one field’s calls sent together), from send to the last answer', () => [[{}, customCallFigures.durations]]);
  counter(registry, 'graphdb_custom_calls_total', 'Outgoing @custom HTTP / @lambda calls', () => customCallFigures.calls);
  counter(registry, 'graphdb_custom_call_errors_total', 'Outgoing calls that failed (no answer, or a status of 400 or more), timeouts included', () => customCallFigures.errors);
  counter(registry, 'graphdb_custom_call_timeouts_total', 'Outgoing calls past their deadline', () => customCallFigures.timeouts);
  gauge(registry, 'graphdb_custom_call_pool_queue', 'Batches waiting for a custom-call worker thread (0 until the pool starts)', () => engine.callPoolFigures?.queueSize ?? 0);
  gauge(registry, 'graphdb_custom_call_pool_utilization', 'Custom-call worker pool utilization, 0 to 1 (piscina; 0 until the pool starts)', () => engine.callPoolFigures?.utilization ?? 0);
  gauge(registry, 'graphdb_custom_call_pool_threads', 'Custom-call worker threads running', () => engine.callPoolFigures?.threads ?? 0);
  if (processWide) {
    storeMetrics(registry, engine);
    counter(registry, 'graphdb_log_bytes_total', 'Bytes appended to the mutation log', () => persistFigures.logBytes);
    tallyHistogram(registry, 'graphdb_log_fsync_seconds', 'fsyncs of the mutation log', () => [[{}, persistFigures.fsyncs]]);
    gauge(registry, 'graphdb_last_snapshot_timestamp_seconds', 'When this process last wrote a snapshot (Unix seconds; 0: none yet)', () => persistFigures.lastSnapshotAt);
    gauge(registry, 'graphdb_last_snapshot_duration_seconds', 'How long the last snapshot took, capture to file written', () => persistFigures.lastSnapshotSeconds);
    gauge(registry, 'graphdb_log_records_since_snapshot', 'Mutation log records after the newest snapshot (what a restart replays; 0 without a data directory)', () => engine.logRecordsSinceSnapshot ?? 0);
  }
  new Counter({
    name: 'graphdb_cache_lookups_total',
    help: 'Lookups in the caches requests rely on (documents, plans, admissions, arguments, order prefixes), by result',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const stat of cacheStats()) {
        this.inc({ cache: stat.name, result: 'hit' }, stat.hits);
        this.inc({ cache: stat.name, result: 'miss' }, stat.misses);
      }
    },
  });
  gauge(registry, 'graphdb_ws_connections', 'Open WebSocket connections (GraphQL subscriptions)', () => socketFigures().connections);
  gauge(registry, 'graphdb_subscriptions', 'Live subscriptions over all WebSocket connections', () => socketFigures().subscriptions);
  gauge(registry, 'graphdb_subscription_groups', 'Groups of live subscriptions alike in document, variables and token (each evaluated once per commit that concerns it)', () => engine.subscriptionFigures.groups);
  counter(registry, 'graphdb_subscription_evaluations_total', 'Runs of a subscription group (first answers, and again after each commit that wrote a predicate or type it reads)', () => engine.subscriptionFigures.evaluations);
  counter(registry, 'graphdb_subscription_answers_total', 'Changed subscription answers handed to subscribers after commits', () => engine.subscriptionFigures.answers);
  new Gauge({
    name: 'graphdb_subscription_fanout_seconds',
    // Quantiles do not add up over threads: the slowest thread's.
    aggregator: 'max',
    help: "Over the last 1,024 changed answers: from the commit to the answer handed to the group's last subscriber, by quantile",
    labelNames: ['quantile'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const sorted = [...engine.subscriptionFigures.fanOutMs].sort((a, b) => a - b);
      if (sorted.length === 0) return;
      for (const q of fanOutQuantiles) this.set({ quantile: String(q) }, (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) / 1000);
    },
  });
  counter(registry, 'graphdb_ws_slow_clients_closed_total', 'WebSocket clients disconnected for leaving more than --ws-max-backpressure-bytes unread', () => socketFigures().slowClientsClosed);
  return registry;
}

export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** The process's figures from every thread's registry (`--threads`): counts and histograms summed. */
export function mergedMetricsText(threads: readonly MetricsJson[]): Promise<string> {
  return AggregatorRegistry.aggregate(threads as MetricsJson[]).metrics();
}

/** Sizes from one walk of the store per scrape. */
function storeMetrics(registry: Registry, engine: Engine): void {
  // Registration order is collect order: graphdb_nodes walks first, the rest read its result.
  let figures: StoreFigures = { nodesByType: new Map(), edgesByPredicate: new Map(), indexEntries: [], arenaBytes: 0 };
  new Gauge({
    name: 'graphdb_nodes',
    help: 'Live nodes, by type (a node of several types counts in each)',
    labelNames: ['type'] as const,
    registers: [registry],
    collect() {
      figures = engine.storeFigures();
      this.reset();
      for (const [type, n] of figures.nodesByType) this.set({ type }, n);
    },
  });
  new Gauge({
    name: 'graphdb_edges',
    help: 'Edges, by predicate',
    labelNames: ['predicate'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [predicate, n] of figures.edgesByPredicate) this.set({ predicate }, n);
    },
  });
  new Gauge({
    name: 'graphdb_index_entries',
    help: 'Entries of each value index ((token, node) pairs: terms, trigrams, hashes...), by predicate and index kind',
    labelNames: ['predicate', 'kind'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { predicate, kind, entries } of figures.indexEntries) this.set({ predicate, kind }, entries);
    },
  });
  new Gauge({
    name: 'graphdb_string_arena_bytes',
    help: 'Bytes of the string arenas that hold string values',
    registers: [registry],
    collect() {
      this.set(figures.arenaBytes);
    },
  });
}
