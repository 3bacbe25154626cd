// Request stages for every path: route lookup → OPTIONS/CORS → key check → route → reply (with
// /graphql's schema-dependent headers).
// Every request passes through `handle`, the edge's one catch-all: refusals (HttpError) become their
// replies, anything unexpected is logged and answered 500 (responses.ts decides both).

import { authHeader, KeyChecker } from './auth.js';
import { Exchange } from './exchange.js';
import type { IncomingRequest, Reply, ResponseSink } from './http-types.js';
import { prefersHtml, responseMode, type ResponseMode } from './negotiate.js';
import { failureReply, optionsReply, refusalReply, refusals } from './responses.js';
import { sendReply } from './reply-writer.js';
import { nextRequestId } from './request-id.js';
import { graphqlCorsHeaders } from './cors-headers.js';
import { schemaRoute, validateSchemaRoute } from './routes/admin-schema-routes.js';
import { snapshotRoute } from './routes/admin-snapshot-route.js';
import { adminRoute, graphqlRoute } from './routes/graphql-route.js';
import type { Answer, Respond, Route, RouteContext } from './routes/route.js';
import { healthRoute, probeRoute } from './routes/status-routes.js';
import { metricsRoute } from './routes/metrics-route.js';
import { graphiqlAssetRoutes, graphiqlPageRoute } from './routes/graphiql-route.js';
import { RequestFigures } from './request-figures.js';

const routes: ReadonlyMap<string, Route> = new Map([
  ['/graphql', graphqlRoute],
  ['/admin', adminRoute],
  ['/admin/schema', schemaRoute],
  ['/admin/schema/validate', validateSchemaRoute],
  ['/admin/snapshot', snapshotRoute],
  ['/health', healthRoute],
  ['/probe/graphql', probeRoute],
  ['/metrics', metricsRoute],
  ...graphiqlAssetRoutes,
]);

/** The /metrics figures' route labels: each path, GraphiQL's page and files as one label each. */
export function createRequestFigures(enabled: boolean): RequestFigures {
  const labels = [...routes].map(([path, route]): [string, Route] => [graphiqlAssetRoutes.has(path) ? '/graphiql/*' : path, route]);
  return new RequestFigures([...labels, ['graphiql', graphiqlPageRoute]], enabled);
}

/** Where a browser's GET for a page (Accept prefers text/html, no `query` parameter) gets GraphiQL instead. */
const pages: ReadonlyMap<string, Route> = new Map([
  ['/graphql', graphiqlPageRoute],
  ['/', graphiqlPageRoute],
]);

/** GraphiQL for a browser's page request, else the path's route. */
function pageFor(request: IncomingRequest): Route | undefined {
  const page = pages.get(request.path);
  return page !== undefined && !new URLSearchParams(request.query).has('query') ? page : routes.get(request.path);
}

/** Stands for a request the transport could not copy out. */
const noRequest: IncomingRequest = { method: 'GET', path: '', query: '', headers: {} };

export class Router {
  readonly #keys: KeyChecker;
  /** Whether a request needs its start time for the log (request line or slow log). */
  readonly #timed: boolean;
  /** Requests left until the next sampled request line. */
  #untilLogged = 1;

  constructor(private readonly context: RouteContext) {
    this.#keys = new KeyChecker(context.config);
    this.#timed = context.config.logRequests > 0 || context.config.slowMs > 0;
  }

  /**
   * A request that failed before it reached `handle` (the transport could not copy it): answered 500
   * through the same catch-all, on a closing connection, if the client is still there.
   */
  fail(error: unknown, sink: ResponseSink): void {
    const requestId = nextRequestId();
    const failure = failureReply(error, 'json', this.context.log, requestId);
    try {
      // The id as the request's own, so the answer's X-Request-Id is the one its text and record carry.
      new Exchange({ ...noRequest, headers: { 'x-request-id': requestId } }, sink, () => undefined).write(failure.status, { 'Content-Type': 'application/json' }, failure.body, true);
    } catch {
      // the response was already finished or aborted: nothing left to answer
    }
  }

  /**
   * Never throws: whatever goes wrong is answered here. Synchronous up to the route, and so is the rest
   * when the route answers from inside the transport's callback (most /graphql requests).
   */
  handle(exchange: Exchange): void {
    const accept = exchange.header('accept');
    const mode = responseMode(accept);
    const route = exchange.request.method === 'GET' && prefersHtml(accept) ? pageFor(exchange.request) : routes.get(exchange.request.path);
    const started = this.context.figures.enabled || this.#timed || this.context.log.enabled('debug') ? performance.now() : 0;
    let responded = false;
    const respond: Respond = (answer) => {
      if (responded) return;
      responded = true;
      this.#answer(exchange, route, mode, answer, started);
    };
    try {
      const lengths = exchange.request.conflictingLengths;
      if (lengths !== undefined) {
        // The body's framing is ambiguous, so the connection cannot carry another request either.
        const reply = refusalReply(refusals.conflictingLengths(lengths), mode);
        exchange.write(reply.status, { 'Content-Type': reply.contentType ?? 'application/json' }, reply.body, true);
        return;
      }
      if (route === undefined) throw refusals.notFound(exchange.request.path);
      if (exchange.request.method === 'OPTIONS') return respond(() => optionsReply);
      if (route.scope !== undefined) this.#keys.check(route.scope, exchange.header(authHeader));
      route.handle(exchange, mode, this.context, respond);
    } catch (error) {
      respond(() => {
        throw error;
      });
    }
  }

  /** The route's answer, or the catch-all's (refusals as themselves, anything else a logged 500). */
  #answer(exchange: Exchange, route: Route | undefined, mode: ResponseMode, answer: () => Answer, started: number): void {
    let reply: Answer;
    try {
      reply = answer();
    } catch (error) {
      reply = this.#failed(exchange, error, mode);
    }
    if (!(reply instanceof Promise)) return this.#deliver(exchange, route, mode, reply, started);
    reply.then(
      (settled) => this.#deliver(exchange, route, mode, settled, started),
      (error: unknown) => this.#deliver(exchange, route, mode, this.#failed(exchange, error, mode), started),
    );
  }

  /** The catch-all's answer; an internal error always gets its request line. */
  #failed(exchange: Exchange, error: unknown, mode: ResponseMode): Reply {
    const reply = failureReply(error, mode, this.context.log, exchange.requestId);
    if (reply.status >= 500) exchange.failed = true;
    return reply;
  }

  /** Sends the reply; failing while sending, a bare answer goes out instead, if the client is still there. */
  #deliver(exchange: Exchange, route: Route | undefined, mode: ResponseMode, reply: Reply, started: number): void {
    try {
      const sending = this.#send(exchange, route, reply);
      if (sending === undefined) this.#logRequest(exchange, route, reply, started);
      else
        void sending.then(
          () => this.#logRequest(exchange, route, reply, started),
          (error: unknown) => this.#failedSending(exchange, mode, error),
        );
    } catch (error) {
      this.#failedSending(exchange, mode, error);
    }
  }

  #failedSending(exchange: Exchange, mode: ResponseMode, error: unknown): void {
    const failure = failureReply(error, mode, this.context.log, exchange.requestId);
    exchange.write(failure.status, { 'Content-Type': failure.contentType ?? 'application/json' }, failure.body);
  }

  /**
   * The request's figures, the slow-request line and the sampled request line (every request at debug);
   * `started` is 0 when all were off as the request came in. Built from values at hand, no child logger.
   */
  #logRequest(exchange: Exchange, route: Route | undefined, reply: Reply, started: number): void {
    if (started === 0) return;
    const ms = performance.now() - started;
    const figures = this.context.figures;
    if (figures.enabled) figures.record(route, exchange.operation, reply.status, exchange.graphqlErrors, exchange.aborted, ms);
    const { log, config } = this.context;
    const slow = config.slowMs > 0 && ms >= config.slowMs;
    // An internal error's request line is always written, with the id its answer and its error record carry.
    const failed = exchange.failed;
    const sampled = failed || (config.logRequests > 0 && --this.#untilLogged === 0);
    if (sampled && !failed) this.#untilLogged = config.logRequests;
    if (!slow && !sampled && !log.enabled('debug')) return;
    const operation = exchange.operationName ?? undefined;
    const rounded = Math.round(ms * 10) / 10;
    if (slow) log.warn('slow request', { path: exchange.request.path, operation, ms: rounded, requestId: exchange.requestId });
    if (!sampled && !log.enabled('debug')) return;
    log.info('request', {
      method: exchange.request.method,
      path: exchange.request.path,
      operation,
      status: exchange.aborted ? 'aborted' : reply.status,
      ms: rounded,
      bytes: reply.stream?.size ?? (typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.byteLength),
      requestId: exchange.requestId,
    });
  }

  #send(exchange: Exchange, route: Route | undefined, reply: Reply): Promise<void> | undefined {
    return route?.schemaHeaders === true ? this.#sendGraphql(exchange, reply) : sendReply(exchange, reply);
  }

  /** /graphql: CORS by the schema's Allow-Origin list; refusals count 0 touched uids (not OPTIONS: headers only). */
  #sendGraphql(exchange: Exchange, reply: Reply): Promise<void> | undefined {
    const cors = graphqlCorsHeaders(this.context.engine.corsPolicy, exchange.header('origin'));
    const counted = reply.touchedUids !== undefined || exchange.request.method === 'OPTIONS' ? reply : { ...reply, touchedUids: 0 };
    return sendReply(exchange, counted, cors);
  }
}
