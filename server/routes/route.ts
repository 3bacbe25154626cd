// What a route gets and returns. Routes throw HttpError for refusals; the router renders them.

import type { AdminHost, Engine } from '../../engine/index.js';
import type { ServerConfig } from '../config.js';
import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import type { Logger } from '../log.js';
import type { ResponseMode } from '../negotiate.js';
import type { Scope } from '../auth.js';
import type { MetricsJson } from '../metrics.js';
import type { RequestFigures } from '../request-figures.js';

export interface RouteContext {
  readonly engine: Engine;
  readonly config: ServerConfig;
  readonly log: Logger;
  /** `host:port` the server listens on (for /health). */
  readonly address: () => string;
  /** What /admin's GraphQL API asks of the process (log level, export files, shutdown). */
  readonly admin: AdminHost;
  /** Per-request figures for /metrics (request-figures.ts). */
  readonly figures: RequestFigures;
  /** /metrics: this server's registry, merged with the other threads' under `--threads` (http-server.ts). */
  readonly metrics: ServerMetrics;
}

export interface ServerMetrics {
  /** The Prometheus text of the process. */
  text(): Promise<string>;
  /** This thread's own figures, for the writer thread to merge. */
  json(): Promise<MetricsJson>;
}

/** A route's answer: the reply, or a promise of it. */
export type Answer = Reply | Promise<Reply>;

/**
 * Hands the router the answer: a function that computes it, called inside the router's catch-all (so a
 * refusal it throws is answered like a returned reply). Called exactly once per request.
 */
export type Respond = (answer: () => Answer) => void;

export interface Route {
  /** Which key opens it; undefined = always open. */
  readonly scope: Scope | undefined;
  /** /graphql: CORS from the deployed schema and a `Graphql-TouchedUids` header on every answer (refusals: 0). */
  readonly schemaHeaders?: boolean;
  /**
   * Answers through `respond`, at once or once the body has arrived: continuation-passing rather than a
   * promise, so a /graphql answer ready inside uWS's data callback is written there, still corked.
   * A refusal thrown before `respond` is the router's too.
   */
  handle(exchange: Exchange, mode: ResponseMode, context: RouteContext, respond: Respond): void;
}

/** A route whose answer is a function of the request (most routes): `respond` with it at once. */
export function answering(answer: (exchange: Exchange, mode: ResponseMode, context: RouteContext) => Answer): Route['handle'] {
  return (exchange, mode, context, respond) => respond(() => answer(exchange, mode, context));
}
