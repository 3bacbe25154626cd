// Request stages for every path: route lookup → OPTIONS/CORS → key check → route → reply (with
// /graphql's schema-dependent headers).
// Refusals (HttpError) and unexpected failures are rendered here, nowhere else.

import { randomUUID } from 'node:crypto';
import { authHeader, KeyChecker } from './auth.js';
import type { Exchange } from './exchange.js';
import { HttpError, errorBody, httpMessages } from './http-error.js';
import type { Reply } from './http-types.js';
import { contentTypeFor, responseMode, type ResponseMode } from './negotiate.js';
import { sendReply } from './reply-writer.js';
import { graphqlCorsHeaders } from './cors-headers.js';
import { schemaRoute, validateSchemaRoute } from './routes/admin-schema-routes.js';
import { snapshotRoute } from './routes/admin-snapshot-route.js';
import { adminRoute, graphqlRoute } from './routes/graphql-route.js';
import type { Route, RouteContext } from './routes/route.js';
import { healthRoute, probeRoute } from './routes/status-routes.js';

const routes: ReadonlyMap<string, Route> = new Map([
  ['/graphql', graphqlRoute],
  ['/admin', adminRoute],
  ['/admin/schema', schemaRoute],
  ['/admin/schema/validate', validateSchemaRoute],
  ['/admin/snapshot', snapshotRoute],
  ['/health', healthRoute],
  ['/probe/graphql', probeRoute],
]);

export class Router {
  readonly #keys: KeyChecker;

  constructor(private readonly context: RouteContext) {
    this.#keys = new KeyChecker(context.config);
  }

  async handle(exchange: Exchange): Promise<void> {
    const started = performance.now();
    const mode = responseMode(exchange.header('accept'));
    const lengths = exchange.request.conflictingLengths;
    if (lengths !== undefined) {
      // The body's framing is ambiguous, so the connection cannot carry another request either.
      const refused = refusal(new HttpError(400, httpMessages.conflictingLengths(lengths)), mode);
      exchange.write(refused.status, { 'Content-Type': refused.contentType ?? 'application/json' }, refused.body, true);
      return;
    }
    const route = routes.get(exchange.request.path);
    const reply = await this.#reply(exchange, route, mode);
    try {
      const sending = route?.schemaHeaders === true ? this.#sendGraphql(exchange, reply) : sendReply(exchange, reply);
      if (sending !== undefined) await sending;
    } catch (error) {
      const failure = refusal(this.#internal(error), mode);
      exchange.write(failure.status, { 'Content-Type': failure.contentType ?? 'application/json' }, failure.body);
    }
    if (!this.context.log.enabled('debug')) return;
    this.context.log.debug('request', {
      method: exchange.request.method,
      path: exchange.request.path,
      status: exchange.aborted ? 'aborted' : reply.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  }

  /** /graphql: CORS by the schema's Allow-Origin list; refusals count 0 touched uids (not OPTIONS: headers only). */
  #sendGraphql(exchange: Exchange, reply: Reply): Promise<void> | undefined {
    const cors = graphqlCorsHeaders(this.context.engine.corsPolicy, exchange.header('origin'));
    const counted = reply.touchedUids !== undefined || exchange.request.method === 'OPTIONS' ? reply : { ...reply, touchedUids: 0 };
    return sendReply(exchange, counted, cors);
  }

  async #reply(exchange: Exchange, route: Route | undefined, mode: ResponseMode): Promise<Reply> {
    try {
      if (route === undefined) throw new HttpError(404, httpMessages.notFound(exchange.request.path));
      if (exchange.request.method === 'OPTIONS') return { status: 200, body: '' };
      if (route.scope !== undefined) this.#keys.check(route.scope, exchange.header(authHeader));
      return await route.handle(exchange, mode, this.context);
    } catch (error) {
      if (error instanceof HttpError) return refusal(error, mode);
      return refusal(this.#internal(error), mode);
    }
  }

  #internal(error: unknown): HttpError {
    const id = randomUUID();
    this.context.log.error('internal error', { requestId: id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return new HttpError(500, `Internal error (request ${id}).`);
  }
}

function refusal(error: HttpError, mode: ResponseMode): Reply {
  const reply: Reply = { status: error.status, contentType: contentTypeFor(mode), body: errorBody(error.message, error.code) };
  return error.headers === undefined ? reply : { ...reply, headers: error.headers };
}
