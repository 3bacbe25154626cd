// /health and /probe/graphql (REFERENCE §11.4-11.5): always open, no key needed.

import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import { healthReply, probeReply } from '../responses.js';
import { answering, type Route, type RouteContext } from './route.js';

export const healthRoute: Route = {
  scope: undefined,
  handle: answering((exchange: Exchange, _mode, context: RouteContext): Reply => {
    const live = new URLSearchParams(exchange.request.query).has('live');
    const ready = live || context.engine.probe().status !== 'init';
    return healthReply(ready ? context.engine.health(context.address()) : undefined);
  }),
};

export const probeRoute: Route = {
  scope: undefined,
  handle: answering((_exchange, _mode, context: RouteContext): Reply => {
    return probeReply(context.engine.probe());
  }),
};
