// /graphql and /admin: decode → engine → status by response kind and client media type.

import type { EngineResponse, GraphQLRequest } from '../../engine/index.js';
import type { Exchange } from '../exchange.js';
import { decodeGraphqlRequest } from '../graphql-request-decoder.js';
import type { Reply } from '../http-types.js';
import { contentTypeFor, statusFor, type ResponseMode } from '../negotiate.js';
import type { Route, RouteContext } from './route.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type Run = (context: RouteContext, request: GraphQLRequest) => Promise<EngineResponse>;

function graphqlEndpoint(scope: 'graphql' | 'admin', run: Run): Route {
  return {
    scope,
    schemaHeaders: scope === 'graphql',
    async handle(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> {
      const { request, malformedVariables } = await decodeGraphqlRequest(exchange, context.config.maxBodyBytes);
      const response = await run(context, request);
      const status = malformedVariables && response.kind === 'request-error' ? 400 : statusFor(response.kind, mode);
      // Built in place (no spreads): this runs for every request.
      const reply: Mutable<Reply> = { status, contentType: contentTypeFor(mode), body: response.bytes ?? response.body };
      if (response.cacheMaxAge !== undefined) reply.cacheMaxAge = response.cacheMaxAge;
      if (scope === 'graphql') reply.touchedUids = response.touchedUids ?? 0;
      if (status === 405) reply.headers = { Allow: 'POST, OPTIONS' };
      return reply;
    },
  };
}

export const graphqlRoute = graphqlEndpoint('graphql', (context, request) => context.engine.execute(request));
export const adminRoute = graphqlEndpoint('admin', (context, request) => context.engine.executeAdmin(request, context.admin));
