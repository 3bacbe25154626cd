// /health and /probe/graphql (REFERENCE §11.4-11.5): always open, no key needed.

import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import type { Route, RouteContext } from './route.js';

const json = 'application/json';

export const healthRoute: Route = {
  scope: undefined,
  async handle(exchange: Exchange, _mode, context: RouteContext): Promise<Reply> {
    const live = new URLSearchParams(exchange.request.query).has('live');
    if (context.engine.probe().status === 'init' && !live) {
      return { status: 503, contentType: 'text/plain; charset=utf-8', body: 'the server is not ready yet' };
    }
    return { status: 200, contentType: json, body: JSON.stringify([context.engine.health(context.address())]) };
  },
};

export const probeRoute: Route = {
  scope: undefined,
  async handle(_exchange, _mode, context: RouteContext): Promise<Reply> {
    try {
      const probe = context.engine.probe();
      return { status: probe.status === 'init' ? 503 : 200, contentType: json, body: JSON.stringify(probe) };
    } catch (error) {
      return { status: 500, contentType: json, body: JSON.stringify({ error: error instanceof Error ? error.message : String(error) }) };
    }
  },
};
