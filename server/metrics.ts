// GET /metrics: Prometheus text from prom-client. Figures are read when scraped (collect), so the
// request path pays nothing for them.

import { Counter, Gauge, Registry } from 'prom-client';
import { cacheStats, type Engine } from '../engine/index.js';
import { socketFigures } from './sockets/graphql-sockets.js';

export const metricsContentType = Registry.PROMETHEUS_CONTENT_TYPE;

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
      this.set(engine.subscriptionGroups);
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
