// GET /metrics: Prometheus text from prom-client. Figures are read when scraped (collect), so the
// request path pays nothing for them.

import { Counter, Registry } from 'prom-client';
import { cacheStats } from '../engine/index.js';

export const metricsContentType = Registry.PROMETHEUS_CONTENT_TYPE;

export function createMetrics(): Registry {
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
  return registry;
}
