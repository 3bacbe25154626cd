// GET /metrics (Prometheus text format): open when no admin key is set, like /admin.

import { metricsContentType } from '../metrics.js';
import { refusals } from '../responses.js';
import { answering, type Route } from './route.js';

export const metricsRoute: Route = {
  scope: 'admin',
  handle: answering(async (exchange, _mode, context) => {
    if (exchange.request.method !== 'GET') throw refusals.invalidMethod();
    return { status: 200, contentType: metricsContentType, body: await context.metrics.text() };
  }),
};
