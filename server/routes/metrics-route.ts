// GET /metrics (Prometheus text format): open when no admin key is set, like /admin.

import { createMetrics, metricsContentType } from '../metrics.js';
import { refusals } from '../responses.js';
import { answering, type Route } from './route.js';
import type { Registry } from 'prom-client';
import type { RequestFigures } from '../request-figures.js';

/** One registry per server (a process runs one; tests may start several in one process). */
const registries = new WeakMap<RequestFigures, Registry>();

export const metricsRoute: Route = {
  scope: 'admin',
  handle: answering(async (exchange, _mode, context) => {
    if (exchange.request.method !== 'GET') throw refusals.invalidMethod();
    let registry = registries.get(context.figures);
    if (registry === undefined) registries.set(context.figures, (registry = createMetrics(context.engine, context.figures)));
    return { status: 200, contentType: metricsContentType, body: await registry.metrics() };
  }),
};
