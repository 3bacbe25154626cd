// What a route gets and returns. Routes throw HttpError for refusals; the router renders them.

import type { AdminHost, Engine } from '../../engine/index.js';
import type { ServerConfig } from '../config.js';
import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import type { Logger } from '../log.js';
import type { ResponseMode } from '../negotiate.js';
import type { Scope } from '../auth.js';

export interface RouteContext {
  readonly engine: Engine;
  readonly config: ServerConfig;
  readonly log: Logger;
  /** `host:port` the server listens on (for /health). */
  readonly address: () => string;
  /** What /admin's GraphQL API asks of the process (log level, export files, shutdown). */
  readonly admin: AdminHost;
}

export interface Route {
  /** Which key opens it; undefined = always open. */
  readonly scope: Scope | undefined;
  /** /graphql: CORS from the deployed schema and a `Graphql-TouchedUids` header on every answer (refusals: 0). */
  readonly schemaHeaders?: boolean;
  handle(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply>;
}
