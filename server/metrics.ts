// GET /metrics: Prometheus text from prom-client. Figures are read when scraped (collect), so the
// request path pays nothing for them.

import { Counter, Gauge, Registry } from 'prom-client';
import { cacheStats, type Engine } from '../engine/index.js';
import { socketFigures } from './sockets/graphql-sockets.js';

export const metricsContentType = Registry.PROMETHEUS_CONTENT_TYPE;

const fanOutQuantiles = [0.5, 0.9, 0.99, 1] as const;

export function createMetrics(engine: Engine): Registry {
  const registry = new Registry();
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
  new Gauge({
    name: 'graphdb_ws_connections',
    help: 'Open WebSocket connections (GraphQL subscriptions)',
    registers: [registry],
    collect() {
      this.set(socketFigures().connections);
    },
  });
  new Gauge({
    name: 'graphdb_subscriptions',
    help: 'Live subscriptions over all WebSocket connections',
    registers: [registry],
    collect() {
      this.set(socketFigures().subscriptions);
    },
  });
  new Gauge({
    name: 'graphdb_subscription_groups',
    help: 'Groups of live subscriptions alike in document, variables and token (each evaluated once per commit that concerns it)',
    registers: [registry],
    collect() {
      this.set(engine.subscriptionFigures.groups);
    },
  });
  new Counter({
    name: 'graphdb_subscription_evaluations_total',
    help: 'Runs of a subscription group (first answers, and again after each commit that wrote a predicate or type it reads)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(engine.subscriptionFigures.evaluations);
    },
  });
  new Counter({
    name: 'graphdb_subscription_answers_total',
    help: 'Changed subscription answers handed to subscribers after commits',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(engine.subscriptionFigures.answers);
    },
  });
  new Gauge({
    name: 'graphdb_subscription_fanout_seconds',
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
  new Counter({
    name: 'graphdb_ws_slow_clients_closed_total',
    help: 'WebSocket clients disconnected for leaving more than --ws-max-backpressure-bytes unread',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(socketFigures().slowClientsClosed);
    },
  });
  return registry;
}
